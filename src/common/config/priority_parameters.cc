// PriorityParameters schema and its typed reading. No Slurm types.
#include "config/priority_parameters.h"

#include <algorithm>

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

ParameterSpec real(std::string key, std::string default_value, double min, double max,
                   std::string description)
{
	return {.key = std::move(key),
	        .kind = ParameterKind::Real,
	        .default_value = std::move(default_value),
	        .description = std::move(description),
	        .min_real = min,
	        .max_real = max};
}

constexpr int64_t kTenYearsS = 10LL * 366 * 86400;

} // namespace

ParameterSchema core_parameter_schema()
{
	return ParameterSchema(
	    "PriorityParameters", "",
	    {choice("policy", "ostrich", {"fifo", "ostrich", "faircamp"}, "ranking policy"),
	     choice("rule", "threshold", {"threshold", "window"}, "campaign detection rule"),
	     integer("threshold_s", "0", 0, kTenYearsS,
	             "threshold rule: join iff eligible before T after the campaign's latest end"),
	     integer("window_s", "600", 0, kTenYearsS,
	             "window rule: join iff eligible within W of the campaign's first job"),
	     integer("max_span_s", "0", 0, kTenYearsS,
	             "threshold rule: and iff eligible within S of the campaign's first job (0: no "
	             "bound)"),
	     choice("unit", "user", {"user", "account"}, "fairness unit"),
	     choice("domain", "partition", {"partition", "cluster"},
	            "one virtual schedule per partition or one for the cluster"),
	     choice("mode", "work_conserving", {"work_conserving", "strict"},
	            "strict: no job starts before its campaign's virtual start"),
	     choice("queued_campaigns", "last", {"last", "by_completion"},
	            "work_conserving: a campaign queued in V behind its unit's earlier one ranks "
	            "after every campaign started there (last) or by its projected completion, "
	            "as a started one does (by_completion)"),
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
	     integer("limit_cap_s", std::to_string(kDefaultLimitCapS), 1, kTenYearsS,
	             "seconds counted for an INFINITE or unset limit without partition times"),
	     integer("usage_halflife_s", "0", 0, kTenYearsS,
	             "OStrich shares scaled by each unit's past usage, decayed with this half-life "
	             "(0: off; with Slurm accounting the usage is RawUsage, decayed by Slurm)"),
	     real("usage_weight", "1", 0, 1000,
	          "how strongly usage scales a share: 2^(-usage_weight * usage / share)"),
	     choice("work_estimate", "recent", {"limit", "recent"},
	            "OStrich work of a job not yet ended: its limit, or its user's recent run "
	            "times (mean of the last two, at least work_estimate_floor_s, at most the "
	            "limit)"),
	     real("work_estimate_below", "0.1", 1e-6, 1,
	          "work_estimate=recent: a user's prediction counts only if their recent runs used "
	          "less than this part of their limits, else the limit (1: always)"),
	     integer("work_estimate_floor_s", "60", 1, 86400,
	             "the least run time a recent-runs prediction counts (a shorter limit still "
	             "caps it): a run that failed at once must not make its user's jobs count "
	             "as nothing; 10 is tau of bounded stretch"),
	     choice("overdue", "share", {"keep", "clamp", "share"},
	            "OStrich key of a campaign V has completed with work still pending: kept (C~, "
	            "first), or at least now + "
	            "its pending work over the partition's CPUs (clamp) or over its fair share "
	            "of them (share)"),
	     real("overdue_slide", "0.8", 0, 0.99,
	          "overdue=clamp|share: the bound of a postponed campaign moves later by this "
	          "fraction of the time since it was first postponed (0: fixed)"),
	     real("overdue_grace", "1", 0, 100,
	          "overdue=clamp|share: the bound set when a campaign is first postponed is its "
	          "completion in V plus this many times its own time in V (0: its completion)"),
	     choice("reopened", "last", {"last", "next"},
	            "where V serves more work for a campaign it has finished (a job joins it, or "
	            "its pending jobs' estimates rose): last, behind its user's newer campaigns, "
	            "or next, after the campaign V serves for that user"),
	     choice(
	         "overdue_pace", "share", {"none", "partition", "share"},
	         "overdue=clamp|share: each job a postponed campaign starts moves its bound later "
	         "by the job's work over the partition's CPUs or over its share of them, so once "
	         "the bound passes its jobs interleave with newer campaigns' instead of running "
	         "back to back (none: not moved)"),
	     integer("starve_after_s", "0", 0, kTenYearsS,
	             "a campaign whose oldest pending job has been eligible this long ranks ahead "
	             "of every other, oldest first, so its reservations stop moving later "
	             "(0: off)"),
	     integer("starve_campaigns", "1", 1, 1000000,
	             "starve_after_s: at most this many starved campaigns, the longest-starved, "
	             "rank first"),
	     choice("starve_scope", "campaign", {"campaign", "job"},
	            "starve_after_s: what ranks first, the starved campaign (every job of it) or "
	            "only its starved job"),
	     real("starve_fair_factor", "0", 0, 1e6,
	          "OStrich: a pending job that has waited more than this many times its campaign's "
	          "fair flow time (completion in V less the campaign's start) ranks first, the "
	          "most overdue first, at most starve_campaigns of them (0: off)"),
	     integer("starve_fair_floor_s", "10", 1, kTenYearsS,
	             "starve_fair_factor: the least fair flow time counted (tau of bounded "
	             "stretch)"),
	     real("starve_fair_width", "1", 1e-6, 1,
	          "starve_fair_factor: only jobs using at most this fraction of their "
	          "partition's CPUs"),
	     real("starve_stretch", "0", 0, 1e9,
	          "a pending job whose stretch so far (1 + wait over its expected run time, at "
	          "least 10 s) is at least this ranks first, the most stretched first, at most "
	          "starve_campaigns of them (0: off)"),
	     choice("starve_stretch_scale", "run", {"run", "queue_median"},
	            "starve_stretch: the threshold as given (run), or as a multiple of the median "
	            "stretch of the pending jobs at each ranking (queue_median)")});
}

std::string core_identity(const ParameterValues &values)
{
	return values.describe(core_parameter_schema());
}

Result<CoreConfig> core_config_from(const ParameterValues &values)
{
	if (Status complete = values.covers(core_parameter_schema()); !complete)
		return Error{complete.error()};
	CoreConfig config;
	const std::string &policy = values.text("policy");
	config.policy = policy == "fifo"       ? PolicyKind::Fifo
	                : policy == "faircamp" ? PolicyKind::FairCamp
	                                       : PolicyKind::Ostrich;
	config.rule.kind = values.text("rule") == "window" ? DetectionRule::Kind::Window
	                                                   : DetectionRule::Kind::Threshold;
	config.rule.threshold_s = values.integer("threshold_s");
	config.rule.window_s = values.integer("window_s");
	config.rule.max_span_s = values.integer("max_span_s");
	config.unit_is_account = values.text("unit") == "account";
	config.domain_is_cluster = values.text("domain") == "cluster";
	config.strict = values.text("mode") == "strict";
	config.queued_last = values.text("queued_campaigns") == "last";
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
	config.usage_halflife_s = values.integer("usage_halflife_s");
	config.usage_weight = values.real("usage_weight");
	config.recent_work_estimate = values.text("work_estimate") == "recent";
	config.work_estimate_floor_s = values.integer("work_estimate_floor_s");
	config.work_estimate_below = values.real("work_estimate_below");
	const std::string &overdue = values.text("overdue");
	config.overdue = overdue == "clamp"   ? CoreConfig::Overdue::Clamp
	                 : overdue == "share" ? CoreConfig::Overdue::Share
	                                      : CoreConfig::Overdue::Keep;
	config.overdue_slide = values.real("overdue_slide");
	config.overdue_grace = values.real("overdue_grace");
	config.reopened_next = values.text("reopened") == "next";
	const std::string &pace = values.text("overdue_pace");
	config.overdue_pace = pace == "partition" ? CoreConfig::OverduePace::Partition
	                      : pace == "share"   ? CoreConfig::OverduePace::Share
	                                          : CoreConfig::OverduePace::None;
	config.starve_after_s = values.integer("starve_after_s");
	config.starve_campaigns = static_cast<uint32_t>(values.integer("starve_campaigns"));
	config.starve_jobs = values.text("starve_scope") == "job";
	config.starve_fair_factor = values.real("starve_fair_factor");
	config.starve_stretch = values.real("starve_stretch");
	config.starve_stretch_of_median = values.text("starve_stretch_scale") == "queue_median";
	config.starve_fair_floor_s = values.integer("starve_fair_floor_s");
	config.starve_fair_width = values.real("starve_fair_width");
	config.text = core_identity(values);
	return config;
}

std::string saved_core_parameters(std::string_view saved_text)
{
	static const std::vector<std::string_view> plugin_keys = {"calc_period", "query_port",
	                                                          "query_address", "shadow"};
	std::string kept;
	size_t start = 0;
	while (start <= saved_text.size()) {
		size_t comma = saved_text.find(',', start);
		if (comma == std::string_view::npos)
			comma = saved_text.size();
		const std::string_view item = saved_text.substr(start, comma - start);
		const std::string_view key = item.substr(0, item.find('='));
		if (!item.empty() &&
		    std::find(plugin_keys.begin(), plugin_keys.end(), key) == plugin_keys.end())
			kept += (kept.empty() ? "" : ",") + std::string(item);
		start = comma + 1;
	}
	return kept;
}

} // namespace campaign
