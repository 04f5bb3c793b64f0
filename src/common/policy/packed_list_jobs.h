// PackedListJobs: a campaign's list-schedule jobs (ListJob) kept as LEB128 varints, about 7
// bytes a job instead of 24. Storage only: no scheduling, no Slurm types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace campaign
{

// One job of a campaign as the list schedule sees it.
struct ListJob {
	uint32_t job_id = 0;
	uint32_t cpus = 1;
	uint32_t tasks = 1; // array tasks: `tasks` copies
	int64_t length_s = 0;
};

// A campaign's list-schedule jobs in the order they joined, packed as LEB128 varints: the job
// id as the zigzag difference from the previous job's, then cpus, tasks and the zigzag length
// (about 7 bytes a job instead of a 24-byte ListJob). Lossless for every ListJob value.
class PackedListJobs
{
public:
	// Decodes one job at a time; `*it` returns the job by value.
	class const_iterator
	{
	public:
		using iterator_category = std::input_iterator_tag;
		using value_type = ListJob;
		using difference_type = std::ptrdiff_t;
		using pointer = const ListJob *;
		using reference = ListJob;

		const_iterator(const uint8_t *cursor, const uint8_t *end);
		ListJob operator*() const { return job_; }
		const_iterator &operator++();
		bool operator==(const const_iterator &other) const
		{
			return cursor_ == other.cursor_;
		}

	private:
		const uint8_t *cursor_; // the current job's first byte (end: past the last job)
		const uint8_t *next_;   // the next job's first byte
		const uint8_t *end_;
		ListJob job_;
	};

	const_iterator begin() const;
	const_iterator end() const;
	size_t size() const { return count_; }
	bool empty() const { return count_ == 0; }
	// Append without looking for the id (restore keeps the saved order as it is).
	void push_back(const ListJob &job);
	// Replace the first job with this id in place, else append.
	void put(const ListJob &job);
	// Remove every job with this id.
	void remove(uint32_t job_id);
	std::vector<ListJob> unpack() const;
	size_t allocated_bytes() const { return bytes_.capacity(); }

private:
	struct Record {
		size_t begin = 0, end = 0;    // byte offsets of the job's record
		uint32_t previous_job_id = 0; // the base of its id difference
		bool found = false;
	};
	Record find(uint32_t job_id) const;
	void splice(size_t begin, size_t end, const uint8_t *bytes, size_t size);

	std::vector<uint8_t> bytes_;
	uint32_t count_ = 0;
	uint32_t last_job_id_ = 0; // the last record's id: the base of an appended record
	uint32_t max_job_id_ = 0;  // no record has a larger id (an upper bound after removals)
};

} // namespace campaign
