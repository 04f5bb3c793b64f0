// CampaignCore events: submit, eligibility, start, end, cancel, hold/release, update and
// capacity, each advancing the affected virtual schedule to the event's time first.
// No Slurm types, no clock reads.
#include "policy/campaign_core.h"

#include <algorithm>

namespace campaign
{

CampaignCore::CampaignCore(CoreConfig config)
    : config_(std::move(config)), detector_(config_.rule), deadlines_(config_.faircamp_mode),
      predictor_(config_.work_estimate_floor_s)
{
}

Result<CampaignCore> CampaignCore::create(const ParameterValues &values)
{
	auto config = core_config_from(values);
	if (!config.ok()) // values of another schema: a core key is missing
		return Error{config.error()};
	return CampaignCore(std::move(config).value());
}

Result<CampaignCore> CampaignCore::create(std::string_view priority_parameters)
{
	auto values = core_parameter_schema().parse(priority_parameters);
	if (!values.ok())
		return Error{values.error()};
	return create(values.value());
}

CampaignCore::Job *CampaignCore::find(uint32_t job_id)
{
	const uint32_t *index = job_index_.find(job_id);
	return index ? &jobs_[*index] : nullptr;
}

int64_t CampaignCore::expected_run_s(uint32_t job_id) const
{
	const uint32_t *index = job_index_.find(job_id);
	if (!index)
		return 0;
	const Job &job = jobs_[*index];
	return predictor_.predict(job.user_id, job.limit_s);
}

Status CampaignCore::missing(uint32_t job_id, const char *event) const
{
	return Error{std::string(event) + ": job " + std::to_string(job_id) + " is not known"};
}

uint32_t CampaignCore::intern(std::vector<std::string> &names,
                              std::unordered_map<std::string, uint32_t> &index,
                              const std::string &name)
{
	auto [entry, inserted] = index.try_emplace(name, static_cast<uint32_t>(names.size()));
	if (inserted)
		names.push_back(name);
	return entry->second;
}

void CampaignCore::add_domain(const std::string &name)
{
	domains_.emplace_back();
	domains_.back().name = name;
	domains_.back().schedule.advance_to(static_cast<double>(clock_s_), 0);
}

uint32_t CampaignCore::domain_of_partition(uint32_t partition)
{
	const std::string &name =
	    config_.domain_is_cluster ? std::string("cluster") : partitions_[partition].partition;
	auto [entry, inserted] =
	    domain_index_.try_emplace(name, static_cast<uint32_t>(domains_.size()));
	if (inserted) {
		add_domain(name);
		if (config_.domain_is_cluster)
			refresh_cluster_capacity();
		else
			domains_.back().cpus_up = partitions_[partition].cpus_up;
	}
	return entry->second;
}

uint32_t CampaignCore::group_of(uint32_t user_id, uint32_t account, uint32_t domain)
{
	const uint32_t unit = config_.unit_is_account ? account : user_id;
	const uint64_t key = (static_cast<uint64_t>(unit) << 32) | domain;
	auto [entry, inserted] =
	    group_index_.try_emplace(key, static_cast<uint32_t>(groups_.size()));
	if (inserted) {
		groups_.push_back({unit, domain, user_id, account, 0});
		auto weight = unit_weights_.find(unit);
		if (config_.weighted_shares && weight != unit_weights_.end())
			domains_[domain].schedule.set_weight(entry->second, weight->second);
	}
	return entry->second;
}

double CampaignCore::virtual_rate(const Domain &domain) const
{
	const double capacity = static_cast<double>(domain.cpus_up);
	if (!config_.resizing)
		return capacity;
	// Resizing: V runs at the rate R uses CPUs. Stall guard (thesis §9 item 11): with no CPU
	// busy, V runs at full capacity, so waiting campaigns always reach their virtual start.
	if (domain.busy_cpus <= 0)
		return capacity;
	return std::min(capacity, domain.busy_cpus);
}

double CampaignCore::projection_capacity(const Domain &domain) const
{
	return static_cast<double>(domain.cpus_up > 0 ? domain.cpus_up : domain.last_positive_cpus);
}

void CampaignCore::advance_domain(uint32_t domain, double now_s)
{
	Domain &info = domains_[domain];
	info.schedule.advance_to(now_s, virtual_rate(info));
}

void CampaignCore::advance(int64_t now_s)
{
	now_s = std::max(now_s, clock_s_);
	while (!activations_.empty() && activations_.top().first <= now_s) {
		const auto [eligible_s, job_id] = activations_.top();
		activations_.pop();
		Job *job = find(job_id);
		if (!job || job->state != JobState::Waiting || job->held ||
		    job->eligible_s != eligible_s)
			continue; // stale entry
		clock_s_ = std::max(clock_s_, eligible_s);
		make_eligible(*job, clock_s_);
	}
	clock_s_ = now_s;
}

void CampaignCore::resolve_job(Job &job)
{
	const auto kind = static_cast<TimeLimit::Kind>(job.limit_kind);
	if (kind == TimeLimit::Kind::Set)
		return; // limit_s holds the seconds given
	job.limit_s = resolve_limit_s({kind, 0}, &partitions_[job.partition], config_.limit_cap_s);
}

double CampaignCore::job_work_cpu_s(const Job &job) const
{
	// work_estimate_below: a prediction counts only where the user's runs fell far short of
	// their limits; elsewhere the limit.
	int64_t one_run_s = job.limit_s;
	if (config_.recent_work_estimate) {
		const double fraction = predictor_.fraction(job.user_id);
		if (config_.work_estimate_below >= 1 || fraction < config_.work_estimate_below)
			one_run_s = predictor_.of_limit(fraction, job.limit_s);
	}
	const double length_s = job.state == JobState::Running
	                            ? static_cast<double>(one_run_s)
	                            : static_cast<double>(one_run_s) * job.tasks;
	return length_s * job.billable;
}

void CampaignCore::set_live(Group &group, int delta)
{
	const bool was_live = group.live_jobs > 0;
	group.live_jobs = static_cast<uint32_t>(static_cast<int64_t>(group.live_jobs) + delta);
	const bool is_live = group.live_jobs > 0;
	if (was_live != is_live)
		domains_[group.domain].active_groups += is_live ? 1 : -1;
}

uint32_t CampaignCore::open_campaign(Job &job, uint64_t campaign_id, int64_t opened_s)
{
	uint32_t slot;
	if (!free_campaign_slots_.empty()) {
		slot = free_campaign_slots_.back();
		free_campaign_slots_.pop_back();
	} else {
		slot = static_cast<uint32_t>(campaigns_.size());
		campaigns_.emplace_back();
	}
	Campaign &campaign = campaigns_[slot];
	campaign = Campaign{};
	campaign.id = campaign_id;
	campaign.group = job.group;
	campaign.first_eligible_s = opened_s;
	campaign_slot_[campaign_id] = slot;
	if (config_.policy == PolicyKind::FairCamp) {
		const Group &group = groups_[job.group];
		uint32_t k = config_.faircamp_k;
		if (k == 0)
			k = domains_[group.domain].active_groups + (group.live_jobs == 0 ? 1 : 0);
		deadlines_.open(campaign_id, job.group, opened_s, k);
	}
	return slot;
}

void CampaignCore::join_campaign(Job &job)
{
	Campaign &campaign = campaigns_[job.campaign_slot];
	Group &group = groups_[job.group];
	job.counted_work_cpu_s = job_work_cpu_s(job);
	campaign.work_cpu_s += job.counted_work_cpu_s;
	campaign.longest_job_s = std::max(campaign.longest_job_s, job.limit_s);
	set_live(group, 1);
	Domain &domain = domains_[group.domain];
	if (config_.policy == PolicyKind::Ostrich)
		domain.schedule.add_work(job.campaign_id, job.group, job.counted_work_cpu_s,
		                         config_.reopened_next);
	if (config_.policy == PolicyKind::FairCamp)
		deadlines_.put_job(job.campaign_id, {job.job_id, job.cpus, job.tasks, job.limit_s},
		                   static_cast<uint64_t>(projection_capacity(domain)));
}

void CampaignCore::make_eligible(Job &job, int64_t eligible_s)
{
	advance_domain(groups_[job.group].domain, static_cast<double>(clock_s_));
	const auto assignment = detector_.job_eligible(job.group, eligible_s);
	auto live = campaign_slot_.find(assignment.campaign_id);
	if (assignment.opened || live == campaign_slot_.end())
		job.campaign_slot = open_campaign(job, assignment.campaign_id, eligible_s);
	else
		job.campaign_slot = live->second;
	job.campaign_id = assignment.campaign_id;
	job.state = JobState::Pending;
	campaigns_[job.campaign_slot].pending += job.tasks; // array tasks count one each
	join_campaign(job);
	index_job(job); // also when activated by another event's advance()
}

// Set what the campaign counts for a job in the campaign (pending or running).
void CampaignCore::change_counted_work(Job &job, double new_work_cpu_s)
{
	new_work_cpu_s = std::max(0.0, new_work_cpu_s);
	const double delta = new_work_cpu_s - job.counted_work_cpu_s;
	job.counted_work_cpu_s = new_work_cpu_s;
	campaigns_[job.campaign_slot].work_cpu_s += delta;
	if (config_.policy != PolicyKind::Ostrich || delta == 0)
		return;
	VirtualSchedule &schedule = domains_[groups_[job.group].domain].schedule;
	if (delta > 0)
		schedule.add_work(job.campaign_id, job.group, delta, config_.reopened_next);
	else
		schedule.remove_work(job.campaign_id, -delta);
}

// The job stops counting in its campaign: ended (completed), cancelled or held.
void CampaignCore::leave_campaign(Job &job, int64_t at_s, bool completed)
{
	Campaign &campaign = campaigns_[job.campaign_slot];
	Group &group = groups_[job.group];
	if (job.state == JobState::Running) {
		campaign.running--;
		domains_[group.domain].busy_cpus -= job.billable;
		const int64_t runtime_s = std::max<int64_t>(0, at_s - job.start_s);
		change_counted_work(job, static_cast<double>(runtime_s) * job.billable);
		// Recorded under every work_estimate: expected_run_s reads it too.
		predictor_.record(job.user_id, runtime_s, job.limit_s);
		if (config_.recent_work_estimate)
			estimates_stale_ = true;
		campaign.done++;
		campaign.last_end_s = std::max(campaign.last_end_s, at_s);
	} else {
		campaign.pending -= job.tasks;
		change_counted_work(job, 0);
		if (config_.policy == PolicyKind::FairCamp)
			deadlines_.remove_job(job.campaign_id, job.job_id);
	}
	set_live(group, -1);
	detector_.job_left(job.group, job.campaign_id, at_s, completed);
	job.state = JobState::Waiting;
	job.campaign_id = 0;
}

void CampaignCore::erase_job(uint32_t job_id)
{
	const uint32_t index = *job_index_.find(job_id);
	job_index_.erase(job_id);
	if (index + 1 != jobs_.size()) {
		jobs_[index] = std::move(jobs_.back());
		job_index_[jobs_[index].job_id] = index;
	}
	jobs_.pop_back();
}

Status CampaignCore::submit_unguarded(const JobFields &fields, int64_t now_s)
{
	if (fields.job_id == 0)
		return Error{"submit: job id 0 is not valid"};
	if (knows(fields.job_id))
		return Error{"submit: job " + std::to_string(fields.job_id) + " is already known"};
	advance(now_s);
	Job job;
	job.job_id = fields.job_id;
	job.user_id = fields.user_id;
	job.account = intern(accounts_, account_index_, fields.account);
	const std::string partition = fields.partitions.empty() ? "" : fields.partitions.front();
	if (!partition_index_.count(partition)) {
		partitions_.push_back({partition, 0, std::nullopt, std::nullopt});
		partition_index_[partition] = static_cast<uint32_t>(partitions_.size() - 1);
	}
	job.partition = partition_index_[partition];
	job.group = group_of(job.user_id, job.account, domain_of_partition(job.partition));
	job.cpus = std::max<uint32_t>(1, fields.cpus);
	job.nodes = std::max<uint32_t>(1, fields.nodes);
	job.tasks = std::max<uint32_t>(1, fields.array_tasks);
	job.billable = fields.billable_tres > 0 ? fields.billable_tres : job.cpus;
	job.limit_kind = static_cast<uint8_t>(fields.limit.kind);
	job.limit_s = std::max<int64_t>(0, fields.limit.seconds);
	job.submit_s = fields.submit_s;
	job.qos_priority = fields.qos_priority;
	job.nice = fields.nice;
	job.tier = static_cast<uint16_t>(std::min<uint32_t>(fields.partition_tier, 0xFFFF));
	job.admin_priority = fields.admin_priority;
	job.held = fields.held;
	job.eligible_s = fields.eligible_s ? *fields.eligible_s : kNoTime;
	resolve_job(job);
	jobs_.push_back(job);
	job_index_[job.job_id] = static_cast<uint32_t>(jobs_.size() - 1);
	Job &stored = jobs_.back();
	if (stored.held || stored.eligible_s == kNoTime)
		return ok_status();
	if (stored.eligible_s <= clock_s_)
		make_eligible(stored, std::max(stored.eligible_s, stored.submit_s));
	else
		activations_.push({stored.eligible_s, stored.job_id});
	return ok_status();
}

Status CampaignCore::eligible_unguarded(uint32_t job_id, int64_t now_s)
{
	advance(now_s);
	Job *job = find(job_id);
	if (!job)
		return missing(job_id, "eligible");
	if (job->state != JobState::Waiting)
		return ok_status();
	job->eligible_s = clock_s_;
	if (!job->held)
		make_eligible(*job, clock_s_);
	return ok_status();
}

Status CampaignCore::start_unguarded(uint32_t job_id, int64_t start_s)
{
	advance(start_s);
	Job *job = find(job_id);
	if (!job)
		return missing(job_id, "start");
	if (job->state == JobState::Running)
		return ok_status();
	if (job->state == JobState::Waiting) {
		job->eligible_s = clock_s_; // started without an eligible event: it was eligible
		make_eligible(*job, clock_s_);
	}
	Domain &domain = domains_[groups_[job->group].domain];
	advance_domain(groups_[job->group].domain, static_cast<double>(clock_s_));
	Campaign &campaign = campaigns_[job->campaign_slot];
	campaign.pending -= job->tasks;
	campaign.running++;
	job->state = JobState::Running;
	job->start_s = clock_s_;
	job->tasks = 1; // a started record is one task; the plugin submits split tasks apart
	change_counted_work(*job, job_work_cpu_s(*job));
	if (campaign.postponed_until_s > 0)
		campaign.postponed_served_cpu_s += job->counted_work_cpu_s;
	domain.busy_cpus += job->billable;
	return ok_status();
}

Status CampaignCore::end_unguarded(uint32_t job_id, int64_t end_s)
{
	advance(end_s);
	Job *job = find(job_id);
	if (!job)
		return missing(job_id, "end");
	charge_usage(*job, end_s);
	if (job->state != JobState::Waiting) {
		advance_domain(groups_[job->group].domain, static_cast<double>(clock_s_));
		leave_campaign(*job, end_s, true);
	}
	erase_job(job_id);
	return ok_status();
}

Status CampaignCore::cancel_unguarded(uint32_t job_id, int64_t now_s)
{
	return end(job_id, now_s);
}

Status CampaignCore::hold_unguarded(uint32_t job_id, int64_t now_s)
{
	advance(now_s);
	Job *job = find(job_id);
	if (!job)
		return missing(job_id, "hold");
	job->held = true;
	if (job->state == JobState::Pending) {
		advance_domain(groups_[job->group].domain, static_cast<double>(clock_s_));
		leave_campaign(*job, clock_s_, false);
	}
	return ok_status();
}

Status CampaignCore::release_unguarded(uint32_t job_id, int64_t now_s)
{
	advance(now_s);
	Job *job = find(job_id);
	if (!job)
		return missing(job_id, "release");
	if (!job->held)
		return ok_status();
	job->held = false;
	if (job->state != JobState::Waiting || job->eligible_s == kNoTime)
		return ok_status();
	if (job->eligible_s <= clock_s_)
		make_eligible(*job, clock_s_); // eligible again from the release on
	else
		activations_.push({job->eligible_s, job->job_id});
	return ok_status();
}

} // namespace campaign
