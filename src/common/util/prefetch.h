// Prefetch: asks for an object's cache lines ahead of a walk that will read it. The planner's
// queue entries, the keeper's kept jobs and the core's job records each live apart in memory,
// and a walk of a deep queue waited on each one's lines in turn (most of a compression's time
// on LPC-EGEE's queue of thousands).
#pragma once

#include <cstddef>

namespace campaign
{

inline constexpr size_t kCacheLineBytes = 64;

// One line. g++ 12 drops a __builtin_prefetch whose address comes from the queue's own
// pointer array when inlined into a walk (StableQueue::prefetch in compression emitted no
// instruction at all), so on x86-64 the instruction is written out.
inline void prefetch_line(const char *line)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	asm volatile("prefetcht0 %0" : : "m"(*line));
#else
	__builtin_prefetch(line);
#endif
}

template <class T> void prefetch_object(const T *object)
{
	const char *bytes = reinterpret_cast<const char *>(object);
	for (size_t line = 0; line < sizeof(T); line += kCacheLineBytes)
		prefetch_line(bytes + line);
}

} // namespace campaign
