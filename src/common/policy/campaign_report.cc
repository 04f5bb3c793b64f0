// CampaignReport <-> JSON with jansson; absent optional values are JSON null.
#include "policy/campaign_report.h"

#include <jansson.h>
#include <memory>

namespace campaign
{
namespace
{

using Json = std::unique_ptr<json_t, decltype(&json_decref)>;

json_t *optional_integer(const std::optional<int64_t> &value)
{
	return value ? json_integer(*value) : json_null();
}

std::optional<int64_t> read_optional(json_t *object, const char *key)
{
	json_t *value = json_object_get(object, key);
	if (!json_is_integer(value))
		return std::nullopt;
	return json_integer_value(value);
}

json_t *row_to_json(const CampaignRow &row)
{
	json_t *object = json_object();
	json_object_set_new(object, "uid", json_integer(row.uid));
	json_object_set_new(object, "user", json_string(row.user.c_str()));
	json_object_set_new(object, "account", json_string(row.account.c_str()));
	json_object_set_new(object, "domain", json_string(row.domain.c_str()));
	json_object_set_new(object, "campaign",
	                    json_integer(static_cast<json_int_t>(row.campaign_id)));
	json_object_set_new(object, "pending", json_integer(row.jobs_pending));
	json_object_set_new(object, "running", json_integer(row.jobs_running));
	json_object_set_new(object, "done", json_integer(row.jobs_done));
	json_object_set_new(object, "submit", json_integer(row.submit_s));
	json_object_set_new(object, "virtual_start", optional_integer(row.virtual_start_s));
	json_object_set_new(object, "virtual_finish", optional_integer(row.virtual_finish_s));
	json_object_set_new(object, "deadline", optional_integer(row.deadline_s));
	json_object_set_new(object, "remaining_work_cpu_s", json_real(row.remaining_work_cpu_s));
	json_object_set_new(object, "stretch", json_real(row.stretch));
	return object;
}

Result<CampaignRow> row_from_json(json_t *object, size_t index)
{
	const char *user = nullptr, *account = nullptr, *domain = nullptr;
	json_int_t uid = 0, id = 0, pending = 0, running = 0, done = 0, submit = 0;
	double remaining = 0, stretch = 0;
	json_error_t problem;
	if (json_unpack_ex(object, &problem, 0,
	                   "{s:I, s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:F, s:F}", "uid", &uid,
	                   "user", &user, "account", &account, "domain", &domain, "campaign", &id,
	                   "pending", &pending, "running", &running, "done", &done, "submit",
	                   &submit, "remaining_work_cpu_s", &remaining, "stretch", &stretch) != 0)
		return Error{"campaign row " + std::to_string(index) + ": " + problem.text};
	CampaignRow row;
	row.uid = static_cast<uint32_t>(uid);
	row.user = user;
	row.account = account;
	row.domain = domain;
	row.campaign_id = static_cast<uint64_t>(id);
	row.jobs_pending = static_cast<uint32_t>(pending);
	row.jobs_running = static_cast<uint32_t>(running);
	row.jobs_done = static_cast<uint32_t>(done);
	row.submit_s = submit;
	row.virtual_start_s = read_optional(object, "virtual_start");
	row.virtual_finish_s = read_optional(object, "virtual_finish");
	row.deadline_s = read_optional(object, "deadline");
	row.remaining_work_cpu_s = remaining;
	row.stretch = stretch;
	return row;
}

} // namespace

std::string report_to_json(const CampaignReport &report)
{
	Json root(json_object(), &json_decref);
	json_object_set_new(root.get(), "ok", json_true());
	json_object_set_new(root.get(), "policy", json_string(report.policy.c_str()));
	json_object_set_new(root.get(), "generated", json_integer(report.generated_s));
	json_t *rows = json_array();
	for (const CampaignRow &row : report.rows)
		json_array_append_new(rows, row_to_json(row));
	json_object_set_new(root.get(), "campaigns", rows);
	json_object_set_new(
	    root.get(), "scheduler",
	    report.scheduler
	        ? json_loads(scheduler_metrics_to_json(*report.scheduler).c_str(), 0, nullptr)
	        : json_null());
	char *text = json_dumps(root.get(), JSON_COMPACT);
	std::string out = text ? text : "";
	free(text);
	return out;
}

Result<CampaignReport> report_from_json(const std::string &text)
{
	json_error_t problem;
	Json root(json_loads(text.c_str(), 0, &problem), &json_decref);
	if (!root)
		return Error{std::string("reply is not JSON: ") + problem.text};
	if (!json_is_true(json_object_get(root.get(), "ok"))) {
		const char *message = json_string_value(json_object_get(root.get(), "error"));
		return Error{message ? message : "request refused"};
	}
	CampaignReport report;
	const char *policy = json_string_value(json_object_get(root.get(), "policy"));
	report.policy = policy ? policy : "";
	report.generated_s = json_integer_value(json_object_get(root.get(), "generated"));
	json_t *rows = json_object_get(root.get(), "campaigns");
	if (!json_is_array(rows))
		return Error{"reply has no campaigns array"};
	for (size_t i = 0; i < json_array_size(rows); i++) {
		auto row = row_from_json(json_array_get(rows, i), i);
		if (!row.ok())
			return Error{row.error()};
		report.rows.push_back(std::move(row).value());
	}
	json_t *scheduler = json_object_get(root.get(), "scheduler");
	if (json_is_object(scheduler)) {
		char *text = json_dumps(scheduler, JSON_COMPACT);
		auto metrics = scheduler_metrics_from_json(text ? text : "");
		free(text);
		if (!metrics.ok())
			return Error{metrics.error()};
		report.scheduler = std::move(metrics).value();
	}
	return report;
}

} // namespace campaign
