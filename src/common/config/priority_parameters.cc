// PriorityParameters schema and its typed reading. No Slurm types.
#include "config/priority_parameters.h"

namespace campaign
{
namespace
{

ParameterSpec choice(std::string key, std::string default_value, std::vector<std::string> choices,
                     std::string description)
{
	return {.key = std::move(key),
	        .kind = ParameterKind::Choice,
	        .default_value = std::move(default_value),
	        .description = std::move(description),
	        .choices = std::move(choices)};
}

ParameterSpec integer(std::string key, std::string default_value, int64_t min, int64_t max,
                      std::string description)
{
	return {.key = std::move(key),
	        .kind = ParameterKind::Integer,
	        .default_value = std::move(default_value),
	        .description = std::move(description),
	        .min_integer = min,
	        .max_integer = max};
}

constexpr int64_t kTenYearsS = 10LL * 366 * 86400;

} // namespace

ParameterSchema priority_parameter_schema()
{
	return ParameterSchema(
	    "PriorityParameters", "",
	    {choice("policy", "ostrich", {"fifo", "ostrich", "faircamp"}, "ranking policy"),
	     choice("rule", "threshold", {"threshold", "window"}, "campaign detection rule"),
	     integer("threshold_s", "0", 0, kTenYearsS,
	             "threshold rule: join iff eligible before T after the campaign's latest end"),
	     integer("window_s", "600", 0, kTenYearsS,
	             "window rule: join iff eligible within W of the campaign's first job"),
	     choice("unit", "user", {"user", "account"}, "fairness unit"),
	     choice("domain", "partition", {"partition", "cluster"},
	            "one virtual schedule per partition or one for the cluster"),
	     choice("mode", "work_conserving", {"work_conserving", "strict"},
	            "strict: no job starts before its campaign's virtual start"),
	     choice("intra", "lpt", {"lpt", "spt", "fifo"}, "order of jobs inside a campaign"),
	     choice("shares", "equal", {"equal", "weighted"},
	            "OStrich shares: equal, or by the weights the plugin sets per unit"),
	     {.key = "resizing",
	      .kind = ParameterKind::Boolean,
	      .default_value = "no",
	      .description = "OStrich V progresses at the rate the real schedule uses CPUs"},
	     integer("faircamp_k", "0", 0, 1000000,
	             "FairCamp k: 0 = active units when the campaign opens, else fixed"),
	     choice("faircamp_mode", "anchored", {"anchored", "paper"},
	            "anchored: d=max(t,d_prev)+k*Delta; paper: d=k*Delta+d_prev"),
	     integer("limit_cap_s", "604800", 1, kTenYearsS,
	             "seconds counted for an INFINITE or unset limit without partition times"),
	     integer("calc_period", "5", 1, 86400, "seconds between full re-rank passes"),
	     integer("query_port", "6830", 0, 65535, "TCP port of the scampaign channel (0: off)"),
	     {.key = "query_address",
	      .kind = ParameterKind::Text,
	      .default_value = "127.0.0.1",
	      .description = "IPv4 address the scampaign channel listens on"},
	     {.key = "shadow",
	      .kind = ParameterKind::Boolean,
	      .default_value = "no",
	      .description = "compute and publish ranks without applying them"}});
}

CoreConfig core_config_from(const ParameterValues &values)
{
	CoreConfig config;
	const std::string &policy = values.text("policy");
	config.policy = policy == "fifo"       ? PolicyKind::Fifo
	                : policy == "faircamp" ? PolicyKind::FairCamp
	                                       : PolicyKind::Ostrich;
	config.rule.kind = values.text("rule") == "window" ? DetectionRule::Kind::Window
	                                                   : DetectionRule::Kind::Threshold;
	config.rule.threshold_s = values.integer("threshold_s");
	config.rule.window_s = values.integer("window_s");
	config.unit_is_account = values.text("unit") == "account";
	config.domain_is_cluster = values.text("domain") == "cluster";
	config.strict = values.text("mode") == "strict";
	const std::string &intra = values.text("intra");
	config.intra = intra == "spt"    ? IntraOrder::Spt
	               : intra == "fifo" ? IntraOrder::Fifo
	                                 : IntraOrder::Lpt;
	config.weighted_shares = values.text("shares") == "weighted";
	config.resizing = values.boolean("resizing");
	config.faircamp_k = static_cast<uint32_t>(values.integer("faircamp_k"));
	config.faircamp_mode = values.text("faircamp_mode") == "paper"
	                           ? FairCampDeadlines::Mode::Paper
	                           : FairCampDeadlines::Mode::Anchored;
	config.limit_cap_s = values.integer("limit_cap_s");
	config.text = values.describe();
	return config;
}

} // namespace campaign
