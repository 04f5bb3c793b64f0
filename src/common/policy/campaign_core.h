// CampaignCore: the facade the plugins and campsim drive. Owns the whole core state (jobs,
// campaigns, virtual schedules, deadlines); takes events with explicit times and ranks pending
// jobs. No Slurm types, no clock reads, no exception escapes its public methods.
#pragma once

#include "campaign/campaign_detector.h"
#include "config/priority_parameters.h"
#include "model/job.h"
#include "policy/campaign_report.h"
#include "policy/faircamp_deadlines.h"
#include "policy/rank_order_index.h"
#include "policy/runtime_predictor.h"
#include "policy/virtual_schedule.h"
#include "util/flat_id_map.h"
#include "util/parameters.h"
#include "util/result.h"

#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace campaign
{

// Why a pending job sits where it does.
struct JobExplanation {
	uint32_t job_id = 0;
	uint64_t campaign_id = 0;
	double key = 0; // C~ (ostrich), deadline (faircamp), submit time (fifo)
	double virtual_start_s = 0;
	double virtual_finish_s = 0;
	double remaining_work_cpu_s = 0; // the campaign's, in V
	double deadline_s = 0;           // faircamp only
	bool may_start = true;           // false: strict mode, campaign not started in V yet
};

// The total order of pending jobs (held, not-yet-eligible and admin-priority jobs excluded),
// explanations in the same order, and one row per live campaign (user names left empty).
struct Ranking {
	std::string error; // non-empty: ranking failed (internal error), lists are empty
	std::vector<uint32_t> order;
	std::vector<JobExplanation> explanations;
	std::vector<CampaignRow> campaigns;
};

// Saved and restored by CoreStateCodec (state/core_state_json.h), the class's one friend.
class CoreStateCodec;

class CampaignCore
{
public:
	static Result<CampaignCore> create(const ParameterValues &values);
	static Result<CampaignCore> create(std::string_view priority_parameters);

	// Events. Times are seconds; a time earlier than the last one seen counts as the last one
	// (except end times, used as given for the runtime correction and detection).
	Status capacity(const PartitionCapacity &partition, int64_t now_s);
	Status cluster_capacity(uint64_t cpus_up, int64_t now_s); // domain=cluster override
	Status submit(const JobFields &job, int64_t now_s);
	Status eligible(uint32_t job_id, int64_t now_s);
	Status start(uint32_t job_id, int64_t start_s);
	Status end(uint32_t job_id, int64_t end_s);
	Status cancel(uint32_t job_id, int64_t now_s);
	Status hold(uint32_t job_id, int64_t now_s);
	Status release(uint32_t job_id, int64_t now_s);
	Status update(const JobUpdate &update, int64_t now_s);
	// OStrich share weight of a unit (with shares=weighted); weight > 0.
	Status set_user_weight(uint32_t user_id, double weight, int64_t now_s);
	Status set_account_weight(const std::string &account, double weight, int64_t now_s);
	// Usage-aware shares (usage_halflife_s > 0) from an outside source, already decayed by it
	// (the plugin's: the association's RawUsage, which sshare shows); usage >= 0, in any unit
	// as long as every unit's is in the same one. Once any usage was given this way, it
	// replaces the core's own accrual in the shares; a unit never given counts as no usage.
	Status set_user_usage(uint32_t user_id, double usage, int64_t now_s);
	Status set_account_usage(const std::string &account, double usage, int64_t now_s);

	// jobs_only leaves Ranking::campaigns empty (the simulator ranks at every event and never
	// lists campaigns). max_jobs: only the head of the order is listed (with its explanations);
	// the cost is then the campaigns' plus the jobs listed, not the whole queue's.
	enum class RankScope { jobs_and_campaigns, jobs_only };
	static constexpr size_t kAllJobs = static_cast<size_t>(-1);
	Ranking rank(int64_t now_s, RankScope scope = RankScope::jobs_and_campaigns,
	             size_t max_jobs = kAllJobs);
	// The order of the last rank() without ranking again (campsim's calc_period emulation):
	// campaigns keep their places and keys, and jobs that became rankable since come below
	// every ranked job in the order they did, as priority/campaign lists a job submitted
	// between two passes. Right after rank() at the same time it is that order. No campaign
	// rows. Before any rank(): a rank().
	Ranking rank_as_last(int64_t now_s, size_t max_jobs = kAllJobs);
	// campsim's filtered walk of the order (RankOrderIndex::Walk): track_job_shapes() before
	// the first job; order_walk(), right after rank() or rank_as_last() at the same time, walks
	// the order they listed (nullopt where the index cannot filter it, and under FIFO, whose
	// one bucket mixes campaigns). A walk's buckets are campaign slots: campaign_of_slot.
	void track_job_shapes();
	std::optional<RankOrderIndex::Walk> order_walk() const;
	uint64_t campaign_of_slot(uint32_t slot) const { return campaigns_.at(slot).id; }
	bool knows(uint32_t job_id) const { return job_index_.contains(job_id); }
	// A job's run time as its user's recent runs predict it (RuntimePredictor: never above
	// the limit), whatever work_estimate counts; 0: the job is not known. sched/campaign's
	// room for short jobs can tell short jobs by it (campaign_short_room_by=expected).
	int64_t expected_run_s(uint32_t job_id) const;
	size_t job_count() const { return jobs_.size(); }
	const CoreConfig &config() const { return config_; }
	// Bytes held per job (containers included), for the benchmark.
	size_t approximate_bytes() const;

private:
	friend class CoreStateCodec;
	enum class JobState : uint8_t { Waiting, Pending, Running };
	// 104 bytes: the fields are ordered and packed to keep the per-job cost low.
	struct Job {
		uint32_t job_id = 0, user_id = 0, account = 0, partition = 0, group = 0;
		uint32_t cpus = 1, nodes = 1, tasks = 1, qos_priority = 0;
		uint32_t campaign_slot = 0;
		int32_t nice = 0;
		uint16_t tier = 0;
		JobState state = JobState::Waiting;
		uint8_t held : 1 = 0, admin_priority : 1 = 0;
		uint8_t limit_kind : 2 = 0; // TimeLimit::Kind; limit_s holds the Set seconds
		uint64_t campaign_id = 0;
		int64_t submit_s = 0, eligible_s = kNoTime, start_s = 0, limit_s = 0;
		double billable = 1;
		double counted_work_cpu_s = 0; // what the campaign counts for this job now
	};
	struct Campaign {
		uint64_t id = 0; // 0: free slot
		uint32_t group = 0;
		int64_t first_eligible_s = 0;
		uint32_t pending = 0, running = 0, done = 0;
		double work_cpu_s = 0;
		int64_t last_end_s = kNoTime;
		int64_t longest_job_s = 0;
		// overdue=clamp|share: the bound when first postponed, and when that was; the bound
		// moves later by overdue_slide x the time since.
		double postponed_until_s = 0;
		double postponed_at_s = 0;
		// overdue_pace: the work of the jobs it started since then
		double postponed_served_cpu_s = 0;
	};
	struct Group {
		uint32_t unit = 0, domain = 0, user_id = 0, account = 0;
		uint32_t live_jobs = 0;
	};
	struct Domain {
		std::string name;
		uint64_t cpus_up = 0;
		uint64_t last_positive_cpus = 1;
		bool capacity_overridden = false;
		double busy_cpus = 0;
		uint32_t active_groups = 0;
		VirtualSchedule schedule;
	};
	using Activation = std::pair<int64_t, uint32_t>; // (eligible time, job id)

	explicit CampaignCore(CoreConfig config);
	// The events' bodies; the public methods call them inside a catch-all guard.
	Status capacity_unguarded(const PartitionCapacity &partition, int64_t now_s);
	Status cluster_capacity_unguarded(uint64_t cpus_up, int64_t now_s);
	Status submit_unguarded(const JobFields &job, int64_t now_s);
	Status eligible_unguarded(uint32_t job_id, int64_t now_s);
	Status start_unguarded(uint32_t job_id, int64_t start_s);
	Status end_unguarded(uint32_t job_id, int64_t end_s);
	Status cancel_unguarded(uint32_t job_id, int64_t now_s);
	Status hold_unguarded(uint32_t job_id, int64_t now_s);
	Status release_unguarded(uint32_t job_id, int64_t now_s);
	Status update_unguarded(const JobUpdate &update, int64_t now_s);
	Status set_user_weight_unguarded(uint32_t user_id, double weight, int64_t now_s);
	Status set_account_weight_unguarded(const std::string &account, double weight,
	                                    int64_t now_s);
	Status set_user_usage_unguarded(uint32_t user_id, double usage, int64_t now_s);
	Status set_account_usage_unguarded(const std::string &account, double usage, int64_t now_s);
	Ranking rank_unguarded(int64_t now_s, RankScope scope, size_t max_jobs);
	Ranking rank_as_last_unguarded(int64_t now_s, size_t max_jobs);

	Job *find(uint32_t job_id);
	Status missing(uint32_t job_id, const char *event) const;
	void advance(int64_t now_s);
	void advance_domain(uint32_t domain, double now_s);
	double virtual_rate(const Domain &domain) const;
	double projection_capacity(const Domain &domain) const;
	uint32_t intern(std::vector<std::string> &names,
	                std::unordered_map<std::string, uint32_t> &index, const std::string &name);
	uint32_t domain_of_partition(uint32_t partition);
	// A new fairness domain, its V started at the core's clock.
	void add_domain(const std::string &name);
	uint32_t group_of(uint32_t user_id, uint32_t account, uint32_t domain);
	void resolve_job(Job &job);
	double job_work_cpu_s(const Job &job) const;
	void make_eligible(Job &job, int64_t eligible_s);
	uint32_t open_campaign(Job &job, uint64_t campaign_id, int64_t opened_s);
	void join_campaign(Job &job);
	void leave_campaign(Job &job, int64_t at_s, bool completed);
	void change_counted_work(Job &job, double new_work_cpu_s);
	void set_live(Group &group, int delta);
	void erase_job(uint32_t job_id);
	void refresh_cluster_capacity();
	void apply_fields(Job &job, const JobUpdate &update);
	void retire_finished_campaigns(int64_t now_s);
	Status set_unit_weight(uint32_t unit, double weight, int64_t now_s);
	Status set_unit_usage(uint32_t unit, double usage, int64_t now_s);
	void charge_usage(const Job &job, int64_t end_s);
	std::unordered_map<uint32_t, double> own_usage(int64_t now_s) const;
	std::unordered_map<uint32_t, double> given_usage() const;
	void apply_usage_shares(int64_t now_s);
	void refresh_estimates();
	struct CampaignKey { // a campaign's place in a ranking, by slot
		uint64_t campaign_id = 0;
		double key = 0;
		VirtualView view;
		double deadline_s = 0;
		bool waiting = false; // not started in V yet
		// starve_after_s: when its oldest pending job became eligible, if that is at least
		// starve_after_s ago (it then ranks ahead of every campaign not starved); else
		// kNoTime
		int64_t starved_since_s = kNoTime;
		uint32_t rank = 0;
	};
	std::vector<CampaignKey> campaign_keys(std::vector<uint32_t> &live);
	void clamp_overdue_keys(std::vector<CampaignKey> &keys);
	void mark_starved_campaigns(std::vector<CampaignKey> &keys) const;
	// The order index follows every job event (the public methods call reindex); it is built
	// from jobs_ at the first ranking (and after a state load).
	void reindex(uint32_t job_id);
	void index_job(const Job &job);
	void ensure_order_index();
	void list_jobs(const std::vector<CampaignKey> &keys, size_t max_jobs,
	               Ranking &ranking) const;
	void move_starved_jobs_first(Ranking &ranking) const;
	void move_unfair_waits_first(const std::vector<CampaignKey> &keys, Ranking &ranking) const;
	void move_stretched_jobs_first(Ranking &ranking) const;
	// The guards' common tail: `overdue` holds (measure, job id), least measure most overdue;
	// the first starve_campaigns of them go first.
	void move_most_overdue_first(std::vector<std::pair<double, uint32_t>> &overdue,
	                             Ranking &ranking) const;
	// `first` (job ids, in that order) ahead of the rest of the order; a head of max_jobs keeps
	// its length.
	static void move_jobs_first(const std::vector<uint32_t> &first, Ranking &ranking);
	JobExplanation explain(const Job &job, const CampaignKey &key) const;
	CampaignRow campaign_row(uint32_t slot, const CampaignKey &key) const;

	CoreConfig config_;
	int64_t clock_s_ = 0;
	CampaignDetector detector_;
	FairCampDeadlines deadlines_;
	std::vector<Job> jobs_;
	FlatIdMap<uint32_t, uint32_t> job_index_; // job id -> its index in jobs_
	std::vector<Campaign> campaigns_;         // slots
	std::vector<uint32_t> free_campaign_slots_;
	std::unordered_map<uint64_t, uint32_t> campaign_slot_;
	std::vector<Group> groups_;
	std::unordered_map<uint64_t, uint32_t> group_index_;
	std::vector<Domain> domains_;
	std::unordered_map<std::string, uint32_t> domain_index_;
	std::vector<PartitionCapacity> partitions_;
	std::unordered_map<std::string, uint32_t> partition_index_;
	std::vector<std::string> accounts_;
	std::unordered_map<std::string, uint32_t> account_index_;
	std::unordered_map<uint32_t, double> unit_weights_;
	struct UnitUsage {
		double cpu_s = 0; // decayed CPU-seconds of ended runs, valued at at_s
		int64_t at_s = 0;
	};
	std::unordered_map<uint32_t, UnitUsage> unit_usage_; // usage_halflife_s > 0 only
	// set_user_usage/set_account_usage, by unit. Not saved in the state file: whoever gives it
	// gives it again before every ranking (the plugin each pass, from Slurm's associations),
	// so a restored core ranks on its own accrual only until the first pass feeds it.
	std::unordered_map<uint32_t, double> given_usage_;
	RuntimePredictor predictor_;   // work_estimate=recent only
	bool estimates_stale_ = false; // a run ended since pending jobs' estimates were made
	std::priority_queue<Activation, std::vector<Activation>, std::greater<Activation>>
	    activations_;
	RankOrderIndex order_index_;
	bool order_index_built_ = false;
	std::vector<CampaignKey> last_keys_; // by slot, from the last rank()
	bool ranked_ = false;
};

} // namespace campaign
