// Planner::local_search: Klusacek's local search over the kept plan (2011 thesis, schedule
// optimization), with a campaign-fairness objective instead of his per-user one. A move changes
// only the rank order the plan is made from, so every plan it keeps is one the planner's own
// rules made: no job is placed where it does not fit, and the starts now stay starts Slurm can
// do (doc/fairness-results.md, "Local search over the plan").
#include "plan/planner.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <unordered_set>

namespace campaign::plan
{

namespace
{

constexpr double kStretchFloorS = 10; // tau of the bounded stretch the goal scores

uint64_t campaign_key(const PendingJob &job)
{
	// A job of no campaign is a campaign of its own (ids never reach the top bit).
	return job.campaign_id != 0 ? job.campaign_id : (uint64_t{1} << 63) | job.id;
}

// Improves: the sum of squares falls (not by rounding alone) and the worst campaign is no
// worse, with no job losing its place.
bool improves(const PlanFairness &trial, const PlanFairness &kept)
{
	return trial.placed_jobs >= kept.placed_jobs &&
	       trial.sum_squares < kept.sum_squares * (1 - 1e-9) &&
	       trial.max <= kept.max * (1 + 1e-9);
}

} // namespace

std::vector<Planner::CampaignStretch> Planner::campaign_stretches(size_t &placed_jobs) const
{
	struct Sums {
		int64_t submit_s = never_s;
		int64_t end_s = -1;
		int64_t longest_s = 0;
		double cpu_s = 0;
		size_t last_index = 0;
	};
	std::unordered_map<uint64_t, Sums> campaigns;
	placed_jobs = 0;
	for (size_t i = 0; i < queue_.size(); ++i) {
		const Entry &entry = queue_[i];
		if (!entry.placed())
			continue;
		++placed_jobs;
		Sums &sums = campaigns[campaign_key(entry.job)];
		const int64_t submit_s =
		    entry.job.submit_s > 0 ? std::min(entry.job.submit_s, now_s_) : now_s_;
		sums.submit_s = std::min(sums.submit_s, submit_s);
		const int64_t end_s = entry.placement.start_s + entry.job.limit_s;
		if (end_s > sums.end_s) {
			sums.end_s = end_s;
			sums.last_index = i;
		}
		sums.longest_s = std::max(sums.longest_s, entry.limit_s);
		sums.cpu_s +=
		    static_cast<double>(entry.job.cpus) * static_cast<double>(entry.limit_s);
	}
	std::vector<CampaignStretch> stretches;
	stretches.reserve(campaigns.size());
	const double machine_cpus = static_cast<double>(std::max<int64_t>(usable_cpus_, 1));
	for (const auto &[key, sums] : campaigns) {
		const double bound = std::max({static_cast<double>(sums.longest_s),
		                               sums.cpu_s / machine_cpus, kStretchFloorS});
		stretches.push_back(
		    {static_cast<double>(sums.end_s - sums.submit_s) / bound, sums.last_index});
	}
	// Worst first; ties by rank, so the search is the same from run to run.
	std::sort(stretches.begin(), stretches.end(),
	          [](const CampaignStretch &a, const CampaignStretch &b) {
		          return a.stretch != b.stretch ? a.stretch > b.stretch
		                                        : a.last_index < b.last_index;
	          });
	return stretches;
}

PlanFairness Planner::fairness() const
{
	PlanFairness score;
	const std::vector<CampaignStretch> stretches = campaign_stretches(score.placed_jobs);
	score.campaigns = stretches.size();
	for (const CampaignStretch &campaign : stretches) {
		score.sum_squares += campaign.stretch * campaign.stretch;
		score.max = std::max(score.max, campaign.stretch);
	}
	return score;
}

bool Planner::try_move(size_t from, size_t to, bool swap, PlanFairness &score,
                       std::chrono::steady_clock::time_point deadline)
{
	++local_search_tried_;
	Planner kept(*this); // the plan before the move, restored if the move is not kept
	if (swap)
		queue_.swap_at(to, from);
	else
		queue_.rotate(to, from, from + 1);
	// The cap is read inside the move too: one move re-places every job below `to`, which on
	// a long queue can take longer than the whole cap (and runs under slurmctld's locks).
	if (!plan_from(to, deadline)) {
		*this = std::move(kept);
		return false;
	}
	const PlanFairness trial = fairness();
	if (!improves(trial, score)) {
		*this = std::move(kept);
		return false;
	}
	score = trial;
	++local_search_kept_;
	return true;
}

void Planner::local_search()
{
	if (config_.local_search_iterations <= 0 || config_.starts_only || queue_.size() < 2)
		return;
	const std::chrono::steady_clock::time_point deadline =
	    search_clock_() + std::chrono::milliseconds(config_.local_search_ms);
	std::unordered_set<JobId> tabu; // moved or tried: not again in this search
	PlanFairness score = fairness();
	int32_t tries = 0;
	while (tries < config_.local_search_iterations && search_clock_() < deadline) {
		// The worst campaign whose last job is reserved and not tabu: that job sets its
		// end.
		size_t placed = 0;
		const std::vector<CampaignStretch> stretches = campaign_stretches(placed);
		size_t from = queue_.size();
		for (const CampaignStretch &campaign : stretches) {
			const Entry &last = queue_[campaign.last_index];
			if (last.status == JobStatus::reserved && !tabu.contains(last.job.id)) {
				from = campaign.last_index;
				break;
			}
		}
		if (from == queue_.size())
			break;
		tabu.insert(queue_[from].job.id);
		// Gap move: ahead of every reservation, so it takes the earliest gap that the
		// running jobs and the starts now leave. Swap move: with the nearest reservation
		// above it of another campaign.
		size_t first_reserved = from;
		for (size_t i = 0; i < from; ++i)
			if (queue_[i].status == JobStatus::reserved) {
				first_reserved = i;
				break;
			}
		size_t swap_with = from;
		for (size_t i = from; i-- > 0;)
			if (queue_[i].status == JobStatus::reserved &&
			    campaign_key(queue_[i].job) != campaign_key(queue_[from].job)) {
				swap_with = i;
				break;
			}
		if (first_reserved < from) {
			++tries;
			if (try_move(from, first_reserved, false, score, deadline))
				continue;
		}
		if (swap_with < from && swap_with != first_reserved &&
		    tries < config_.local_search_iterations && search_clock_() < deadline) {
			++tries;
			(void)try_move(from, swap_with, true, score, deadline);
		}
	}
}

} // namespace campaign::plan
