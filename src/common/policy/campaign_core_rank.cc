// CampaignCore ranking: campaign keys (C~, deadline or none), the total order of pending jobs
// (tier, QOS, campaign key, nice, intra-campaign order, submit time, job id), explanations and
// the campaign listing. No Slurm types, no clock reads.
#include "policy/campaign_core.h"
#include "util/prefetch.h"

#include <algorithm>

namespace campaign
{
namespace
{

// Seconds as an integer for the listing, clamped (a projection can exceed int64 when the
// capacity is tiny and the work huge).
int64_t whole_seconds(double seconds)
{
	constexpr double kLimit = 9.0e18;
	if (!(seconds > -kLimit))
		return -static_cast<int64_t>(kLimit);
	if (!(seconds < kLimit))
		return static_cast<int64_t>(kLimit);
	return static_cast<int64_t>(seconds);
}

} // namespace

void CampaignCore::retire_finished_campaigns(int64_t now_s)
{
	for (uint32_t slot = 0; slot < campaigns_.size(); slot++) {
		Campaign &campaign = campaigns_[slot];
		if (campaign.id == 0 || campaign.pending + campaign.running > 0 ||
		    detector_.still_open(campaign.group, campaign.id, now_s))
			continue;
		VirtualSchedule &schedule = domains_[groups_[campaign.group].domain].schedule;
		if (config_.policy == PolicyKind::Ostrich) {
			auto in_v = schedule.campaigns().find(campaign.id);
			if (in_v != schedule.campaigns().end() &&
			    in_v->second.status != VirtualSchedule::Campaign::Status::Finished)
				continue; // still served in V: it keeps its unit active
			schedule.forget(campaign.id);
		}
		if (config_.policy == PolicyKind::FairCamp)
			deadlines_.retire(campaign.id);
		campaign_slot_.erase(campaign.id);
		campaign = Campaign{};
		free_campaign_slots_.push_back(slot);
	}
}

// overdue=clamp: a campaign cannot complete before now + its pending work on all of its partition's
// CPUs, so its key is at least that. A campaign already late in V then no longer outranks every
// campaign that can still complete in time (the heavy user's days-late campaign that took the
// machine from light users for hours in KTH-SP2, doc/fairness-results.md). overdue=share: at least
// now + its pending work on its fair share of the CPUs (as if it were submitted now).
//
// Never later than a bound set when the campaign is first postponed: its C~ plus overdue_grace
// times its own time in V (C~ - s~) then, moved later by overdue_slide x the time since; a bound
// that moves slower than time ends every postponement (the campaign waits at most 1 / (1 - slide)
// times the fixed bound's postponement); overdue_pace also moves it by the work of each job the
// campaign starts over its share (or the partition), so a late campaign of whole-machine jobs no
// longer runs them back to back once the bound passes (doc/fairness-results.md, "Paced late
// campaigns"). A postponed campaign is closed to new jobs: its user's next job opens a new
// campaign, so the postponed one stops absorbing its user's work and its C~ stops moving (an open
// campaign whose wide job waits kept taking its user's new jobs: that job waited 97 days in
// CTC-SP2).
void CampaignCore::clamp_overdue_keys(std::vector<CampaignKey> &keys)
{
	std::vector<double> pending_work(campaigns_.size(), 0);
	for (const Job &job : jobs_)
		if (job.state == JobState::Pending)
			pending_work[job.campaign_slot] += job.counted_work_cpu_s;
	const auto now = static_cast<double>(clock_s_);
	for (uint32_t slot = 0; slot < campaigns_.size(); slot++) {
		// Only a campaign V has completed (C~ past) with work still pending: one V has not
		// started is not late, and its projected C~ moves with time (so would a bound on
		// it). One V is still serving ranks by its C~: every campaign that waits at all is
		// behind V from its first second, and postponing (closing) it would split each
		// user's work, a job array's tasks among them, into a campaign per ranking.
		const VirtualView &view = keys[slot].view;
		if (campaigns_[slot].id == 0 || !view.started || keys[slot].key >= now ||
		    view.remaining_cpu_s >= pending_work[slot])
			continue;
		const Domain &domain = domains_[groups_[campaigns_[slot].group].domain];
		const double partition_cpus = projection_capacity(domain);
		const double share_cpus =
		    partition_cpus / std::max<uint32_t>(1, domain.active_groups);
		const double cpus =
		    config_.overdue == CoreConfig::Overdue::Share ? share_cpus : partition_cpus;
		const double soonest = now + pending_work[slot] / cpus;
		Campaign &campaign = campaigns_[slot];
		if (campaign.postponed_until_s <= 0) {
			campaign.postponed_until_s =
			    keys[slot].key +
			    config_.overdue_grace * std::max(0.0, view.finish_s - view.start_s);
			campaign.postponed_at_s = now;
			detector_.close(campaign.group, campaign.id);
		}
		double bound = campaign.postponed_until_s +
		               config_.overdue_slide * (now - campaign.postponed_at_s);
		// Paced: each started job moves the time the bound catches up with now by its work
		// over these CPUs, so a campaign the bound lets through takes one job's turn, then
		// newer campaigns go first for as long as that job would hold them.
		if (config_.overdue_pace != CoreConfig::OverduePace::None)
			bound += (1 - config_.overdue_slide) * campaign.postponed_served_cpu_s /
			         (config_.overdue_pace == CoreConfig::OverduePace::Share
			              ? share_cpus
			              : partition_cpus);
		const double latest = std::max(keys[slot].key, bound);
		keys[slot].key = std::max(keys[slot].key, std::min(soonest, latest));
	}
}

// starve_after_s: the campaigns whose oldest pending job has been eligible at least that long.
// Under OStrich a heavy user's later campaigns wait in V behind its earlier ones and rank last
// for as long as V serves the backlog; every newer campaign then plans ahead of them, so their
// wide jobs start only in holes no newer job takes and much of their work runs after the log's
// submissions stop (SDSC-SP2: 21 days past the last submission, 2.1 utilization points;
// doc/fairness-results.md, "Utilization: where the points go"). Ranked first, oldest first, they
// keep a reservation that newer work backfills around, as fair-share's decaying usage gives them
// one.
void CampaignCore::mark_starved_campaigns(std::vector<CampaignKey> &keys) const
{
	const int64_t starved_by_s = clock_s_ - config_.starve_after_s;
	for (const Job &job : jobs_) {
		if (job.state != JobState::Pending || job.eligible_s == kNoTime ||
		    job.eligible_s > starved_by_s || job.campaign_slot >= keys.size() ||
		    keys[job.campaign_slot].campaign_id != job.campaign_id)
			continue;
		int64_t &since = keys[job.campaign_slot].starved_since_s;
		if (since == kNoTime || job.eligible_s < since)
			since = job.eligible_s;
	}
	// Only the longest-starved few: at a load where most campaigns wait that long, ranking all
	// of them first is FCFS by campaign (SDSC-SP2 at 0.95: utilization +5 points, light users'
	// p95 10x).
	std::vector<std::pair<int64_t, uint64_t>> starved; // (since, campaign id)
	for (const CampaignKey &key : keys)
		if (key.starved_since_s != kNoTime)
			starved.emplace_back(key.starved_since_s, key.campaign_id);
	if (starved.size() <= config_.starve_campaigns)
		return;
	std::nth_element(starved.begin(), starved.begin() + config_.starve_campaigns - 1,
	                 starved.end());
	const std::pair<int64_t, uint64_t> last_kept = starved[config_.starve_campaigns - 1];
	for (CampaignKey &key : keys)
		if (key.starved_since_s != kNoTime &&
		    std::make_pair(key.starved_since_s, key.campaign_id) > last_kept)
			key.starved_since_s = kNoTime;
}

// Keys of every live campaign (indexed by slot) and their rank among campaigns.
std::vector<CampaignCore::CampaignKey> CampaignCore::campaign_keys(std::vector<uint32_t> &live)
{
	std::vector<CampaignKey> keys(campaigns_.size());
	for (uint32_t slot = 0; slot < campaigns_.size(); slot++)
		if (campaigns_[slot].id != 0) {
			live.push_back(slot);
			keys[slot].campaign_id = campaigns_[slot].id;
		}
	auto take_view = [&](uint64_t campaign_id, const VirtualView &view) {
		auto slot = campaign_slot_.find(campaign_id);
		if (slot == campaign_slot_.end())
			return;
		CampaignKey &key = keys[slot->second];
		key.view = view;
		key.key = view.finish_s;
		key.waiting = !view.started;
	};
	if (config_.policy == PolicyKind::Ostrich) {
		for (const Domain &domain : domains_)
			domain.schedule.project(projection_capacity(domain), take_view);
		if (config_.overdue != CoreConfig::Overdue::Keep)
			clamp_overdue_keys(keys);
	}
	if (config_.policy == PolicyKind::FairCamp)
		for (const uint32_t slot : live) {
			keys[slot].deadline_s = deadlines_.deadline_s(campaigns_[slot].id);
			keys[slot].key = keys[slot].deadline_s;
		}
	if (config_.policy == PolicyKind::Fifo)
		return keys;
	if (config_.starve_after_s > 0 && !config_.starve_jobs)
		mark_starved_campaigns(keys);
	const bool waiting_last = !config_.strict && config_.queued_last;
	std::sort(live.begin(), live.end(), [&](uint32_t a, uint32_t b) {
		const bool a_starved = keys[a].starved_since_s != kNoTime;
		if (a_starved != (keys[b].starved_since_s != kNoTime))
			return a_starved;
		if (a_starved && keys[a].starved_since_s != keys[b].starved_since_s)
			return keys[a].starved_since_s < keys[b].starved_since_s;
		if (waiting_last && keys[a].waiting != keys[b].waiting)
			return !keys[a].waiting;
		if (keys[a].key != keys[b].key)
			return keys[a].key < keys[b].key;
		return campaigns_[a].id < campaigns_[b].id;
	});
	for (uint32_t position = 0; position < live.size(); position++)
		keys[live[position]].rank = position;
	return keys;
}

// The job's entry in the order index (its place inside its campaign), or none if it is not
// ranked (not pending, held, or given an operator's priority).
void CampaignCore::index_job(const Job &job)
{
	if (!order_index_built_)
		return;
	if (job.state != JobState::Pending || job.held || job.admin_priority) {
		order_index_.remove(job.job_id);
		return;
	}
	RankOrderKey key;
	key.major =
	    (static_cast<uint64_t>(0xFFFF - job.tier) << 32) | (0xFFFFFFFFULL - job.qos_priority);
	if (config_.policy != PolicyKind::Fifo) {
		key.nice_bits =
		    static_cast<uint32_t>(static_cast<int64_t>(job.nice) + 0x80000000LL);
		if (config_.intra == IntraOrder::Lpt)
			key.intra = -static_cast<double>(job.limit_s);
		else if (config_.intra == IntraOrder::Spt)
			key.intra = static_cast<double>(job.limit_s);
	}
	key.submit_s = job.submit_s;
	key.job_id = job.job_id;
	// FIFO ignores campaigns: one bucket.
	order_index_.put(config_.policy == PolicyKind::Fifo ? 0 : job.campaign_slot, key,
	                 JobShape{job.cpus, job.limit_s});
}

void CampaignCore::track_job_shapes()
{
	order_index_.clear();
	order_index_.track_shapes();
	order_index_built_ = false; // built again, with shapes, at the next ranking
}

std::optional<RankOrderIndex::Walk> CampaignCore::order_walk() const
{
	if (config_.policy == PolicyKind::Fifo || !ranked_ || !order_index_built_)
		return std::nullopt;
	std::vector<uint32_t> bucket_rank;
	bucket_rank.reserve(last_keys_.size());
	for (const CampaignKey &key : last_keys_)
		bucket_rank.push_back(key.rank);
	return order_index_.walk(bucket_rank);
}

void CampaignCore::reindex(uint32_t job_id)
{
	if (!order_index_built_)
		return;
	if (const Job *job = find(job_id))
		index_job(*job);
	else
		order_index_.remove(job_id);
}

void CampaignCore::ensure_order_index()
{
	if (order_index_built_)
		return;
	order_index_built_ = true;
	order_index_.clear();
	for (const Job &job : jobs_)
		index_job(job);
	order_index_.settle_late();
}

// The head of the total order (tier, QOS, campaign rank, nice, intra-campaign order, submit
// time, job id) with explanations, campaign keys by slot.
void CampaignCore::list_jobs(const std::vector<CampaignKey> &keys, size_t max_jobs,
                             Ranking &ranking) const
{
	std::vector<uint32_t> bucket_rank;
	if (config_.policy == PolicyKind::Fifo)
		bucket_rank.assign(1, 0);
	else
		for (const CampaignKey &key : keys)
			bucket_rank.push_back(key.rank);
	order_index_.merge(bucket_rank, max_jobs, ranking.order);
	if (config_.starve_after_s > 0 && config_.starve_jobs)
		move_starved_jobs_first(ranking);
	if (config_.starve_stretch > 0)
		move_stretched_jobs_first(ranking); // ahead of starve_after_s's jobs
	if (config_.starve_fair_factor > 0 && config_.policy == PolicyKind::Ostrich)
		move_unfair_waits_first(keys, ranking); // ahead of both
	// The jobs are found first, then explained, their look-ups' slots and then their records
	// asked for a few ahead: a ranked job's slot and record are far apart in memory, and one
	// pass that did both waited on each in turn (most of the ranking's time with thousands
	// pending).
	constexpr size_t kPrefetchAhead = 8;
	const std::vector<uint32_t> &order = ranking.order;
	std::vector<const Job *> listed;
	listed.reserve(order.size());
	for (size_t k = 0; k < order.size(); ++k) {
		if (k + kPrefetchAhead < order.size())
			job_index_.prefetch(order[k + kPrefetchAhead]);
		listed.push_back(&jobs_[*job_index_.find(order[k])]);
	}
	ranking.explanations.reserve(ranking.order.size());
	const CampaignKey none;
	for (size_t k = 0; k < listed.size(); ++k) {
		if (k + kPrefetchAhead < listed.size())
			prefetch_object(listed[k + kPrefetchAhead]);
		const Job &job = *listed[k];
		const bool known = job.campaign_slot < keys.size() &&
		                   keys[job.campaign_slot].campaign_id == job.campaign_id;
		ranking.explanations.push_back(
		    explain(job, known ? keys[job.campaign_slot] : none));
	}
}

// starve_scope=job: the starve_campaigns jobs pending longest, if eligible at least
// starve_after_s ago, go first (longest first), as EASY backfilling protects the head job; their
// campaigns' other jobs keep their place. A starved job cut from a head of max_jobs takes the
// head's last place.
void CampaignCore::move_starved_jobs_first(Ranking &ranking) const
{
	const int64_t starved_by_s = clock_s_ - config_.starve_after_s;
	std::vector<std::pair<double, uint32_t>> starved; // (eligible, job id)
	for (const Job &job : jobs_)
		if (job.state == JobState::Pending && !job.held && !job.admin_priority &&
		    job.eligible_s != kNoTime && job.eligible_s <= starved_by_s)
			starved.emplace_back(static_cast<double>(job.eligible_s), job.job_id);
	move_most_overdue_first(starved, ranking);
}

// The guards' common tail: the starve_campaigns candidates of least measure (the most overdue;
// ties by job id) go first, in that order.
void CampaignCore::move_most_overdue_first(std::vector<std::pair<double, uint32_t>> &overdue,
                                           Ranking &ranking) const
{
	const size_t kept = std::min<size_t>(overdue.size(), config_.starve_campaigns);
	if (kept == 0)
		return;
	std::partial_sort(overdue.begin(), overdue.begin() + kept, overdue.end());
	std::vector<uint32_t> first;
	first.reserve(kept);
	for (size_t index = 0; index < kept; index++)
		first.push_back(overdue[index].second);
	move_jobs_first(first, ranking);
}

void CampaignCore::move_jobs_first(const std::vector<uint32_t> &first, Ranking &ranking)
{
	if (first.empty())
		return;
	std::vector<uint32_t> order;
	order.reserve(ranking.order.size() + first.size());
	order.insert(order.end(), first.begin(), first.end());
	for (const uint32_t job_id : ranking.order)
		if (std::find(first.begin(), first.end(), job_id) == first.end())
			order.push_back(job_id);
	if (!ranking.order.empty() && order.size() > ranking.order.size())
		order.resize(std::max(ranking.order.size(), first.size()));
	ranking.order = std::move(order);
}

JobExplanation CampaignCore::explain(const Job &job, const CampaignKey &key) const
{
	JobExplanation explanation;
	explanation.job_id = job.job_id;
	explanation.campaign_id = job.campaign_id;
	explanation.key =
	    config_.policy == PolicyKind::Fifo ? static_cast<double>(job.submit_s) : key.key;
	explanation.virtual_start_s = key.view.start_s;
	explanation.virtual_finish_s = key.view.finish_s;
	explanation.remaining_work_cpu_s = key.view.remaining_cpu_s;
	explanation.deadline_s = key.deadline_s;
	explanation.may_start =
	    !(config_.strict && config_.policy == PolicyKind::Ostrich && key.waiting);
	return explanation;
}

CampaignRow CampaignCore::campaign_row(uint32_t slot, const CampaignKey &key) const
{
	const Campaign &campaign = campaigns_[slot];
	const Group &group = groups_[campaign.group];
	const Domain &domain = domains_[group.domain];
	CampaignRow row;
	row.uid = group.user_id;
	row.account = accounts_[group.account];
	row.domain = domain.name;
	row.campaign_id = campaign.id;
	row.jobs_pending = campaign.pending;
	row.jobs_running = campaign.running;
	row.jobs_done = campaign.done;
	row.submit_s = campaign.first_eligible_s;
	row.remaining_work_cpu_s = campaign.work_cpu_s;
	if (config_.policy == PolicyKind::Ostrich && key.view.known) {
		row.virtual_start_s = whole_seconds(key.view.start_s);
		row.virtual_finish_s = whole_seconds(key.view.finish_s);
		row.remaining_work_cpu_s = key.view.remaining_cpu_s;
	}
	if (config_.policy == PolicyKind::FairCamp)
		row.deadline_s = whole_seconds(key.deadline_s);
	const bool unfinished = campaign.pending + campaign.running > 0;
	const int64_t flow_end_s =
	    unfinished || campaign.last_end_s == kNoTime ? clock_s_ : campaign.last_end_s;
	const double ideal_s = std::max(campaign.work_cpu_s / projection_capacity(domain),
	                                static_cast<double>(campaign.longest_job_s));
	row.stretch = ideal_s > 0 ? (flow_end_s - campaign.first_eligible_s) / ideal_s : 0;
	return row;
}

// work_estimate=recent: runs ended since the last ranking changed the predictions, so pending jobs
// count their new estimates (a burst of short jobs with long limits shrinks in V as soon as its
// first runs end, not only as each of its jobs starts).
void CampaignCore::refresh_estimates()
{
	if (!config_.recent_work_estimate || !estimates_stale_)
		return;
	estimates_stale_ = false;
	for (Job &job : jobs_) {
		if (job.state != JobState::Pending)
			continue;
		if (const double work = job_work_cpu_s(job); work != job.counted_work_cpu_s)
			change_counted_work(job, work);
	}
}

Ranking CampaignCore::rank_unguarded(int64_t now_s, RankScope scope, size_t max_jobs)
{
	advance(now_s);
	for (uint32_t domain = 0; domain < domains_.size(); domain++)
		advance_domain(domain, static_cast<double>(clock_s_));
	apply_usage_shares(clock_s_); // from now on: V up to now ran with the shares it had
	refresh_estimates();
	retire_finished_campaigns(clock_s_);
	std::vector<uint32_t> live;
	std::vector<CampaignKey> keys = campaign_keys(live);
	ensure_order_index();
	order_index_.settle_late();
	Ranking ranking;
	list_jobs(keys, max_jobs, ranking);
	if (scope == RankScope::jobs_and_campaigns)
		for (const uint32_t slot : live)
			ranking.campaigns.push_back(campaign_row(slot, keys[slot]));
	last_keys_ = std::move(keys);
	ranked_ = true;
	return ranking;
}

Ranking CampaignCore::rank_as_last_unguarded(int64_t now_s, size_t max_jobs)
{
	if (!ranked_ || !order_index_built_)
		return rank_unguarded(now_s, RankScope::jobs_only, max_jobs);
	advance(now_s); // jobs whose eligible time came are late
	Ranking ranking;
	list_jobs(last_keys_, max_jobs, ranking);
	return ranking;
}

size_t CampaignCore::approximate_bytes() const
{
	size_t bytes = jobs_.capacity() * sizeof(Job);
	bytes += job_index_.slot_count() * job_index_.slot_bytes();
	bytes +=
	    campaigns_.capacity() * sizeof(Campaign) +
	    campaign_slot_.size() * (sizeof(std::pair<uint64_t, uint32_t>) + 2 * sizeof(void *)) +
	    campaign_slot_.bucket_count() * sizeof(void *);
	bytes += groups_.capacity() * sizeof(Group) + group_index_.size() * 32;
	for (const Domain &domain : domains_)
		bytes +=
		    domain.schedule.campaigns().size() * (sizeof(VirtualSchedule::Campaign) + 48) +
		    domain.schedule.units().size() * (sizeof(VirtualSchedule::Unit) + 48);
	return bytes + deadlines_.approximate_bytes();
}

} // namespace campaign
