// The freeze (PlannerConfig::freeze_slip_s): a reservation that slipped too far is kept where
// it stands. Under conservative planning a wide job's reservation moves later each time newer,
// higher-ranked work takes the places in front of it; guards that rank the victim first made
// the next class of job the victim (doc/fairness-results.md). Frozen, the job keeps its rank and
// its start: work ranked above it is planned around its booking, as around a kept start.
#include "plan/planner.h"

#include <algorithm>
#include <unordered_set>

namespace campaign::plan
{

void Planner::book_frozen(size_t first_index)
{
	if (config_.freeze_slip_s <= 0 || frozen_s_.empty())
		return;
	const std::unordered_set<uint64_t> spared = first_campaigns();
	for (size_t i = first_index; i < queue_.size(); ++i) {
		Entry &entry = queue_[i];
		auto frozen = frozen_s_.find(entry.job.id);
		// Window and dependent jobs move with what they wait for: the walk places them.
		if (frozen == frozen_s_.end() || held_by_refusal(entry) ||
		    !entry.fits_empty_machine || entry.window >= 0 || waits_for_others(entry) ||
		    spared.contains(entry.job.campaign_id))
			continue;
		entry.job.limit_s = limit_now_s(entry);
		const int64_t from_s = std::max(frozen->second, not_before_s(entry));
		if (config_.freeze_keeps_room)
			entry.long_cpus_limit = frozen_long_cpus_limit(entry.job);
		// Where its start no longer fits (a running job outlived its end), the next one
		// that does: still ahead of everything the walk places.
		if (auto placement = search(entry, from_s, now_s_ + config_.horizon_s, nullptr)) {
			book(entry, std::move(*placement));
			entry.frozen = true;
		} else
			entry.long_cpus_limit = long_cpus_limit_of(entry.job);
	}
}

// freeze_keeps_room: the room at its cap, whatever the adaptive room is now. The booking lasts
// over plans; the room it would leave by today's demand may be too small by the time it runs.
int64_t Planner::frozen_long_cpus_limit(const PendingJob &job) const
{
	if (room_cap_cpus_ == 0 || !holds_long(room_length_s(job)) || job.cpus >= wide_cpus_)
		return -1;
	return std::max<int64_t>(usable_cpus_ - room_cap_cpus_, job.cpus);
}

std::unordered_set<uint64_t> Planner::first_campaigns() const
{
	std::unordered_set<uint64_t> first;
	const size_t wanted = static_cast<size_t>(std::max(config_.freeze_skip_first, 0));
	for (size_t i = 0; i < queue_.size() && first.size() < wanted; ++i)
		first.insert(queue_[i].job.campaign_id);
	return first;
}

// Booked from its last start on, a frozen job may find room before it once the jobs ranked
// above it are placed (an early end): it takes that room at its rank, before the jobs below.
bool Planner::move_frozen_earlier(Entry &entry)
{
	bool moved = false;
	if (entry.placement.start_s > now_s_) {
		Placement kept = entry.placement;
		unplace(entry);
		std::optional<Placement> earlier =
		    search(entry, not_before_s(entry), kept.start_s - 1, nullptr);
		moved = earlier.has_value();
		book(entry, moved ? std::move(*earlier) : std::move(kept));
	}
	settle_status(entry);
	return moved;
}

void Planner::note_slips()
{
	if (config_.freeze_slip_s <= 0 || config_.starts_only)
		return;
	const std::unordered_set<uint64_t> spared = first_campaigns();
	for (const Entry &entry : queue_) {
		if (!entry.placed())
			continue;
		const int64_t start_s = entry.placement.start_s;
		// A frozen job follows its placement: a compression or its rank's room moved it.
		if (auto frozen = frozen_s_.find(entry.job.id); frozen != frozen_s_.end()) {
			frozen->second = start_s;
			continue;
		}
		if (entry.status != JobStatus::reserved ||
		    static_cast<double>(std::max(entry.job.cpus, entry.job.nodes_min)) <
		        config_.freeze_wide * static_cast<double>(usable_cpus_))
			continue;
		auto [first, added] = first_reserved_s_.try_emplace(entry.job.id, start_s);
		// A spared job's slip is still measured from its first start: it freezes once its
		// campaign falls out of the first ones.
		if (!added && start_s - first->second > config_.freeze_slip_s &&
		    !spared.contains(entry.job.campaign_id))
			frozen_s_.emplace(entry.job.id, start_s);
	}
}

void Planner::forget_unlisted(const std::vector<PendingJob> &pending_in_rank_order)
{
	if (first_reserved_s_.empty() && frozen_s_.empty())
		return;
	std::unordered_set<JobId> listed;
	listed.reserve(pending_in_rank_order.size());
	for (const PendingJob &job : pending_in_rank_order)
		listed.insert(job.id);
	std::erase_if(first_reserved_s_,
	              [&](const auto &kept) { return !listed.contains(kept.first); });
	std::erase_if(frozen_s_, [&](const auto &kept) { return !listed.contains(kept.first); });
}

} // namespace campaign::plan
