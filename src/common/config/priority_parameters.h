// The core's PriorityParameters keys (those that change what the policy means): their schema and
// the typed configuration the core reads from them. No Slurm types, no plugin-only keys.
#pragma once

#include "campaign/campaign_detector.h"
#include "model/job.h"
#include "policy/faircamp_deadlines.h"
#include "util/parameters.h"

#include <cstdint>
#include <string>

namespace campaign
{

// The core's PriorityParameters keys. The plugin's own keys (calc_period, shadow, the scampaign
// channel) are in runtime/priority_plugin_parameters.h; they are not part of the core's identity.
ParameterSchema core_parameter_schema();

enum class PolicyKind : uint8_t { Fifo, Ostrich, FairCamp };
enum class IntraOrder : uint8_t { Lpt, Spt, Fifo };

struct CoreConfig {
	PolicyKind policy = PolicyKind::Ostrich;
	DetectionRule rule;
	bool unit_is_account = false;   // unit=account
	bool domain_is_cluster = false; // domain=cluster
	bool strict = false;            // mode=strict
	// queued_campaigns=last: in work_conserving mode a campaign queued in V behind its unit's
	// earlier one ranks after every started campaign; by_completion: by its projected C~
	bool queued_last = true;
	IntraOrder intra = IntraOrder::Lpt;
	bool weighted_shares = false; // shares=weighted: set_unit_weight() values count
	bool resizing = false;
	uint32_t faircamp_k = 0; // 0: active units when the campaign opens
	FairCampDeadlines::Mode faircamp_mode = FairCampDeadlines::Mode::Anchored;
	int64_t limit_cap_s = kDefaultLimitCapS;
	int64_t usage_halflife_s = 0; // 0: shares do not depend on past usage
	double usage_weight = 1;
	bool recent_work_estimate = true; // work_estimate=recent: RuntimePredictor, not the limit
	// The least run time a prediction counts (a limit below it still caps): a minute, Slurm's
	// smallest limit, or down to 1 s (10 s: tau of bounded stretch)
	int64_t work_estimate_floor_s = 60;
	// work_estimate=recent counts a prediction only for users whose recent runs used less than
	// this part of their limits (1: always); the others count their limits
	double work_estimate_below = 0.1;
	enum class Overdue : uint8_t { Keep, Clamp, Share };
	// OStrich key of a campaign late in V (overdue=), and how fast a postponed campaign's bound
	// moves later (overdue_slide): share, 0.8 by default (doc/fairness-results.md, "A held-out
	// log: NASA-iPSC")
	Overdue overdue = Overdue::Share;
	double overdue_slide = 0.8;
	// overdue_grace: the bound set when a campaign is first postponed is its C~ plus this many
	// times its own time in V (C~ - s~); 1 by default
	double overdue_grace = 1;
	// reopened=next: a campaign V has finished that is given more work (a job joins it, or its
	// pending jobs' estimates rose) is served next in V, after the campaign V serves for its
	// user; last (default): behind the user's newer campaigns
	bool reopened_next = false;
	// overdue_pace: a postponed campaign's bound also moves later by the work of each job it
	// starts over the partition's CPUs or its share of them, so once the bound passes its jobs
	// still interleave with newer campaigns' (whole-machine jobs back to back kept light users
	// out for hours)
	enum class OverduePace : uint8_t { None, Partition, Share };
	OverduePace overdue_pace = OverduePace::Share;
	// starve_after_s: a campaign whose oldest pending job has been eligible this long ranks
	// ahead of every other, oldest first (0: off)
	int64_t starve_after_s = 0;
	uint32_t starve_campaigns = 1; // at most this many starved campaigns (jobs) rank first
	bool starve_jobs = false;      // starve_scope=job: the starved jobs, not their campaigns
	// starve_fair_factor: an OStrich pending job that has waited more than this many times its
	// campaign's fair flow time (C~ less the campaign's start, at least starve_fair_floor_s)
	// ranks first, as a job, at most starve_campaigns of them (0: off)
	double starve_fair_factor = 0;
	int64_t starve_fair_floor_s = 10;
	double starve_fair_width = 1; // only jobs at most this fraction of their partition's CPUs
	// starve_stretch: a pending job whose stretch so far (1 + wait over its expected run, at
	// least 10 s) is at least this ranks first, as a job, at most starve_campaigns (0: off);
	// starve_stretch_scale=queue_median: this many times the pending jobs' median stretch
	double starve_stretch = 0;
	bool starve_stretch_of_median = false;
	// Some key moves single jobs in the ranked list (campsim's walk over the order index would
	// not see them).
	bool moves_jobs() const
	{
		return (starve_after_s > 0 && starve_jobs) || starve_fair_factor > 0 ||
		       starve_stretch > 0;
	}
	std::string text; // the core keys as given back by core_identity(), for save()
};

// The core keys of `values`, "k=v,..." sorted: two configurations rank alike iff these are equal
// (a saved state is restored, a reconfigure keeps the state).
std::string core_identity(const ParameterValues &values);

// Reads the core keys; `values` may hold other keys too (the plugin's), which are ignored. An
// error names a core key that `values` does not hold.
Result<CoreConfig> core_config_from(const ParameterValues &values);

// Core keys of a parameter text saved in a state file: drops the plugin-only keys that the first
// release saved with them (calc_period, query_port, query_address, shadow).
std::string saved_core_parameters(std::string_view saved_text);

} // namespace campaign
