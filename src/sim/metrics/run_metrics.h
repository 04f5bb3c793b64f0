// The metrics of one simulated run, as the papers define them (OStrich/FairCamp campaign and user
// stretch, bounded slowdown, Jain, Klusacek's NUWT, utilization). Reads a Workload and a
// RunResult; no policy logic, no output formatting.
#pragma once

#include "engine/run_result.h"
#include "metrics/distribution.h"
#include "trace/sim_job.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

namespace campaign::sim
{

struct MetricOptions {
	double bounded_slowdown_tau_s = 10;  // Feitelson's threshold (DFRS report: 10 s)
	double campaign_stretch_tau_s = 10;  // bounded campaign stretch's floor (DFRS report's tau)
	uint32_t utilization_bins = 200;     // bins of the utilization series ...
	double utilization_bin_s = 0;        // ... or a fixed bin width (> 0 wins; at most 100,000)
	double stretch_one_tolerance = 1e-9; // |stretch - 1| <= this counts as stretch 1
	// Optional user -> profile label ("short", "long"): per-profile means of per-user stretch.
	std::map<uint32_t, std::string> user_profiles;
};

// Why a job was left out of the job metrics (only Finished jobs are scored).
enum class JobState : uint8_t { Finished, NeverStarted, NotEnded, Invalid };
const char *job_state_name(JobState state);

// One job as scored. The run time is the simulated one, end - start.
struct JobTimes {
	JobState state = JobState::Invalid;
	int64_t wait_s = 0;          // start - submit
	int64_t response_s = 0;      // end - submit
	int64_t run_s = 0;           // end - start
	double bounded_slowdown = 0; // max(1, response / max(run, tau))
	double stretch = 0;          // response / run; 0 (not scored) when run == 0
};
// `workload_jobs`: the workload's size (an outcome naming a job beyond it is Invalid).
JobTimes job_times(const JobOutcome &outcome, size_t workload_jobs, double tau_s);

// One campaign (the jobs sharing JobOutcome::campaign, 0 = none), scored once all its jobs ended.
struct CampaignMetrics {
	uint64_t campaign = 0;
	uint32_t user = 0; // its first job's user
	uint32_t jobs = 0;
	int64_t submit_s = 0;       // t_i: earliest submit of its jobs
	int64_t start_s = 0;        // s_i: earliest start
	int64_t end_s = 0;          // C_i: latest end
	int64_t flow_s = 0;         // Delta_i = C_i - t_i
	double work_cpu_s = 0;      // W_i = sum run * cpus
	int64_t longest_job_s = 0;  // p_max of the campaign
	double lower_bound_s = 0;   // l_i = max(W_i / m, p_max)
	double stretch = 0;         // D_i = Delta_i / l_i
	int64_t lpt_makespan_s = 0; // Delta(zeta_i): LPT list schedule on m CPUs
};

struct UserMetrics {
	uint32_t user = 0;
	std::string profile;    // from MetricOptions::user_profiles ("" unlabelled)
	uint64_t jobs = 0;      // finished jobs
	uint64_t campaigns = 0; // scored campaigns
	double max_campaign_stretch = 0;
	double mean_campaign_stretch = 0;
	double cumulative_stretch_lpt = 0;   // sum Delta / sum Delta(zeta) (FairCamp D^u)
	double cumulative_stretch_bound = 0; // sum Delta / sum l_i
	double mean_bounded_slowdown = 0;
	double total_wait_s = 0;     // TUWT: sum (start - submit)
	double total_area_cpu_s = 0; // TUSA: sum run * cpus
	double nuwt = 0;             // TUWT / TUSA (0 when TUSA == 0: not in the NUWT figures)
};

// Campaign stretches counted in [low, high); high < 0 means unbounded.
struct StretchInterval {
	double low = 0;
	double high = -1;
	uint64_t count = 0;
};

struct UtilizationSample {
	double t_s = 0;           // bin start (seconds from the workload's origin)
	double busy_fraction = 0; // busy CPU-seconds in the bin / (m * bin width)
};

struct ProfileMetrics {
	std::string profile;
	uint64_t users = 0; // users of the profile with at least one scored campaign
	double mean_max_campaign_stretch = 0;
	double mean_mean_campaign_stretch = 0;
};

// Bounded campaign stretch of one user group (all, light by CPU-seconds or by job count, heavy):
// flow / max(lower bound, tau) over the group's scored campaigns, and over its users of each
// user's worst campaign.
struct GroupStretch {
	std::string group;
	uint64_t users = 0; // users of the group with a scored campaign
	Distribution bounded_stretch;
	Distribution user_worst;
};

// Delta_i / max(l_i, tau): the stretch of a campaign, its lower bound floored at tau so that
// campaigns of seconds-long jobs do not dominate (the DFRS report's bounded slowdown, per
// campaign).
double bounded_campaign_stretch(const CampaignMetrics &campaign, double tau_s);

struct RunMetrics {
	// What was measured.
	std::string workload;
	std::string label, priority, backfill, estimate;
	uint32_t machine_cpus = 0; // m: the run's, else the workload's

	// Jobs.
	uint64_t jobs_total = 0; // outcomes in the run
	uint64_t jobs_finished = 0;
	uint64_t jobs_never_started = 0;
	uint64_t jobs_not_ended = 0;
	uint64_t jobs_invalid = 0;          // bad index or times out of order
	uint64_t jobs_zero_runtime = 0;     // finished, run 0 s: no job stretch
	uint64_t jobs_without_campaign = 0; // finished, campaign 0
	Distribution wait_s, response_s, bounded_slowdown, job_stretch;

	// Campaigns (only those whose every job finished are scored).
	uint64_t campaigns_total = 0;
	uint64_t campaigns_scored = 0;
	uint64_t campaigns_unfinished = 0;  // some job never started or ended
	uint64_t campaigns_zero_length = 0; // lower bound 0: no stretch
	Distribution campaign_flow_s, campaign_stretch;
	double share_stretch_one = 0; // |D - 1| <= tolerance
	double share_stretch_below_1_5 = 0;
	double share_stretch_above_20 = 0;
	std::vector<StretchInterval> stretch_histogram;

	// Users (with at least one scored campaign, except NUWT and bounded slowdown: finished
	// job).
	uint64_t users_total = 0; // users with a finished job
	Distribution user_max_campaign_stretch, user_mean_campaign_stretch;
	Distribution user_cumulative_stretch_lpt, user_cumulative_stretch_bound;
	double max_user_cumulative_stretch_lpt = 0;
	double max_user_cumulative_stretch_bound = 0;
	double jain_user_mean_campaign_stretch = 0;
	double jain_user_mean_bounded_slowdown = 0;
	Distribution nuwt;        // over users with TUSA > 0
	double uwt = 0;           // mean NUWT (Klusacek F2.33)
	double nuwt_fairness = 0; // F = sum (UWT - NUWT_o)^2 (F2.34), lower is fairer
	std::vector<ProfileMetrics> profiles;
	// Light users: bottom half of the workload's users by CPU-seconds ("light_cpu") or by job
	// count ("light_jobs"); heavy: top 10 % by CPU-seconds ("heavy_cpu"); and "all".
	std::vector<GroupStretch> user_groups;

	// Machine.
	int64_t first_submit_s = 0; // over finished jobs
	int64_t last_end_s = 0;
	double utilization = 0; // sum run * cpus / (m * (last end - first submit))
	double utilization_bin_s = 0;
	std::vector<UtilizationSample> utilization_series;

	// Scheduler cost (from RunResult).
	uint64_t scheduler_events = 0;
	double scheduler_cpu_s = 0;
	double scheduler_cpu_per_event_s = 0; // 0 without events
	double wall_s = 0;
	uint64_t peak_rss_kb = 0;

	// Rows for the CSV report and the plots.
	std::vector<CampaignMetrics> campaigns; // scored, by campaign id
	std::vector<UserMetrics> users;         // users with a finished job, by user id
	std::vector<std::string> notes;         // definition choices and anomalies, one line each
};

RunMetrics compute_metrics(const Workload &workload, const RunResult &run,
                           const MetricOptions &options);

// The users of a scoring group, from the workload alone (the log's run times and sizes):
// "light_cpu" (bottom half by CPU-seconds), "light_jobs" (bottom half by job count) or
// "heavy_cpu" (top 10 % by CPU-seconds); any other name: none.
std::unordered_set<uint32_t> user_group(const Workload &workload, const std::string &group);

// The stretch intervals of OStrich Fig. 2a as we count them (the paper's exact bounds are not in
// the spec: "< 2" and "> 20" are; see the notes of compute_metrics).
std::vector<StretchInterval> stretch_intervals();

// The definition choices compute_metrics makes, one line each (the report writes them out).
const std::vector<std::string> &metric_definitions();

} // namespace campaign::sim
