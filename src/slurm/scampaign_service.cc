// ScampaignService: authentication by slurmctld's own auth layer (caller_credential), authorization
// like slurmctld's PrivateData=jobs.
#include "slurm_api.h"

#include "scampaign_service.h"

#include "caller_credential.h"
#include "runtime/scheduler_metrics_board.h"

#include <jansson.h>

namespace campaign::slurm
{

Status ScampaignService::start(const std::string &address, uint16_t port, AuthSettings auth)
{
	auth_ = std::move(auth);
	return server_.start(address, port,
	                     [this](const std::string &line) { return handle(line); });
}

void ScampaignService::publish(CampaignReport report, bool private_jobs)
{
	std::lock_guard<std::mutex> hold(mutex_);
	report_ = std::move(report);
	private_jobs_ = private_jobs;
}

Result<std::string> own_controller_address()
{
	if (&backup_inx == nullptr)
		return Error{"not inside slurmctld"};
	const int index = backup_inx;
	if (index < 0 || static_cast<uint32_t>(index) >= slurm_conf.control_cnt ||
	    !slurm_conf.control_addr || !slurm_conf.control_addr[index])
		return Error{"this slurmctld (controller index " + std::to_string(index) +
		             ") has no SlurmctldHost address"};
	auto address = resolve_ipv4(slurm_conf.control_addr[index]);
	if (!address.ok())
		return Error{"SlurmctldHost " + std::to_string(index) + ": " + address.error()};
	return address;
}

bool ScampaignService::privileged(uid_t uid) const
{
	return uid == 0 || uid == slurm_conf.slurm_user_id || validate_operator(uid);
}

std::string ScampaignService::handle(const std::string &line)
{
	auto opened = verify_caller_credential(line, auth_);
	if (!opened.ok())
		return query_error_line(opened.error());
	const uid_t uid = opened.value().uid;
	json_error_t problem;
	json_t *request = json_loads(opened.value().payload.c_str(), 0, &problem);
	const char *op = request ? json_string_value(json_object_get(request, "op")) : nullptr;
	const char *user = request ? json_string_value(json_object_get(request, "user")) : nullptr;
	const std::string wanted_user = user ? user : "";
	const std::string operation = op ? op : "";
	json_decref(request);
	if (operation != "campaigns")
		return query_error_line("unknown request '" + operation + "' (known: campaigns)");

	CampaignReport visible;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		const bool everything = !private_jobs_ || privileged(uid);
		visible.policy = report_.policy;
		visible.generated_s = report_.generated_s;
		for (const CampaignRow &row : report_.rows)
			if ((everything || row.uid == uid) &&
			    (wanted_user.empty() || row.user == wanted_user))
				visible.rows.push_back(row);
	}
	// Counts by reason, no job or user in them: every caller may see them.
	visible.scheduler = process_scheduler_metrics().latest();
	return report_to_json(visible);
}

} // namespace campaign::slurm
