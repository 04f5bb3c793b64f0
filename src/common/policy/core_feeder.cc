// CoreFeeder: snapshot differences become core events, sorted by the time they happened so the
// virtual schedule sees them in order even when one pass observes several. No Slurm types.
#include "policy/core_feeder.h"

#include <algorithm>
#include <unordered_set>

namespace campaign
{

struct CoreFeeder::Event {
	// At equal times, kinds apply in this order, which is also the order of one job's own
	// events (so a job that ran for less than a second starts before it ends).
	enum class Kind : uint8_t { Submit, Eligible, Hold, Release, Update, Start, End, Cancel };
	// A requeued job's new submission goes after every event of the pass (phase 1), so its
	// earlier run has ended first.
	uint8_t phase = 0;
	int64_t time_s = 0;
	Kind kind = Kind::Submit;
	bool ran_before = false; // End: the run started before time_s
	uint32_t job_id = 0;
	JobFields fields; // Submit
	JobUpdate update; // Update
};

// At equal times, the thesis's campaign rule decides the order: a job joins its user's campaign
// iff it was submitted before the campaign's last job completed. So a job submitted earlier and
// released now (a dependency met, a begin time reached) is eligible before an end of the same
// second, and joins; a run that ends now ends before a submission of the same second, which then
// opens a new campaign. The rest keep the kinds' order, which is also one job's own order.
int CoreFeeder::same_time_rank(const Event &event)
{
	using Kind = Event::Kind;
	if (event.kind == Kind::Eligible)
		return 0;
	if (event.kind == Kind::End && event.ran_before)
		return 1;
	return 2 + static_cast<int>(event.kind);
}

CoreFeeder::Tracked CoreFeeder::tracked_from(const ObservedJob &job)
{
	Tracked tracked;
	tracked.eligible = job.fields.eligible_s.has_value();
	tracked.held = job.fields.held;
	tracked.admin_priority = job.fields.admin_priority;
	tracked.limit = job.fields.limit;
	tracked.cpus = job.fields.cpus;
	tracked.nodes = job.fields.nodes;
	tracked.array_tasks = job.fields.array_tasks;
	tracked.nice = job.fields.nice;
	tracked.start_s = job.start_s;
	return tracked;
}

// A job first seen now: submit it, and replay what it already did (start, end).
void CoreFeeder::observe_new(const ObservedJob &job, std::vector<Event> &events,
                             std::optional<int64_t> submit_at_s)
{
	const uint32_t id = job.fields.job_id;
	Tracked tracked = tracked_from(job);
	if (job.state == ObservedJob::State::Finished && !job.ran) {
		tracked.told = Told::Done; // cancelled before it ever ran: nothing for the core
		tracked_[id] = tracked;
		return;
	}
	const uint8_t phase = submit_at_s ? 1 : 0;
	Event submit{.phase = phase,
	             .time_s = submit_at_s.value_or(job.fields.submit_s),
	             .kind = Event::Kind::Submit,
	             .job_id = id};
	submit.fields = job.fields;
	if (job.state != ObservedJob::State::Pending) {
		// It started before we saw it: it was eligible and not held then.
		submit.fields.held = false;
		if (!submit.fields.eligible_s)
			submit.fields.eligible_s = job.start_s;
	}
	const int64_t submit_s = submit.time_s;
	events.push_back(std::move(submit));
	tracked.told = Told::Pending;
	if (job.state != ObservedJob::State::Pending) {
		events.push_back({.phase = phase,
		                  .time_s = std::max(submit_s, job.start_s),
		                  .kind = Event::Kind::Start,
		                  .job_id = id});
		tracked.told = Told::Running;
	}
	if (job.state == ObservedJob::State::Finished) {
		const int64_t end_s = std::max({submit_s, job.start_s, job.end_s});
		events.push_back({.phase = phase,
		                  .time_s = end_s,
		                  .kind = Event::Kind::End,
		                  .ran_before = std::max(submit_s, job.start_s) < end_s,
		                  .job_id = id});
		tracked.told = Told::Done;
	}
	tracked_[id] = tracked;
}

void CoreFeeder::observe_known(const ObservedJob &job, Tracked &tracked, int64_t now_s,
                               std::vector<Event> &events)
{
	const uint32_t id = job.fields.job_id;
	if (tracked.told == Told::Done) {
		tracked.gone_s = 0;
		return;
	}
	using State = ObservedJob::State;
	if (tracked.told == Told::Running && job.state == State::Pending) {
		// Requeued: the run is over; the job comes back as a new submission, after the end.
		events.push_back({.time_s = now_s,
		                  .kind = Event::Kind::End,
		                  .ran_before = tracked.start_s < now_s,
		                  .job_id = id});
		tracked_.erase(id);
		observe_new(job, events, now_s);
		return;
	}
	if (tracked.told == Told::Pending) {
		if (!tracked.eligible && job.fields.eligible_s) {
			events.push_back({.time_s = *job.fields.eligible_s,
			                  .kind = Event::Kind::Eligible,
			                  .job_id = id});
			tracked.eligible = true;
		}
		if (job.fields.held != tracked.held && job.state == State::Pending) {
			events.push_back(
			    {.time_s = now_s,
			     .kind = job.fields.held ? Event::Kind::Hold : Event::Kind::Release,
			     .job_id = id});
			tracked.held = job.fields.held;
		}
	}
	JobUpdate update{.job_id = id};
	bool changed = false;
	if (!(job.fields.limit == tracked.limit)) {
		update.limit = job.fields.limit;
		tracked.limit = job.fields.limit;
		changed = true;
	}
	if (job.state == State::Pending) { // sizes of a running job are its allocation: fixed
		if (job.fields.cpus != tracked.cpus || job.fields.nodes != tracked.nodes) {
			update.cpus = job.fields.cpus;
			update.nodes = job.fields.nodes;
			tracked.cpus = job.fields.cpus;
			tracked.nodes = job.fields.nodes;
			changed = true;
		}
		if (job.fields.array_tasks != tracked.array_tasks) {
			update.array_tasks = job.fields.array_tasks;
			tracked.array_tasks = job.fields.array_tasks;
			changed = true;
		}
	}
	if (job.fields.nice != tracked.nice) {
		update.nice = job.fields.nice;
		tracked.nice = job.fields.nice;
		changed = true;
	}
	if (job.fields.admin_priority != tracked.admin_priority) {
		update.admin_priority = job.fields.admin_priority;
		tracked.admin_priority = job.fields.admin_priority;
		changed = true;
	}
	// A job that finished since the last pass has left the core before now: an update at now
	// would name a job the core no longer knows, and nothing of it matters any more.
	if (changed && job.state != State::Finished) {
		Event event{.time_s = now_s, .kind = Event::Kind::Update, .job_id = id};
		event.update = std::move(update);
		events.push_back(std::move(event));
	}
	if (tracked.told == Told::Pending && job.state != State::Pending) {
		if (job.state == State::Running || job.ran) {
			events.push_back(
			    {.time_s = job.start_s, .kind = Event::Kind::Start, .job_id = id});
			tracked.told = Told::Running;
			tracked.start_s = job.start_s;
		} else {
			const int64_t at = job.end_s > 0 ? job.end_s : now_s;
			events.push_back({.time_s = at, .kind = Event::Kind::Cancel, .job_id = id});
			tracked.told = Told::Done;
		}
	}
	if (tracked.told == Told::Running && job.state == State::Finished) {
		events.push_back({.time_s = job.end_s,
		                  .kind = Event::Kind::End,
		                  .ran_before = job.start_s < job.end_s,
		                  .job_id = id});
		tracked.told = Told::Done;
	}
}

void CoreFeeder::observe(const ObservedJob &job, int64_t now_s, std::vector<Event> &events)
{
	auto found = tracked_.find(job.fields.job_id);
	if (found == tracked_.end())
		observe_new(job, events);
	else
		observe_known(job, found->second, now_s, events);
}

void CoreFeeder::forget_missing(const std::vector<ObservedJob> &jobs, int64_t now_s,
                                std::vector<Event> &events)
{
	std::unordered_set<uint32_t> present;
	present.reserve(jobs.size());
	for (const ObservedJob &job : jobs)
		present.insert(job.fields.job_id);
	for (auto it = tracked_.begin(); it != tracked_.end();) {
		if (present.count(it->first)) {
			++it;
			continue;
		}
		Tracked &tracked = it->second;
		if (tracked.told == Told::Done) {
			if (tracked.gone_s == 0)
				tracked.gone_s = now_s;
			if (now_s - tracked.gone_s <= kDoneMemoryS) {
				++it;
				continue;
			}
		} else if (tracked.told == Told::Running) {
			events.push_back({.time_s = now_s,
			                  .kind = Event::Kind::End,
			                  .ran_before = tracked.start_s < now_s,
			                  .job_id = it->first});
		} else {
			events.push_back(
			    {.time_s = now_s, .kind = Event::Kind::Cancel, .job_id = it->first});
		}
		it = tracked_.erase(it);
	}
}

FeedCounts CoreFeeder::reconcile(CampaignCore &core, const std::vector<ObservedJob> &jobs,
                                 const std::vector<PartitionCapacity> &partitions, int64_t now_s)
{
	std::vector<Event> events;
	for (const ObservedJob &job : jobs)
		observe(job, now_s, events);
	forget_missing(jobs, now_s, events);
	std::stable_sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
		if (a.phase != b.phase)
			return a.phase < b.phase;
		if (a.time_s != b.time_s)
			return a.time_s < b.time_s;
		return same_time_rank(a) < same_time_rank(b);
	});

	FeedCounts counts;
	auto note = [&counts](const Status &status) {
		if (status.ok())
			return;
		if (counts.errors++ == 0)
			counts.first_error = status.error();
	};
	// Capacity first, as of the earliest event, so the first pass ranks on real capacity.
	const int64_t capacity_time =
	    events.empty() ? now_s : std::min(now_s, events.front().time_s);
	for (const PartitionCapacity &partition : partitions) {
		auto known = capacities_.find(partition.partition);
		if (known != capacities_.end() && known->second.cpus_up == partition.cpus_up &&
		    known->second.max_time_s == partition.max_time_s &&
		    known->second.default_time_s == partition.default_time_s)
			continue;
		note(core.capacity(partition, capacity_time));
		capacities_[partition.partition] = partition;
	}
	for (const Event &event : events) {
		switch (event.kind) {
		case Event::Kind::Submit:
			note(core.submit(event.fields, event.time_s));
			counts.submitted++;
			break;
		case Event::Kind::Eligible:
			note(core.eligible(event.job_id, event.time_s));
			break;
		case Event::Kind::Start:
			note(core.start(event.job_id, event.time_s));
			counts.started++;
			break;
		case Event::Kind::End:
			note(core.end(event.job_id, event.time_s));
			counts.ended++;
			break;
		case Event::Kind::Cancel:
			note(core.cancel(event.job_id, event.time_s));
			counts.cancelled++;
			break;
		case Event::Kind::Hold:
			note(core.hold(event.job_id, event.time_s));
			break;
		case Event::Kind::Release:
			note(core.release(event.job_id, event.time_s));
			break;
		case Event::Kind::Update:
			note(core.update(event.update, event.time_s));
			counts.updated++;
			break;
		}
	}
	return counts;
}

} // namespace campaign
