// Prefetch: asks for an object's cache lines ahead of a walk that will read it. The planner's
// queue entries and the keeper's kept jobs each live in an allocation of their own, and a walk
// of a deep queue waited on each one's lines in turn (most of a compression's time on
// LPC-EGEE's queue of thousands).
#pragma once

#include <cstddef>

namespace campaign::plan
{

inline constexpr size_t kCacheLineBytes = 64;

template <class T> void prefetch_object(const T *object)
{
	const char *bytes = reinterpret_cast<const char *>(object);
	for (size_t line = 0; line < sizeof(T); line += kCacheLineBytes)
		__builtin_prefetch(bytes + line);
}

} // namespace campaign::plan
