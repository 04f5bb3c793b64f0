// Reading the CoreState JSON back: every value range-checked and every cross-reference
// (slots, groups, domains, queues) verified before the core is used, so a bad state gives an
// error naming the culprit and never a crash later. No Slurm types.
#include "state/core_state_json.h"
#include "state/json_reader.h"

#include <jansson.h>
#include <limits>
#include <memory>
#include <set>

namespace campaign
{
namespace
{

constexpr int64_t kU32 = std::numeric_limits<uint32_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

void require(bool condition, const JsonReader &where, const std::string &what)
{
	if (!condition)
		where.fail(what);
}

} // namespace

struct CoreStateCodec::Reader {
	using Core = CampaignCore;

	static Core::Job job(const JsonReader &in);
	static Core::Campaign campaign(const JsonReader &in);
	static void schedule(Core::Domain &domain, const JsonReader &in, size_t groups);
	static void deadlines(Core &core, const JsonReader &in);
	static void tables(Core &core, const JsonReader &in);
	static void registry(Core &core, const JsonReader &in);
	static void check_jobs(const Core &core, const JsonReader &in);
	static void check_detector(const Core &core, const JsonReader &in);
};

CampaignCore::Job CoreStateCodec::Reader::job(const JsonReader &in)
{
	const JsonReader values = in.field("i");
	require(values.size() == 22, values, "expected 22 integers");
	auto at = [&](size_t index, int64_t min, int64_t max) {
		return values.item(index).integer(min, max);
	};
	Core::Job job;
	job.job_id = static_cast<uint32_t>(at(0, 1, kU32));
	job.user_id = static_cast<uint32_t>(at(1, 0, kU32));
	job.account = static_cast<uint32_t>(at(2, 0, kU32));
	job.partition = static_cast<uint32_t>(at(3, 0, kU32));
	job.group = static_cast<uint32_t>(at(4, 0, kU32));
	job.cpus = static_cast<uint32_t>(at(5, 1, kU32));
	job.nodes = static_cast<uint32_t>(at(6, 1, kU32));
	job.tasks = static_cast<uint32_t>(at(7, 1, kU32));
	job.qos_priority = static_cast<uint32_t>(at(8, 0, kU32));
	job.tier = static_cast<uint16_t>(at(9, 0, 0xFFFF));
	job.nice = static_cast<int32_t>(at(10, INT32_MIN, INT32_MAX));
	job.campaign_slot = static_cast<uint32_t>(at(11, 0, kU32));
	job.campaign_id = static_cast<uint64_t>(at(12, 0, kI64Max));
	job.submit_s = at(13, kI64Min, kI64Max);
	job.eligible_s = at(14, kI64Min, kI64Max);
	job.start_s = at(15, kI64Min, kI64Max);
	job.limit_s = at(16, 0, kI64Max);
	job.limit_kind = static_cast<uint8_t>(at(17, 0, 2));
	(void)at(18, kI64Min, kI64Max); // the Set seconds, kept in limit_s
	job.state = static_cast<Core::JobState>(at(19, 0, 2));
	job.held = at(20, 0, 1) != 0;
	job.admin_priority = at(21, 0, 1) != 0;
	job.billable = in.field("billable").real();
	require(job.billable > 0, in.field("billable"), "must be positive");
	job.counted_work_cpu_s = in.field("counted").real();
	return job;
}

CampaignCore::Campaign CoreStateCodec::Reader::campaign(const JsonReader &in)
{
	Core::Campaign campaign;
	campaign.id = static_cast<uint64_t>(in.field("id").integer(0, kI64Max));
	campaign.group = static_cast<uint32_t>(in.field("group").integer(0, kU32));
	campaign.first_eligible_s = in.field("first").integer(kI64Min, kI64Max);
	campaign.pending = static_cast<uint32_t>(in.field("pending").integer(0, kU32));
	campaign.running = static_cast<uint32_t>(in.field("running").integer(0, kU32));
	campaign.done = static_cast<uint32_t>(in.field("done").integer(0, kU32));
	campaign.work_cpu_s = in.field("work").real();
	campaign.last_end_s = in.field("last_end").integer(kI64Min, kI64Max);
	campaign.longest_job_s = in.field("longest").integer(0, kI64Max);
	if (in.has("postponed_until")) { // absent: not postponed (and files of earlier releases)
		campaign.postponed_until_s = in.field("postponed_until").real();
		campaign.postponed_at_s = in.field("postponed_at").real();
		if (in.has("postponed_served")) // absent in files of stop 53's release
			campaign.postponed_served_cpu_s = in.field("postponed_served").real();
	}
	return campaign;
}

void CoreStateCodec::Reader::schedule(Core::Domain &domain, const JsonReader &in, size_t groups)
{
	using Status = VirtualSchedule::Campaign::Status;
	std::unordered_map<uint64_t, VirtualSchedule::Campaign> campaigns;
	const JsonReader list = in.field("campaigns");
	for (size_t index = 0; index < list.size(); index++) {
		const JsonReader item = list.item(index);
		VirtualSchedule::Campaign campaign;
		const uint64_t id = static_cast<uint64_t>(item.field("id").integer(1, kI64Max));
		campaign.unit = static_cast<uint32_t>(item.field("unit").integer(0, groups - 1));
		campaign.work_cpu_s = item.field("work").real();
		campaign.finish_tag = item.field("tag").real();
		campaign.start_s = item.field("start").real();
		campaign.finish_s = item.field("finish").real();
		campaign.status = static_cast<Status>(item.field("status").integer(0, 2));
		require(campaigns.emplace(id, campaign).second, item, "duplicate campaign id");
	}
	std::unordered_map<uint32_t, VirtualSchedule::Unit> units;
	size_t queued = 0;
	const JsonReader unit_list = in.field("units");
	for (size_t index = 0; index < unit_list.size(); index++) {
		const JsonReader item = unit_list.item(index);
		const auto id = static_cast<uint32_t>(item.field("id").integer(0, groups - 1));
		VirtualSchedule::Unit unit;
		unit.weight = item.field("weight").real();
		require(unit.weight > 0, item, "weight must be positive");
		const JsonReader queue = item.field("queue");
		for (size_t position = 0; position < queue.size(); position++) {
			const uint64_t campaign_id = queue.item(position).integer(1, kI64Max);
			auto found = campaigns.find(campaign_id);
			const Status expected = position == 0 ? Status::Running : Status::Queued;
			require(found != campaigns.end() && found->second.unit == id &&
			            found->second.status == expected,
			        queue.item(position), "queue entry does not match its campaign");
			unit.queue.push_back(campaign_id);
		}
		queued += unit.queue.size();
		require(units.emplace(id, std::move(unit)).second, item, "duplicate unit");
	}
	size_t unfinished = 0;
	for (const auto &[id, campaign] : campaigns) {
		require(units.count(campaign.unit) != 0, list, "campaign of an unknown unit");
		unfinished += campaign.status != Status::Finished;
	}
	require(unfinished == queued, list, "unfinished campaigns and queues disagree");
	domain.schedule.restore(in.field("clock").real(), in.field("vtime").real(),
	                        in.field("active_weight").real(), std::move(campaigns),
	                        std::move(units));
}

void CoreStateCodec::Reader::deadlines(Core &core, const JsonReader &in)
{
	std::unordered_map<uint64_t, FairCampDeadlines::Campaign> campaigns;
	const JsonReader list = in.field("campaigns");
	for (size_t index = 0; index < list.size(); index++) {
		const JsonReader item = list.item(index);
		FairCampDeadlines::Campaign campaign;
		const uint64_t id = static_cast<uint64_t>(item.field("id").integer(1, kI64Max));
		campaign.group = static_cast<uint32_t>(item.field("group").integer(0, kU32));
		campaign.opened_s = item.field("opened").integer(kI64Min, kI64Max);
		campaign.k = static_cast<uint32_t>(item.field("k").integer(1, kU32));
		campaign.capacity_cpus = item.field("capacity").integer(1, kI64Max);
		const JsonReader jobs = item.field("jobs");
		for (size_t position = 0; position < jobs.size(); position++) {
			const JsonReader job = jobs.item(position);
			require(job.size() == 4, job, "expected [id, cpus, tasks, length_s]");
			campaign.jobs.push_back(
			    {static_cast<uint32_t>(job.item(0).integer(0, kU32)),
			     static_cast<uint32_t>(job.item(1).integer(1, kU32)),
			     static_cast<uint32_t>(job.item(2).integer(1, kU32)),
			     job.item(3).integer(0, kI64Max)});
		}
		campaign.delta_s = item.field("delta").real();
		campaign.deadline_s = item.field("deadline").real();
		campaign.delta_stale = item.field("stale").boolean();
		campaign.retired = item.field("retired").boolean();
		require(campaigns.emplace(id, std::move(campaign)).second, item, "duplicate id");
	}
	std::unordered_map<uint32_t, FairCampDeadlines::Group> groups;
	const JsonReader group_list = in.field("groups");
	for (size_t index = 0; index < group_list.size(); index++) {
		const JsonReader item = group_list.item(index);
		const auto id = static_cast<uint32_t>(item.field("id").integer(0, kU32));
		FairCampDeadlines::Group group;
		const JsonReader live = item.field("campaigns");
		for (size_t position = 0; position < live.size(); position++) {
			const uint64_t campaign_id = live.item(position).integer(1, kI64Max);
			auto found = campaigns.find(campaign_id);
			require(found != campaigns.end() && found->second.group == id,
			        live.item(position), "unknown campaign or wrong group");
			group.campaigns.push_back(campaign_id);
		}
		group.base_deadline_s = item.field("base").real();
		group.stale = item.field("stale").boolean();
		require(groups.emplace(id, std::move(group)).second, item, "duplicate group");
	}
	for (const auto &[id, campaign] : campaigns)
		require(groups.count(campaign.group) != 0, list, "campaign of an unknown group");
	core.deadlines_.restore(std::move(campaigns), std::move(groups));
}

} // namespace campaign

namespace campaign
{

void CoreStateCodec::Reader::registry(Core &core, const JsonReader &in)
{
	core.clock_s_ = in.field("clock").integer(kI64Min, kI64Max);
	const JsonReader partitions = in.field("partitions");
	for (size_t index = 0; index < partitions.size(); index++) {
		const JsonReader item = partitions.item(index);
		PartitionCapacity partition{
		    item.field("name").text(),
		    static_cast<uint64_t>(item.field("cpus").integer(0, kI64Max)),
		    item.field("max_time").optional_integer(0, kI64Max),
		    item.field("default_time").optional_integer(0, kI64Max)};
		require(core.partition_index_.emplace(partition.partition, index).second, item,
		        "duplicate partition name");
		core.partitions_.push_back(std::move(partition));
	}
	const JsonReader accounts = in.field("accounts");
	for (size_t index = 0; index < accounts.size(); index++) {
		std::string name = accounts.item(index).text();
		require(core.account_index_.emplace(name, index).second, accounts.item(index),
		        "duplicate account");
		core.accounts_.push_back(std::move(name));
	}
	const JsonReader weights = in.field("weights");
	for (size_t index = 0; index < weights.size(); index++) {
		const JsonReader item = weights.item(index);
		require(item.size() == 2, item, "expected [unit, weight]");
		const double weight = item.item(1).real();
		require(weight > 0, item, "weight must be positive");
		core.unit_weights_[static_cast<uint32_t>(item.item(0).integer(0, kU32))] = weight;
	}
	if (in.has("usage")) { // absent from states saved before usage-aware shares
		const JsonReader usage = in.field("usage");
		for (size_t index = 0; index < usage.size(); index++) {
			const JsonReader item = usage.item(index);
			require(item.size() == 3, item, "expected [unit, cpu_s, at_s]");
			const double cpu_s = item.item(1).real();
			require(cpu_s >= 0, item, "usage must not be negative");
			core.unit_usage_[static_cast<uint32_t>(item.item(0).integer(0, kU32))] = {
			    cpu_s, item.item(2).integer(kI64Min, kI64Max)};
		}
	}
	if (in.has("recent_runs")) { // absent from states saved before work_estimate=recent
		const JsonReader recent = in.field("recent_runs");
		for (size_t index = 0; index < recent.size(); index++) {
			const JsonReader item = recent.item(index);
			require(item.size() == 4, item, "expected [user, latest, previous, runs]");
			const double latest = item.item(1).real(), previous = item.item(2).real();
			require(latest >= 0 && latest <= 1 && previous >= 0 && previous <= 1, item,
			        "run fractions must lie in [0, 1]");
			core.predictor_.restore(
			    static_cast<uint32_t>(item.item(0).integer(0, kU32)),
			    {latest, previous, static_cast<uint32_t>(item.item(3).integer(0, 2))});
		}
		const double all_users = in.field("recent_all_users").real();
		require(all_users >= 0 && all_users <= 1, in.field("recent_all_users"),
		        "run fraction must lie in [0, 1]");
		core.predictor_.restore_all_users_fraction(all_users);
	}
	// Whether a run ended since pending jobs' estimates were last made is not saved:
	// re-estimate at the next ranking (it changes only the estimates that differ from the
	// predictions).
	core.estimates_stale_ = true;
	const JsonReader activations = in.field("activations");
	for (size_t index = 0; index < activations.size(); index++) {
		const JsonReader item = activations.item(index);
		require(item.size() == 2, item, "expected [eligible_s, job_id]");
		core.activations_.push({item.item(0).integer(kI64Min, kI64Max),
		                        static_cast<uint32_t>(item.item(1).integer(0, kU32))});
	}
}

void CoreStateCodec::Reader::tables(Core &core, const JsonReader &in)
{
	const JsonReader groups = in.field("groups");
	for (size_t index = 0; index < groups.size(); index++) {
		const JsonReader item = groups.item(index);
		require(item.size() == 5, item, "expected [unit, domain, user, account, live]");
		Core::Group group;
		group.unit = static_cast<uint32_t>(item.item(0).integer(0, kU32));
		group.domain = static_cast<uint32_t>(item.item(1).integer(0, kU32));
		group.user_id = static_cast<uint32_t>(item.item(2).integer(0, kU32));
		group.account = static_cast<uint32_t>(item.item(3).integer(0, kU32));
		group.live_jobs = static_cast<uint32_t>(item.item(4).integer(0, kU32));
		require(group.account < core.accounts_.size(), item, "unknown account");
		const uint64_t key = (static_cast<uint64_t>(group.unit) << 32) | group.domain;
		require(core.group_index_.emplace(key, index).second, item, "duplicate group");
		core.groups_.push_back(group);
	}
	const JsonReader domains = in.field("domains");
	for (size_t index = 0; index < domains.size(); index++) {
		const JsonReader item = domains.item(index);
		Core::Domain domain;
		domain.name = item.field("name").text();
		domain.cpus_up = item.field("cpus").integer(0, kI64Max);
		domain.last_positive_cpus = item.field("last_positive").integer(1, kI64Max);
		domain.capacity_overridden = item.field("overridden").boolean();
		domain.busy_cpus = item.field("busy").real();
		domain.active_groups =
		    static_cast<uint32_t>(item.field("active_groups").integer(0, kU32));
		schedule(domain, item.field("schedule"), core.groups_.size());
		require(core.domain_index_.emplace(domain.name, index).second, item,
		        "duplicate domain");
		core.domains_.push_back(std::move(domain));
	}
	for (size_t index = 0; index < core.groups_.size(); index++)
		require(core.groups_[index].domain < core.domains_.size(), groups.item(index),
		        "unknown domain");
	const JsonReader campaigns = in.field("campaigns");
	for (size_t index = 0; index < campaigns.size(); index++) {
		Core::Campaign campaign = CoreStateCodec::Reader::campaign(campaigns.item(index));
		if (campaign.id != 0) {
			require(campaign.group < core.groups_.size(), campaigns.item(index),
			        "unknown group");
			require(core.campaign_slot_.emplace(campaign.id, index).second,
			        campaigns.item(index), "duplicate campaign id");
		}
		core.campaigns_.push_back(campaign);
	}
	const JsonReader free_slots = in.field("free_slots");
	std::set<uint32_t> seen;
	for (size_t index = 0; index < free_slots.size(); index++) {
		const auto slot = static_cast<uint32_t>(free_slots.item(index).integer(0, kU32));
		require(slot < core.campaigns_.size() && core.campaigns_[slot].id == 0 &&
		            seen.insert(slot).second,
		        free_slots.item(index), "not a free campaign slot");
		core.free_campaign_slots_.push_back(slot);
	}
}

void CoreStateCodec::Reader::check_jobs(const Core &core, const JsonReader &in)
{
	std::vector<uint32_t> pending(core.campaigns_.size()), running(core.campaigns_.size());
	for (size_t index = 0; index < core.jobs_.size(); index++) {
		const Core::Job &job = core.jobs_[index];
		const JsonReader where = in.item(index);
		require(job.account < core.accounts_.size(), where, "unknown account");
		require(job.partition < core.partitions_.size(), where, "unknown partition");
		require(job.group < core.groups_.size(), where, "unknown group");
		if (job.state == Core::JobState::Waiting)
			continue;
		require(job.campaign_slot < core.campaigns_.size() && job.campaign_id != 0 &&
		            core.campaigns_[job.campaign_slot].id == job.campaign_id &&
		            core.campaigns_[job.campaign_slot].group == job.group,
		        where, "campaign slot does not match");
		if (job.state == Core::JobState::Pending)
			pending[job.campaign_slot] += job.tasks; // array tasks count one each
		else
			running[job.campaign_slot]++;
	}
	for (size_t slot = 0; slot < core.campaigns_.size(); slot++)
		require(core.campaigns_[slot].pending == pending[slot] &&
		            core.campaigns_[slot].running == running[slot],
		        JsonReader(nullptr, "state.campaigns[" + std::to_string(slot) + "]"),
		        "job counts disagree with the jobs");
}

void CoreStateCodec::Reader::check_detector(const Core &core, const JsonReader &in)
{
	const JsonReader groups = in.field("groups");
	require(groups.size() <= core.groups_.size(), groups, "more groups than the core has");
	std::vector<OpenCampaign> open;
	for (size_t index = 0; index < groups.size(); index++) {
		const JsonReader item = groups.item(index);
		require(item.size() == 4, item,
		        "expected [campaign, first, latest_end, unfinished]");
		OpenCampaign campaign{static_cast<uint64_t>(item.item(0).integer(0, kI64Max)),
		                      item.item(1).integer(kI64Min, kI64Max),
		                      item.item(2).integer(kI64Min, kI64Max),
		                      static_cast<uint32_t>(item.item(3).integer(0, kU32))};
		open.push_back(campaign);
	}
	const uint64_t next = in.field("next_campaign").integer(1, kI64Max);
	for (const auto &[id, slot] : core.campaign_slot_)
		require(id < next, in.field("next_campaign"), "not above every campaign id");
	const_cast<Core &>(core).detector_.restore(std::move(open), next);
}

Result<CampaignCore> CoreStateCodec::load(const std::string &json)
{
	json_error_t error;
	std::unique_ptr<json_t, decltype(&json_decref)> root(
	    json_loadb(json.data(), json.size(), JSON_REJECT_DUPLICATES, &error), json_decref);
	if (!root)
		return Error{"state: line " + std::to_string(error.line) + " column " +
		             std::to_string(error.column) + ": " + error.text};
	try {
		const JsonReader in(root.get(), "state");
		const int64_t version = in.field("version").integer(kI64Min, kI64Max);
		if (version != kCoreStateVersion)
			in.field("version").fail("unsupported version " + std::to_string(version) +
			                         " (this build reads " +
			                         std::to_string(kCoreStateVersion) + ")");
		// A state of the first release also saved the plugin's keys: only core keys count.
		auto created =
		    CampaignCore::create(saved_core_parameters(in.field("parameters").text()));
		if (!created.ok())
			return Error{"state.parameters: " + created.error()};
		CampaignCore core = std::move(created).value();
		Reader::registry(core, in);
		Reader::tables(core, in);
		const JsonReader jobs = in.field("jobs");
		for (size_t index = 0; index < jobs.size(); index++) {
			core.jobs_.push_back(Reader::job(jobs.item(index)));
			const uint32_t job_id = core.jobs_.back().job_id;
			require(job_id != 0, jobs.item(index), "job id 0");
			require(!core.job_index_.contains(job_id), jobs.item(index),
			        "duplicate job id");
			core.job_index_[job_id] = static_cast<uint32_t>(index);
		}
		Reader::check_jobs(core, jobs);
		Reader::check_detector(core, in.field("detector"));
		Reader::deadlines(core, in.field("deadlines"));
		return core;
	} catch (const JsonReadError &failure) {
		return Error{failure.what()};
	} catch (const std::exception &failure) {
		return Error{std::string("state: ") + failure.what()};
	}
}

} // namespace campaign
