// PlanKeeper: snapshot differences -> Planner updates, or a fresh plan.
#include "plan/plan_keeper.h"

#include "util/prefetch.h"

#include <algorithm>
#include <unordered_set>

namespace campaign::plan
{

namespace
{

// Also the same jobs every pending job may preempt: the planner reads them at a rebuild only.
bool same_nodes(const Cluster &a, const Cluster &b)
{
	if (a.nodes.size() != b.nodes.size() || a.preemptable_by_any != b.preemptable_by_any)
		return false;
	for (size_t i = 0; i < a.nodes.size(); ++i)
		if (a.nodes[i].cpus != b.nodes[i].cpus ||
		    a.nodes[i].memory_mb != b.nodes[i].memory_mb ||
		    a.nodes[i].gres != b.nodes[i].gres || a.nodes[i].state != b.nodes[i].state ||
		    a.nodes[i].weight != b.nodes[i].weight) // the node choice follows weights
			return false;
	return a.unavailable == b.unavailable; // a window booked in the kept plan
}

bool same_shape(const PendingJob &a, const PendingJob &b)
{
	return a.cpus == b.cpus && a.nodes_min == b.nodes_min && a.nodes_max == b.nodes_max &&
	       a.memory_per_node_mb == b.memory_per_node_mb &&
	       a.memory_per_cpu_mb == b.memory_per_cpu_mb &&
	       same_gres(a.gres_per_node, b.gres_per_node) && a.limit_s == b.limit_s &&
	       a.limit_min_s == b.limit_min_s && a.allowed_nodes == b.allowed_nodes &&
	       a.other_node_sets == b.other_node_sets && a.exclusive == b.exclusive &&
	       a.all_memory == b.all_memory && a.cpus_per_task == b.cpus_per_task &&
	       a.tasks_per_node == b.tasks_per_node && a.spread == b.spread &&
	       a.campaign_id == b.campaign_id && a.preemptable == b.preemptable &&
	       a.earliest_start_s == b.earliest_start_s && a.after == b.after &&
	       a.window_id == b.window_id;
}

constexpr size_t kMaxInsertsAbove = 8;

// Every pass compares each kept job with the snapshot's, and the kept jobs lie apart in memory:
// asking a few jobs ahead for the lines same_shape reads hides most of those loads' misses (they
// were most of the comparison's time on a deep queue).
constexpr size_t kPrefetchAhead = 6;

// An overrunning job's expected end is "now + 1" in every snapshot: not a change. Nor is a
// second or two: a scheduler's start time trails the plan's by the time it took to start.
bool same_end(int64_t kept_s, int64_t seen_s, int64_t now_s)
{
	constexpr int64_t kStartSlackS = 2;
	return (kept_s - seen_s <= kStartSlackS && seen_s - kept_s <= kStartSlackS) ||
	       (kept_s <= now_s + 1 && seen_s <= now_s + 1);
}

} // namespace

PlanKeeper::PlanKeeper(PlannerConfig config) : config_(config), planner_(config) {}

Result<Plan> PlanKeeper::update(const Cluster &cluster, const std::vector<RunningJob> &running,
                                const std::vector<PendingJob> &pending, int64_t now_s,
                                PlanDetail detail)
{
	// A reservation that came due unstarted would be planned again after lower-ranked ones
	// moved into its place: plan afresh instead, as the rebuild gives it its rank back.
	const bool came_due = next_reserved_s_ >= 0 && next_reserved_s_ <= now_s;
	const bool in_place = has_plan_ && !plans_afresh_always() && !came_due &&
	                      now_s >= planner_.now_s() && same_nodes(cluster, cluster_) &&
	                      update_in_place(running, pending, now_s);
	if (in_place) {
		++updates_;
		remember_changes(running, pending); // same nodes: cluster_ holds
	} else if (Status built = afresh(cluster, running, pending, now_s); !built) {
		return Error{built.error()};
	}
	return planned(now_s, detail);
}

Result<Plan> PlanKeeper::update_walk(const Cluster &cluster, const std::vector<RunningJob> &running,
                                     PendingSource &source, int64_t now_s)
{
	if (!config_.starts_only)
		return Error{"a walked queue needs starts_only"};
	++rebuilds_;
	Status built = Error{"no kept plan"};
	if (has_plan_ && now_s >= planner_.now_s() && same_nodes(cluster, cluster_))
		built = planner_.replan_walk(running, source, now_s);
	if (!built) { // as afresh: a failed replan is followed by a rebuild
		source.restart();
		built = planner_.rebuild_walk(cluster, running, source, now_s);
		has_plan_ = built.ok();
	}
	if (!built)
		return Error{built.error()};
	cluster_ = cluster; // remember() keeps no job lists with starts_only
	return planned(now_s);
}

Plan PlanKeeper::planned(int64_t now_s, PlanDetail detail)
{
	Plan plan = planner_.plan(now_s, detail);
	next_reserved_s_ = plan.next_reserved_s;
	return plan;
}

// A fresh plan; on the same nodes, the running jobs' bookings are kept and updated.
Status PlanKeeper::afresh(const Cluster &cluster, const std::vector<RunningJob> &running,
                          const std::vector<PendingJob> &pending, int64_t now_s)
{
	++rebuilds_;
	if (!has_plan_ || now_s < planner_.now_s() || !same_nodes(cluster, cluster_))
		return rebuild(cluster, running, pending, now_s);
	if (!planner_.replan(running, pending, now_s).ok())
		return rebuild(cluster, running, pending, now_s); // it says why, if it is our input
	remember(cluster, running, pending);
	return ok_status();
}

Status PlanKeeper::rebuild(const Cluster &cluster, const std::vector<RunningJob> &running,
                           const std::vector<PendingJob> &pending, int64_t now_s)
{
	// The same planner: its buffers are reused, and refusals still held survive the rebuild.
	Status built = planner_.rebuild(cluster, running, pending, now_s);
	has_plan_ = built.ok();
	if (has_plan_)
		remember(cluster, running, pending);
	return built;
}

void PlanKeeper::remember(const Cluster &cluster, const std::vector<RunningJob> &running,
                          const std::vector<PendingJob> &pending)
{
	cluster_ = cluster;
	if (plans_afresh_always())
		return; // no job lists: nothing to compare the next snapshot with
	running_.clear();
	for (const RunningJob &job : running)
		running_.emplace(job.id, job);
	// A fresh plan mostly lists the jobs kept before (it follows a reorder): each is found
	// and updated in its node, the new ones added, then the gone ones erased. Emptying the
	// map and filling it again moved every node out and back in, a tenth of fair-share's
	// EASY plan on LPC-EGEE at 0.95 (a fresh plan at most decay passes, thousands queued).
	++remembered_;
	order_.clear();
	order_ids_.clear();
	order_campaigns_.clear();
	for (const PendingJob &job : pending) {
		KeptPending &kept = pending_.try_emplace(job.id).first->second;
		if (keeps_jobs())
			kept.job = job;
		kept.position = order_.size();
		kept.remembered = remembered_;
		order_.push_back(&kept);
		order_ids_.push_back(job.id);
		order_campaigns_.push_back(job.campaign_id);
	}
	if (pending_.size() != order_.size())
		std::erase_if(pending_, [&](const auto &kept) {
			return kept.second.remembered != remembered_;
		});
	order_listed_.assign(order_.size(), 0);
}

// The snapshot was applied in place: its running jobs are the kept ones (their expected ends
// within the slack: the snapshot's are kept, as remember does), less the ended, plus the
// started; its pending jobs the kept ones (same shapes), less those gone, plus the new.
void PlanKeeper::remember_changes(const std::vector<RunningJob> &running,
                                  const std::vector<PendingJob> &pending)
{
	for (JobId id : ended_now_) // apply_running listed them
		running_.erase(id);
	for (const RunningJob &job : running) {
		auto [kept, added] = running_.try_emplace(job.id, job);
		if (!added) { // allocations equal: apply_running checked them
			kept->second.expected_end_s = job.expected_end_s;
			kept->second.booked_long = job.booked_long;
		}
	}
	// Where the snapshot lists order_'s own entries in place, they stay (their positions hold):
	// only the rest of the order is made again.
	size_t same = 0;
	while (same < pending.size() && same < order_.size() && listed_[same] == order_[same])
		++same;      // (pointers compared only: order_ may point at gone jobs)
	order_.resize(same); // before the erase: the rest may point at the gone jobs
	order_ids_.resize(same);
	order_campaigns_.resize(same);
	order_listed_.resize(same);
	for (JobId id : gone_)
		pending_.erase(id);
	for (size_t k = same; k < pending.size(); ++k) {
		KeptPending *kept = listed_[k];
		if (!kept)
			kept =
			    &pending_
			         .try_emplace(pending[k].id, keeps_jobs() ? KeptPending{pending[k]}
			                                                  : KeptPending{})
			         .first->second;
		kept->position = order_.size();
		order_.push_back(kept);
		order_ids_.push_back(pending[k].id);
		order_campaigns_.push_back(pending[k].campaign_id);
	}
	order_listed_.resize(order_.size()); // 0: listed by no snapshot yet
}

bool PlanKeeper::update_in_place(const std::vector<RunningJob> &running,
                                 const std::vector<PendingJob> &pending, int64_t now_s)
{
	// Any refusal from the planner means the snapshot is not what we think: plan afresh. So
	// does an end while a job may preempt: compression only moves kept reservations earlier,
	// and a preemptor reserved behind the job that ended may now start over its preemptees
	// (sched/campaign: a job reserved behind a powered-down node's resume, plan_snapshot.cc).
	const bool preemptors =
	    !cluster_.preemptable_by_any.empty() ||
	    std::any_of(pending.begin(), pending.end(),
	                [](const PendingJob &job) { return !job.preemptable.empty(); });
	return apply_running(running, now_s, preemptors) && apply_pending(pending, now_s);
}

bool PlanKeeper::apply_running(const std::vector<RunningJob> &running, int64_t now_s,
                               bool preemptors)
{
	// Starts and ends are applied in id order: the kept plan must not depend on the order of
	// the snapshot's lists (each update compresses the plan, and compression is greedy).
	std::unordered_set<JobId> &seen = running_now_;
	seen.clear();
	std::vector<const RunningJob *> started;
	for (const RunningJob &job : running) {
		seen.insert(job.id);
		auto kept = running_.find(job.id);
		if (kept == running_.end()) {
			started.push_back(&job);
			continue;
		}
		if (kept->second.allocations != job.allocations ||
		    !same_end(kept->second.expected_end_s, job.expected_end_s, now_s))
			return false; // a limit or an allocation changed
	}
	std::sort(started.begin(), started.end(),
	          [](const RunningJob *a, const RunningJob *b) { return a->id < b->id; });
	for (const RunningJob *job : started)
		if (!pending_.contains(job->id) || !planner_.job_started(*job, now_s).ok())
			return false; // a job we never saw pending
	// The ends are given back with the snapshot's cancellations (apply_pending), at once;
	// remember_changes forgets them.
	std::vector<JobId> &ended = ended_now_;
	ended.clear();
	for (const auto &[id, job] : running_)
		if (!seen.contains(id))
			ended.push_back(id);
	if (preemptors && !ended.empty())
		return false;
	std::sort(ended.begin(), ended.end());
	return true;
}

bool PlanKeeper::apply_pending(const std::vector<PendingJob> &pending, int64_t now_s)
{
	++snapshot_;
	listed_.assign(pending.size(), nullptr);
	size_t next = 0; // where the kept order should go on
	// Every kept job met was the next of the kept order: the snapshot's kept jobs are
	// order_[0, next) in order, and order_[next, end) is gone (no second walk of either).
	bool in_sequence = true;
	for (size_t k = 0; k < pending.size(); ++k) {
		const PendingJob &job = pending[k];
		KeptPending *kept = nullptr;
		if (shape_changes_ == ShapeChanges::any && next + kPrefetchAhead < order_.size())
			prefetch_object(order_[next + kPrefetchAhead]);
		size_t position = next;
		if (next < order_.size() && order_ids_[next] == job.id) {
			kept = order_[next++];
		} else if (auto found = pending_.find(job.id); found != pending_.end()) {
			kept = &found->second; // the kept jobs between were left out, or moved
			position = kept->position;
			if (position >= order_.size() || order_[position] != kept)
				return false; // not where it was kept: plan afresh
			next = std::max(next, position + 1);
			in_sequence = false;
		}
		if (!kept)
			continue;
		listed_[k] = kept;
		order_listed_[position] = snapshot_;
		// Without short_by_expected the room judges the limit, which same_shape compares.
		const bool reshaped = shape_changes_ == ShapeChanges::any
		                          ? !same_shape(kept->job, job)
		                          : shape_changes_ == ShapeChanges::campaign_only &&
		                                order_campaigns_[position] != job.campaign_id;
		if (reshaped || (config_.short_by_expected && planner_.short_for_room(kept->job) !=
		                                                  planner_.short_for_room(job)))
			return false;
	}
	std::vector<JobId> &kept_order = kept_order_;
	kept_order.clear();
	gone_.clear();
	cancelled_.clear();
	for (size_t i = in_sequence ? next : 0; i < order_.size(); ++i) {
		const JobId id = order_ids_[i];
		if (order_listed_[i] == snapshot_) {
			kept_order.push_back(id);
			continue;
		}
		gone_.push_back(id);
		if (!running_now_.contains(id)) // (started ones were handled by apply_running)
			cancelled_.push_back(id);
	}
	if ((!ended_now_.empty() || !cancelled_.empty()) &&
	    !planner_.jobs_gone(ended_now_, cancelled_, now_s).ok())
		return false;
	// The kept jobs must keep their order (they do in sequence: kept_order is empty then).
	if (!in_sequence) {
		size_t next_kept = 0;
		for (size_t k = 0; k < pending.size(); ++k)
			if (listed_[k] && (next_kept == kept_order.size() ||
			                   kept_order[next_kept++] != pending[k].id))
				return false;
		if (next_kept != kept_order.size())
			return false;
	}
	// New jobs after every kept one are appended, in rank order (cheap). Each job inserted
	// above a kept one plans everything below it again: beyond a few, one fresh plan is
	// cheaper (a burst of submissions at mixed ranks would cost O(queue^2)).
	size_t tail_start = pending.size();
	while (tail_start > 0 && !listed_[tail_start - 1])
		--tail_start;
	size_t inserted_above = 0;
	for (size_t k = 0; k < tail_start; ++k)
		if (!listed_[k] && ++inserted_above > kMaxInsertsAbove)
			return false;
	for (size_t k = tail_start; k < pending.size(); ++k)
		if (!planner_.job_submitted(pending[k], now_s, 0).ok())
			return false;
	std::vector<Planner::Insert> &inserts = inserts_;
	inserts.clear();
	for (size_t k = tail_start; k-- > 0;) // last first: each one's successor is queued
		if (!listed_[k])
			inserts.push_back({&pending[k], pending[k + 1].id});
	return planner_.jobs_inserted(inserts, now_s).ok(); // none: nothing to do
}

Status PlanKeeper::started(const RunningJob &job, int64_t now_s)
{
	if (!has_plan_)
		return ok_status();
	Status booked = planner_.job_started(job, now_s);
	if (!booked) {
		has_plan_ = false; // plan afresh at the next snapshot
		return booked;
	}
	if (plans_afresh_always())
		return ok_status(); // nothing remembered (see remember)
	running_[job.id] = job;
	auto kept = pending_.find(job.id);
	if (kept == pending_.end())
		return ok_status();
	// Its kept position names its place in order_ (a walk of order_ was a pointer chase per
	// job, at every start).
	auto started_at = order_.begin() + static_cast<std::ptrdiff_t>(
	                                       std::min(kept->second.position, order_.size()));
	if (started_at == order_.end() || *started_at != &kept->second)
		started_at = std::find(order_.begin(), order_.end(), &kept->second);
	if (started_at != order_.end()) { // the later ones move up
		const auto at = started_at - order_.begin();
		order_ids_.erase(order_ids_.begin() + at);
		order_campaigns_.erase(order_campaigns_.begin() + at);
		order_listed_.erase(order_listed_.begin() + at);
		for (auto later = order_.erase(started_at); later != order_.end(); ++later)
			--(*later)->position;
	}
	pending_.erase(kept);
	return ok_status();
}

Status PlanKeeper::refused(JobId id, int64_t now_s)
{
	if (!has_plan_)
		return ok_status();
	return planner_.refused(id, now_s);
}

} // namespace campaign::plan
