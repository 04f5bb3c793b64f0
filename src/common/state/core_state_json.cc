// CoreState JSON: every field of CampaignCore written as versioned JSON, and read back with
// each value checked (type, range, cross-references) so that a bad file yields an error naming
// the culprit's path, never a crash. No Slurm types, no file access.
#include "state/core_state_json.h"

#include "state/json_reader.h"

#include <algorithm>
#include <cmath>
#include <jansson.h>
#include <memory>
#include <vector>

namespace campaign
{
namespace
{

using JsonPtr = std::unique_ptr<json_t, decltype(&json_decref)>;

json_t *real(double value)
{
	return json_real(std::isfinite(value) ? value : 0.0);
}

json_t *optional_integer(const std::optional<int64_t> &value)
{
	return value ? json_integer(*value) : json_null();
}

json_t *list_job(const ListJob &job)
{
	return json_pack("[I,I,I,I]", static_cast<json_int_t>(job.job_id),
	                 static_cast<json_int_t>(job.cpus), static_cast<json_int_t>(job.tasks),
	                 static_cast<json_int_t>(job.length_s));
}

// A map's entries sorted by key, so that equal states save to equal text.
template <typename Map> std::vector<typename Map::const_iterator> sorted(const Map &map)
{
	std::vector<typename Map::const_iterator> entries;
	for (auto entry = map.begin(); entry != map.end(); ++entry)
		entries.push_back(entry);
	std::sort(entries.begin(), entries.end(),
	          [](const auto &a, const auto &b) { return a->first < b->first; });
	return entries;
}

} // namespace

// Writing, one section per function.
struct CoreStateCodec::Writer {
	using Core = CampaignCore;

	static json_t *job(const Core::Job &job)
	{
		json_t *out = json_object();
		const int64_t values[] = {job.job_id,
		                          job.user_id,
		                          job.account,
		                          job.partition,
		                          job.group,
		                          job.cpus,
		                          job.nodes,
		                          job.tasks,
		                          job.qos_priority,
		                          job.tier,
		                          job.nice,
		                          job.campaign_slot,
		                          static_cast<int64_t>(job.campaign_id),
		                          job.submit_s,
		                          job.eligible_s,
		                          job.start_s,
		                          job.limit_s,
		                          job.limit_kind,
		                          job.limit_s,
		                          static_cast<int64_t>(job.state),
		                          job.held,
		                          job.admin_priority};
		json_t *integers = json_array();
		for (const int64_t value : values)
			json_array_append_new(integers, json_integer(value));
		json_object_set_new(out, "i", integers);
		json_object_set_new(out, "billable", real(job.billable));
		json_object_set_new(out, "counted", real(job.counted_work_cpu_s));
		return out;
	}

	static json_t *campaign(const Core::Campaign &campaign)
	{
		json_t *out = json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:I,s:I}", "id",
		                        static_cast<json_int_t>(campaign.id), "group",
		                        static_cast<json_int_t>(campaign.group), "first",
		                        static_cast<json_int_t>(campaign.first_eligible_s),
		                        "pending", static_cast<json_int_t>(campaign.pending),
		                        "running", static_cast<json_int_t>(campaign.running),
		                        "done", static_cast<json_int_t>(campaign.done), "work",
		                        real(campaign.work_cpu_s), "last_end",
		                        static_cast<json_int_t>(campaign.last_end_s), "longest",
		                        static_cast<json_int_t>(campaign.longest_job_s));
		// overdue=clamp|share: a postponed campaign's bound, kept across a restart (made
		// again at load, it would move later and the postponement need never end).
		if (campaign.postponed_until_s > 0) {
			json_object_set_new(out, "postponed_until",
			                    real(campaign.postponed_until_s));
			json_object_set_new(out, "postponed_at", real(campaign.postponed_at_s));
			json_object_set_new(out, "postponed_served",
			                    real(campaign.postponed_served_cpu_s));
		}
		return out;
	}

	static json_t *schedule(const VirtualSchedule &schedule)
	{
		json_t *campaigns = json_array();
		for (const auto &entry : sorted(schedule.campaigns())) {
			const auto &[id, campaign] = *entry;
			json_array_append_new(
			    campaigns,
			    json_pack(
			        "{s:I,s:I,s:o,s:o,s:o,s:o,s:I}", "id", static_cast<json_int_t>(id),
			        "unit", static_cast<json_int_t>(campaign.unit), "work",
			        real(campaign.work_cpu_s), "tag", real(campaign.finish_tag),
			        "start", real(campaign.start_s), "finish", real(campaign.finish_s),
			        "status", static_cast<json_int_t>(campaign.status)));
		}
		json_t *units = json_array();
		for (const auto &entry : sorted(schedule.units())) {
			const auto &[id, unit] = *entry;
			json_t *queue = json_array();
			for (const uint64_t campaign_id : unit.queue)
				json_array_append_new(queue, json_integer(campaign_id));
			json_array_append_new(
			    units, json_pack("{s:I,s:o,s:o}", "id", static_cast<json_int_t>(id),
			                     "weight", real(unit.weight), "queue", queue));
		}
		return json_pack("{s:o,s:o,s:o,s:o,s:o}", "clock", real(schedule.clock_s()),
		                 "vtime", real(schedule.vtime()), "active_weight",
		                 real(schedule.active_weight()), "campaigns", campaigns, "units",
		                 units);
	}

	static json_t *domain(const Core::Domain &domain)
	{
		return json_pack("{s:s,s:I,s:I,s:b,s:o,s:I,s:o}", "name", domain.name.c_str(),
		                 "cpus", static_cast<json_int_t>(domain.cpus_up), "last_positive",
		                 static_cast<json_int_t>(domain.last_positive_cpus), "overridden",
		                 domain.capacity_overridden, "busy", real(domain.busy_cpus),
		                 "active_groups", static_cast<json_int_t>(domain.active_groups),
		                 "schedule", schedule(domain.schedule));
	}

	static json_t *deadlines(const FairCampDeadlines &deadlines)
	{
		json_t *campaigns = json_array();
		for (const auto &entry : sorted(deadlines.campaigns())) {
			const auto &[id, campaign] = *entry;
			json_t *jobs = json_array();
			for (const ListJob &job : campaign.jobs)
				json_array_append_new(jobs, list_job(job));
			json_array_append_new(
			    campaigns,
			    json_pack("{s:I,s:I,s:I,s:I,s:I,s:o,s:o,s:o,s:b,s:b}", "id",
			              static_cast<json_int_t>(id), "group",
			              static_cast<json_int_t>(campaign.group), "opened",
			              static_cast<json_int_t>(campaign.opened_s), "k",
			              static_cast<json_int_t>(campaign.k), "capacity",
			              static_cast<json_int_t>(campaign.capacity_cpus), "jobs", jobs,
			              "delta", real(campaign.delta_s), "deadline",
			              real(campaign.deadline_s), "stale", campaign.delta_stale,
			              "retired", campaign.retired));
		}
		json_t *groups = json_array();
		for (const auto &entry : sorted(deadlines.groups())) {
			const auto &[id, group] = *entry;
			json_t *live = json_array();
			for (const uint64_t campaign_id : group.campaigns)
				json_array_append_new(live, json_integer(campaign_id));
			json_array_append_new(groups, json_pack("{s:I,s:o,s:o,s:b}", "id",
			                                        (json_int_t)id, "campaigns", live,
			                                        "base", real(group.base_deadline_s),
			                                        "stale", group.stale));
		}
		return json_pack("{s:o,s:o}", "campaigns", campaigns, "groups", groups);
	}

	static json_t *detector(const CampaignDetector &detector)
	{
		json_t *groups = json_array();
		for (const OpenCampaign &open : detector.groups())
			json_array_append_new(groups,
			                      json_pack("[I,I,I,I]", (json_int_t)open.campaign_id,
			                                (json_int_t)open.first_eligible_s,
			                                (json_int_t)open.latest_end_s,
			                                (json_int_t)open.unfinished));
		return json_pack("{s:I,s:o}", "next_campaign",
		                 (json_int_t)detector.next_campaign_id(), "groups", groups);
	}

	static json_t *tables(const Core &core);
	static json_t *all(const Core &core);
};

json_t *CoreStateCodec::Writer::tables(const Core &core)
{
	json_t *out = json_object();
	json_t *jobs = json_array();
	for (const Core::Job &one : core.jobs_)
		json_array_append_new(jobs, job(one));
	json_object_set_new(out, "jobs", jobs);
	json_t *campaigns = json_array();
	for (const Core::Campaign &one : core.campaigns_)
		json_array_append_new(campaigns, campaign(one));
	json_object_set_new(out, "campaigns", campaigns);
	json_t *free_slots = json_array();
	for (const uint32_t slot : core.free_campaign_slots_)
		json_array_append_new(free_slots, json_integer(slot));
	json_object_set_new(out, "free_slots", free_slots);
	json_t *groups = json_array();
	for (const Core::Group &group : core.groups_)
		json_array_append_new(
		    groups, json_pack("[I,I,I,I,I]", (json_int_t)group.unit,
		                      (json_int_t)group.domain, (json_int_t)group.user_id,
		                      (json_int_t)group.account, (json_int_t)group.live_jobs));
	json_object_set_new(out, "groups", groups);
	json_t *domains = json_array();
	for (const Core::Domain &one : core.domains_)
		json_array_append_new(domains, domain(one));
	json_object_set_new(out, "domains", domains);
	return out;
}

json_t *CoreStateCodec::Writer::all(const Core &core)
{
	json_t *out = tables(core);
	json_object_set_new(out, "version", json_integer(kCoreStateVersion));
	json_object_set_new(out, "parameters", json_string(core.config_.text.c_str()));
	json_object_set_new(out, "clock", json_integer(core.clock_s_));
	json_t *partitions = json_array();
	for (const PartitionCapacity &partition : core.partitions_)
		json_array_append_new(
		    partitions, json_pack("{s:s,s:I,s:o,s:o}", "name", partition.partition.c_str(),
		                          "cpus", (json_int_t)partition.cpus_up, "max_time",
		                          optional_integer(partition.max_time_s), "default_time",
		                          optional_integer(partition.default_time_s)));
	json_object_set_new(out, "partitions", partitions);
	json_t *accounts = json_array();
	for (const std::string &account : core.accounts_)
		json_array_append_new(accounts, json_string(account.c_str()));
	json_object_set_new(out, "accounts", accounts);
	json_t *weights = json_array();
	for (const auto &entry : sorted(core.unit_weights_))
		json_array_append_new(
		    weights, json_pack("[I,o]", (json_int_t)entry->first, real(entry->second)));
	json_object_set_new(out, "weights", weights);
	json_t *usage = json_array();
	for (const auto &entry : sorted(core.unit_usage_))
		json_array_append_new(usage, json_pack("[I,o,I]", (json_int_t)entry->first,
		                                       real(entry->second.cpu_s),
		                                       (json_int_t)entry->second.at_s));
	json_object_set_new(out, "usage", usage);
	json_t *recent = json_array();
	for (const auto &entry : sorted(core.predictor_.users()))
		json_array_append_new(recent, json_pack("[I,o,o,I]", (json_int_t)entry->first,
		                                        real(entry->second.latest),
		                                        real(entry->second.previous),
		                                        (json_int_t)entry->second.runs));
	json_object_set_new(out, "recent_runs", recent);
	json_object_set_new(out, "recent_all_users", real(core.predictor_.all_users_fraction()));
	json_t *activations = json_array();
	auto heap = core.activations_;
	for (; !heap.empty(); heap.pop())
		json_array_append_new(activations, json_pack("[I,I]", (json_int_t)heap.top().first,
		                                             (json_int_t)heap.top().second));
	json_object_set_new(out, "activations", activations);
	json_object_set_new(out, "detector", detector(core.detector_));
	json_object_set_new(out, "deadlines", deadlines(core.deadlines_));
	return out;
}

std::string CoreStateCodec::save(const CampaignCore &core)
{
	JsonPtr root(Writer::all(core), json_decref);
	char *text = json_dumps(root.get(), JSON_COMPACT);
	std::string out = text ? text : "";
	free(text);
	return out;
}

} // namespace campaign
