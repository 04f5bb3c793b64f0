// FairCamp deadlines (doc/design.md §3): Delta_i = makespan of an LPT list schedule of the
// campaign's jobs on the domain's capacity, d_i = max(t_i, d_{i-1}) + k * Delta_i (anchored) or the
// paper's d_i = k * Delta_i + d_{i-1}; each campaign's jobs kept varint-packed (PackedListJobs).
// No Slurm types, no clock reads.
#pragma once

#include "policy/packed_list_jobs.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace campaign
{

// A job's array tasks counted by the list schedule at most (bounds the cost of Delta).
inline constexpr uint32_t kMaxListTasks = 100000;

// Makespan of a greedy list schedule (longest first, each job on its CPU count, a job never
// starts before the one listed before it) on `capacity_cpus` CPUs. CPU counts above the
// capacity are clamped to it.
double list_schedule_makespan_s(std::vector<ListJob> jobs, uint64_t capacity_cpus);

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
