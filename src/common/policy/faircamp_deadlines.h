// FairCamp deadlines (DESIGN §3): Delta_i = makespan of an LPT list schedule of the campaign's
// jobs on the domain's capacity, d_i = max(t_i, d_{i-1}) + k * Delta_i (anchored) or the
// paper's d_i = k * Delta_i + d_{i-1}; each campaign's jobs kept varint-packed (PackedListJobs).
// No Slurm types, no clock reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <unordered_map>
#include <vector>

namespace campaign
{

// A job's array tasks counted by the list schedule at most (bounds the cost of Delta).
inline constexpr uint32_t kMaxListTasks = 100000;

// One job of a campaign as the list schedule sees it.
struct ListJob {
	uint32_t job_id = 0;
	uint32_t cpus = 1;
	uint32_t tasks = 1; // array tasks: `tasks` copies
	int64_t length_s = 0;
};

// Makespan of a greedy list schedule (longest first, each job on its CPU count, a job never
// starts before the one listed before it) on `capacity_cpus` CPUs. CPU counts above the
// capacity are clamped to it.
double list_schedule_makespan_s(std::vector<ListJob> jobs, uint64_t capacity_cpus);

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

class FairCampDeadlines
{
public:
	enum class Mode : uint8_t { Anchored, Paper };
	struct Campaign {
		uint32_t group = 0;
		uint32_t k = 1;       // frozen when the campaign opens
		int64_t opened_s = 0; // t_i
		uint64_t capacity_cpus = 1;
		PackedListJobs jobs;
		double delta_s = 0;
		double deadline_s = 0;
		bool delta_stale = false;
		bool retired = false; // kept until every earlier campaign of the group retires
	};
	struct Group {
		std::vector<uint64_t> campaigns; // live campaigns in opening order
		double base_deadline_s = 0;      // d of the last retired campaign (d_0 = 0)
		bool stale = false;
	};

	explicit FairCampDeadlines(Mode mode) : mode_(mode) {}

	void open(uint64_t campaign_id, uint32_t group, int64_t opened_s, uint32_t k);
	// Add or replace a job (a limit, size or task update replaces it).
	void put_job(uint64_t campaign_id, const ListJob &job, uint64_t capacity_cpus);
	void remove_job(uint64_t campaign_id, uint32_t job_id);
	// The deadline, recomputing stale list schedules and the group's chain first.
	double deadline_s(uint64_t campaign_id);
	double delta_s(uint64_t campaign_id);
	bool knows(uint64_t campaign_id) const { return campaigns_.count(campaign_id) != 0; }
	// The campaign leaves the live set; its deadline becomes the group's base for d_{i-1}.
	void retire(uint64_t campaign_id);

	Mode mode() const { return mode_; }
	// State access for save/restore.
	const std::unordered_map<uint64_t, Campaign> &campaigns() const { return campaigns_; }
	const std::unordered_map<uint32_t, Group> &groups() const { return groups_; }
	void restore(std::unordered_map<uint64_t, Campaign> campaigns,
	             std::unordered_map<uint32_t, Group> groups);
	// Heap bytes held: hash nodes and buckets, packed jobs and live lists by capacity.
	size_t approximate_bytes() const;

private:
	void refresh_group(Group &group);

	Mode mode_;
	std::unordered_map<uint64_t, Campaign> campaigns_;
	std::unordered_map<uint32_t, Group> groups_;
};

} // namespace campaign
