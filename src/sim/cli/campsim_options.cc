// Option parsing for campsim. Each option takes its value as the next argument or after '='.
#include "cli/campsim_options.h"
#include "plan/short_room_demand.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <type_traits>

namespace campaign::sim
{

std::string PolicyChoice::label() const
{
	return priority + "/" + to_string(backfill);
}

const char *campsim_usage()
{
	return "usage: campsim run WORKLOAD [options]\n"
	       "       campsim rank WORKLOAD --at S [--rank-policy ostrich|faircamp|fifo]\n"
	       "                        [--parameters STR]   order of the jobs pending at S\n"
	       "       campsim replay-plan WORKLOAD --nodes N --node-cpus C --compress F\n"
	       "                        [--cpu-map scale|identity] [--wide drop|clamp]\n"
	       "                        [--user-prefix P] [--out FILE]   the job list a real\n"
	       "                        cluster replays (scripts/replay.py; doc/replay.md)\n"
	       "       campsim reproduce NAME [--instances N] [--out DIR] [--progress]\n"
	       "       campsim help   (or COMMAND --help)\n"
	       "WORKLOAD (one of):\n"
	       "  --swf FILE              Standard Workload Format trace (plain or .gz)\n"
	       "  --jobs FILE             job list, CSV or JSON "
	       "(id,user,submit,cpus,limit[,start,end])\n"
	       "  --sacct FILE            sacct --parsable2 output (needs --cpus; see "
	       "campsim(1)),\n"
	       "                          --anonymise: users named u1, u2, ...\n"
	       "  --generate NAME         ostrich-profiles | faircamp-zipf (--users N --seed S\n"
	       "                          --job-count N)\n"
	       "input: --cpus N  --from S  --to S  --lenient\n"
	       "  --missing-limit S[,M]   a job the log gives no time limit is limited to S\n"
	       "                          seconds (a partition's DefaultTime), one that ran\n"
	       "                          longer to M (MaxTime; max: the log's longest run;\n"
	       "                          default its run); default: its run, known exactly\n"
	       "  --nodes N --node-cpus C the machine as N nodes of C CPUs (instead of --cpus):\n"
	       "                          a job takes any CPUs on any nodes (cons_tres, "
	       "CR_CPU)\n"
	       "policies:\n"
	       "  --policy LIST           comma list of PRIORITY[/BACKFILL]; PRIORITY: fcfs, fifo, "
	       "fifo-blocks,\n"
	       "                          fairshare, fairtree, ostrich, ostrich-strict, faircamp,\n"
	       "                          faircamp-paper; BACKFILL: no_backfill, greedy, easy,\n"
	       "                          conservative, per_campaign (default per_campaign),\n"
	       "                          slurm_backfill (sched/backfill: conservative to\n"
	       "                          --depth, reservations hold their nodes whole)\n"
	       "  --estimate KIND         exact | requested (default) | fmodel | predicted\n"
	       "  --f F                   f-model factor (default 2)\n"
	       "  --estimate-for G        only group G's jobs take --estimate exact or fmodel\n"
	       "                          (the others their limits): light_cpu, heavy_cpu, ...\n"
	       "  --planner-pending KIND  what the planner alone books for pending jobs (the\n"
	       "                          core still counts --estimate): same (default), exact,\n"
	       "                          limit, expected (the core's), predicted (Tsafrir's),\n"
	       "                          similar (Tsafrir's over the user's jobs of the same\n"
	       "                          limit and CPUs), consistent (the longer of those last\n"
	       "                          two runs when within 1.5x, else the limit)\n"
	       "  --planner-running KIND  when it plans started jobs to end: same, exact, limit\n"
	       "  --planner-factor F      the pending guess (not limit) times F, at most the\n"
	       "                          limit (1)\n"
	       "  --planner-pending-for G only group G's pending jobs take --planner-pending:\n"
	       "                          light_cpu, light_jobs, heavy_cpu, not_light_cpu, ...\n"
	       "  --parameters STR        more PriorityParameters for the core policies\n"
	       "  --depth N --horizon S   reservation depth and horizon of the planner\n"
	       "                          (default: core policies 1000 as sched/campaign,\n"
	       "                          baselines 100000; 604800)\n"
	       "  --bf-resolution S       slurm_backfill: reservations held from their start\n"
	       "                          to their end rounded down to multiples of S\n"
	       "                          (bf_resolution; default 0: exact)\n"
	       "  --short-room F --short-limit S --short-room-wide W   part of the CPUs\n"
	       "                          jobs with limits over S leave free for shorter jobs,\n"
	       "                          unless W of the machine wide (default: core policies\n"
	       "                          0.05 as sched/campaign, baselines 0; 3600, 1)\n"
	       "  --short-room-recent S   the room is at most the CPUs of short jobs pending\n"
	       "                          in the last S seconds (default: core policies 21600,\n"
	       "                          baselines 0: fixed room)\n"
	       "  --short-room-demand pending|blocked|fitting   short jobs that size that\n"
	       "                          room: all pending ones, those that could not start,\n"
	       "                          or those of them no wider than the room (default:\n"
	       "                          core policies blocked, baselines pending)\n"
	       "  --short-room-by limit|expected   what tells a job short for that room:\n"
	       "                          its limit, or its run time expected from its\n"
	       "                          user's recent runs (core policies; default limit)\n"
	       "  --local-search N --local-search-ms M   after each plan made afresh, try at\n"
	       "                          most N moves of a local search over it (kept where\n"
	       "                          campaigns' predicted stretch improves), within M ms\n"
	       "                          (default 0: off, 100)\n"
	       "  --freeze-slip S         a reservation whose start slipped more than S\n"
	       "                          seconds past its first is kept there on later\n"
	       "                          plans (campaign_freeze_slip; default 0: off)\n"
	       "  --freeze-wide W         only jobs at least W of the CPUs wide are frozen\n"
	       "                          (campaign_freeze_wide; default 0: any job)\n"
	       "  --freeze-room now|cap   room for short jobs a frozen job leaves: the\n"
	       "                          adaptive room as sized now, or its cap\n"
	       "                          (campaign_freeze_room; default now)\n"
	       "  --freeze-skip-first K   jobs of the first K campaigns in rank order are\n"
	       "                          not frozen (campaign_freeze_skip_first; default 0)\n"
	       "  --dump-plan FROM-TO     print to stderr every plan made FROM..TO seconds\n"
	       "                          after the first submission, as sched/campaign logs\n"
	       "                          it at DebugFlags=BackfillMap (doc/replay.md)\n"
	       "  --calc-period S         core policies rank afresh at most every S simulated\n"
	       "                          seconds and after job ends, as priority/campaign\n"
	       "                          (default 5); 0: at every scheduling pass\n"
	       "  --rank-lag              core policies rank a job from the second after it\n"
	       "                          arrives; in that second it comes after the ranked\n"
	       "                          jobs, in arrival order (sched/campaign's pass at a\n"
	       "                          begin time before priority/campaign ranks it)\n"
	       "  --fs-half-life S --fs-max-age S --fs-calc-period S   the fairshare and\n"
	       "                          fairtree baselines' PriorityDecayHalfLife (0: no "
	       "decay),\n"
	       "                          PriorityMaxAge, PriorityCalcPeriod (default 604800,\n"
	       "                          604800, 300); --fs-calc-phase S: the recalculations at\n"
	       "                          S + k x period (default 0)\n"
	       "  --sched-period S        jobs start only at scheduler passes every S simulated\n"
	       "                          seconds (at ceil(k S); bf_interval, campaign_period);\n"
	       "                          default 0: at every submission and end\n"
	       "  --threshold S | --window S   campaign rule of the scored campaigns (MAX rule)\n"
	       "  --campaigns shared|online   score the campaigns detected once from the log\n"
	       "                          (default) or each policy's own online detection\n"
	       "  --release chains|generation  closed loop: each user's chain from t = 0 "
	       "(default)\n"
	       "                          or campaigns in generation order\n"
	       "  --dependencies          trace replay: a job waits for the jobs of its campaign\n"
	       "                          that ended in the log before its submission\n"
	       "  --load X                trace replay: inter-arrival times scaled so that the\n"
	       "                          offered load (run CPU-seconds over the machine's "
	       "between\n"
	       "                          the first and last submission) is X; campaigns scored\n"
	       "                          as detected on the log\n"
	       "  --split-downtimes S     trace replay: cut at downtimes of S seconds or more (no\n"
	       "                          job running or submitted in the log), each piece alone\n"
	       "reproduce NAME: faircamp-zipf, ostrich-profiles, lpc-egee\n"
	       "  --observed              also score the log's own schedule (row observed/log)\n"
	       "  --tau S                 the metrics' floor tau (bounded slowdown and campaign\n"
	       "                          stretch; default 10; a replay at F x: 10 / F)\n"
	       "output: --out DIR (JSON, CSV, table), --plots (PNG, needs gnuplot), --progress\n"
	       "  --parallel N            simulate N policies at once (threads; default 1)\n";
}

namespace
{

template <typename Number> Result<Number> number(const std::string &option, const std::string &text)
{
	Number value{};
	const char *end = text.data() + text.size();
	auto [stop, error] = std::from_chars(text.data(), end, value);
	if (error != std::errc() || stop != end || text.empty())
		return Error{"option " + option + ": '" + text + "' is not a valid number"};
	return value;
}

Result<std::vector<PolicyChoice>> policy_list(const std::string &text)
{
	std::vector<PolicyChoice> policies;
	size_t from = 0;
	while (from <= text.size()) {
		const size_t comma = std::min(text.find(',', from), text.size());
		const std::string item = text.substr(from, comma - from);
		from = comma + 1;
		PolicyChoice choice;
		const size_t slash = item.find('/');
		choice.priority = item.substr(0, slash);
		bool known = false;
		for (const std::string &name : priority_names())
			known = known || name == choice.priority;
		if (!known)
			return Error{"option --policy: unknown priority '" + choice.priority + "'"};
		if (slash != std::string::npos) {
			auto backfill = plan::backfill_mode_named(item.substr(slash + 1),
			                                          plan::ModeReader::campsim);
			if (!backfill)
				return Error{"option --policy: " + backfill.error()};
			if (!backfill.value().warning.empty())
				std::fprintf(stderr, "campsim: warning: %s\n",
				             backfill.value().warning.c_str());
			choice.backfill = backfill.value().mode;
		}
		policies.push_back(choice);
	}
	return policies;
}

using Setter = std::function<Status(CampsimOptions &, const std::string &, const std::string &)>;

// A whole number from `lowest` up: "-4" and "0" for --cpus get the same error.
template <typename Number, typename Target>
Setter at_least(Target CampsimOptions::*field, int64_t lowest)
{
	return [field, lowest](CampsimOptions &options, const std::string &option,
	                       const std::string &text) {
		auto value = number<int64_t>(option, text);
		if (!value || value.value() < lowest ||
		    static_cast<uint64_t>(value.value()) > std::numeric_limits<Number>::max())
			return Status(Error{"option " + option + ": '" + text +
			                    "' is not a number >= " + std::to_string(lowest)});
		options.*field = static_cast<Number>(value.value());
		return ok_status();
	};
}

template <typename Number, typename Target> Setter numeric(Target CampsimOptions::*field)
{
	return
	    [field](CampsimOptions &options, const std::string &option, const std::string &text) {
		    auto value = number<Number>(option, text);
		    if (!value)
			    return Status(Error{value.error()});
		    options.*field = value.value();
		    return ok_status();
	    };
}

template <typename Number> constexpr Number kMost = std::numeric_limits<Number>::max();
constexpr double kAboveZero = std::numeric_limits<double>::denorm_min(); // an open bound at 0

// `text` as a Number from `lowest` to `highest`; none when it is no such number.
template <typename Number>
std::optional<Number> number_in(const std::string &option, const std::string &text, Number lowest,
                                Number highest)
{
	auto value = number<Number>(option, text);
	if (!value || !(value.value() >= lowest && value.value() <= highest))
		return std::nullopt;
	return value.value();
}

// A Number from `lowest` to `highest` into a field of the options or of their simulation
// options; `what` completes the error "option --x: 'TEXT' is not ...".
template <typename Number, typename Owner, typename Field>
Setter within(Field Owner::*field, Number lowest, Number highest, std::string what)
{
	return [=](CampsimOptions &options, const std::string &option, const std::string &text) {
		auto value = number_in<Number>(option, text, lowest, highest);
		if (!value)
			return Status(
			    Error{"option " + option + ": '" + text + "' is not " + what});
		if constexpr (std::is_same_v<Owner, SimulationOptions>)
			options.simulation.*field = static_cast<Field>(*value);
		else
			options.*field = static_cast<Field>(*value);
		return ok_status();
	};
}

// The longest span in seconds an option takes: 10 years.
constexpr int64_t kLargestSeconds = 10LL * 365 * 86400;

// Simulated seconds from `lowest` up to 10 years, into a SimulationOptions field.
Setter seconds_in(int64_t SimulationOptions::*field, int64_t lowest)
{
	return within<int64_t>(field, lowest, kLargestSeconds,
	                       "seconds in " + std::to_string(lowest) + ".." +
	                           std::to_string(kLargestSeconds));
}

// --missing-limit "S", "S,M" or "S,max": seconds from 1 up to 10 years, M at least S.
Status missing_limit_rule(CampsimOptions &options, const std::string &option,
                          const std::string &text)
{
	MissingLimitRule rule;
	const size_t comma = text.find(',');
	const auto shorter = number_in<int64_t>(option, text.substr(0, comma), 1, kLargestSeconds);
	bool good = shorter.has_value();
	if (good) {
		rule.default_s = *shorter;
		if (comma != std::string::npos) {
			const std::string longer = text.substr(comma + 1);
			rule.longer_is_longest_run = longer == "max";
			const auto longer_s =
			    number_in<int64_t>(option, longer, rule.default_s, kLargestSeconds);
			rule.longer_s = longer_s.value_or(0);
			good = rule.longer_is_longest_run || longer_s;
		}
	}
	if (!good)
		return Error{"option " + option + ": '" + text +
		             "' is not S, S,M or S,max (seconds in 1.." +
		             std::to_string(kLargestSeconds) + ", M at least S)"};
	options.missing_limit = rule;
	return ok_status();
}

// A scoring group (metrics' user_group), or its complement after not_, into an estimate's
// UserSelection.
template <typename Estimate>
Setter user_selection(Estimate SimulationOptions::*estimate, UserSelection Estimate::*users)
{
	return [=](CampsimOptions &options, const std::string &option, const std::string &text) {
		const std::string name = text.starts_with("not_") ? text.substr(4) : text;
		if (name != "light_cpu" && name != "light_jobs" && name != "heavy_cpu")
			return Status(
			    Error{"option " + option + ": '" + text +
			          "': expected light_cpu, light_jobs or heavy_cpu, or one of "
			          "them after not_"});
		options.simulation.*estimate.*users = UserSelection{name, name != text};
		return ok_status();
	};
}

const std::map<std::string, Setter> &setters()
{
	static const std::map<std::string, Setter> table = {
	    {"--swf",
	     [](auto &o, auto &, auto &v) {
		     o.swf_path = v;
		     return ok_status();
	     }},
	    {"--jobs",
	     [](auto &o, auto &, auto &v) {
		     o.jobs_path = v;
		     return ok_status();
	     }},
	    {"--sacct",
	     [](auto &o, auto &, auto &v) {
		     o.sacct_path = v;
		     return ok_status();
	     }},
	    {"--generate",
	     [](auto &o, auto &, auto &v) {
		     o.generator = v;
		     return ok_status();
	     }},
	    {"--users", at_least<uint32_t>(&CampsimOptions::users, 1)},
	    {"--seed", numeric<uint64_t>(&CampsimOptions::seed)},
	    {"--job-count", at_least<uint64_t>(&CampsimOptions::job_count, 1)},
	    {"--cpus", at_least<uint32_t>(&CampsimOptions::machine_cpus, 1)},
	    {"--from", numeric<int64_t>(&CampsimOptions::from_s)},
	    {"--to", numeric<int64_t>(&CampsimOptions::to_s)},
	    {"--missing-limit", missing_limit_rule},
	    {"--instances", numeric<uint32_t>(&CampsimOptions::instances)},
	    {"--at", numeric<int64_t>(&CampsimOptions::at_s)},
	    {"--rank-policy",
	     [](auto &o, auto &option, auto &v) {
		     if (v != "fifo" && v != "ostrich" && v != "faircamp")
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not fifo, ostrich or faircamp"});
		     o.rank_policy = v;
		     return ok_status();
	     }},
	    {"--out",
	     [](auto &o, auto &, auto &v) {
		     o.out_dir = v;
		     return ok_status();
	     }},
	    {"--parameters",
	     [](auto &o, auto &, auto &v) {
		     auto &parameters = o.simulation.core_parameters; // a list: joined
		     parameters += (parameters.empty() ? "" : ",") + v;
		     return ok_status();
	     }},
	    {"--policy",
	     [](auto &o, auto &, auto &v) {
		     auto list = policy_list(v);
		     if (!list)
			     return Status(Error{list.error()});
		     o.policies.insert(o.policies.end(), list.value().begin(), list.value().end());
		     return ok_status();
	     }},
	    {"--nodes", at_least<uint32_t>(&CampsimOptions::replay_nodes, 1)},
	    {"--node-cpus", at_least<uint32_t>(&CampsimOptions::replay_node_cpus, 1)},
	    {"--compress",
	     within<double>(&CampsimOptions::compression, 1, 1e6, "a factor from 1 to 1000000")},
	    {"--cpu-map",
	     [](auto &o, auto &option, auto &v) {
		     if (v != "scale" && v != "identity")
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not scale or identity"});
		     o.cpu_map = v;
		     return ok_status();
	     }},
	    {"--wide",
	     [](auto &o, auto &option, auto &v) {
		     if (v != "drop" && v != "clamp")
			     return Status(
			         Error{"option " + option + ": '" + v + "' is not drop or clamp"});
		     o.wide = v;
		     return ok_status();
	     }},
	    {"--user-prefix",
	     [](auto &o, auto &option, auto &v) {
		     const bool login =
		         !v.empty() && v.size() <= 16 && std::islower(v[0]) &&
		         std::all_of(v.begin(), v.end(), [](char c) {
			         return std::islower(c) || std::isdigit(c) || c == '_';
		         });
		     if (!login)
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not a login prefix ([a-z][a-z0-9_]*, at "
			                         "most 16)"});
		     o.user_prefix = v;
		     return ok_status();
	     }},
	    {"--estimate",
	     [](auto &o, auto &option, auto &v) {
		     auto kind = parse_estimate_kind(v);
		     if (!kind)
			     return Status(Error{"option " + option + ": " + kind.error()});
		     o.simulation.estimate.kind = kind.value();
		     return ok_status();
	     }},
	    {"--f",
	     [](auto &o, auto &option, auto &v) {
		     auto f = number<double>(option, v);
		     if (!f || f.value() < 1)
			     return Status(
			         Error{"option " + option + ": '" + v + "' is not a factor >= 1"});
		     o.simulation.estimate.f = f.value();
		     return ok_status();
	     }},
	    {"--estimate-for", user_selection(&SimulationOptions::estimate, &EstimateOptions::users)},
	    {"--planner-pending",
	     [](auto &o, auto &option, auto &v) {
		     auto kind = parse_planner_estimate(v);
		     if (!kind)
			     return Status(Error{"option " + option + ": " + kind.error()});
		     o.simulation.planner_estimate.pending = kind.value();
		     return ok_status();
	     }},
	    {"--planner-running",
	     [](auto &o, auto &option, auto &v) {
		     auto kind = parse_planner_estimate(v);
		     if (!kind)
			     return Status(Error{"option " + option + ": " + kind.error()});
		     if (kind.value() != PlannerEstimate::same && kind.value() != PlannerEstimate::exact &&
		         kind.value() != PlannerEstimate::limit)
			     return Status(Error{"option " + option + ": '" + v +
			                         "': expected same, exact or limit (a started job's end)"});
		     o.simulation.planner_estimate.running = kind.value();
		     return ok_status();
	     }},
	    {"--planner-factor",
	     [](auto &o, auto &option, auto &v) {
		     auto factor = number<double>(option, v);
		     if (!factor || !(factor.value() > 0 && factor.value() <= 1000))
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not a factor in (0, 1000]"});
		     o.simulation.planner_estimate.factor = factor.value();
		     return ok_status();
	     }},
	    {"--planner-pending-for",
	     user_selection(&SimulationOptions::planner_estimate,
	                    &PlannerEstimateOptions::pending_users)},
	    {"--depth",
	     within<int32_t>(&SimulationOptions::depth, 0, kMost<int32_t>, "a depth >= 0")},
	    {"--parallel",
	     within<int32_t>(&CampsimOptions::parallel, 1, 64,
	                     "a count of policies at once in 1..64")},
	    {"--calc-period",
	     within<int64_t>(&SimulationOptions::calc_period_s, 0, 86400, "seconds in 0..86400")},
	    {"--fs-half-life", seconds_in(&SimulationOptions::fair_share_half_life_s, 0)},
	    {"--fs-max-age", seconds_in(&SimulationOptions::fair_share_max_age_s, 1)},
	    {"--fs-calc-period", seconds_in(&SimulationOptions::fair_share_calc_period_s, 0)},
	    {"--fs-calc-phase", seconds_in(&SimulationOptions::fair_share_calc_phase_s, 0)},
	    {"--sched-period",
	     [](auto &o, auto &option, auto &v) {
		     auto period = number<double>(option, v);
		     if (!period || !(period.value() == 0 || period.value() >= 1) ||
		         period.value() > 86400)
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not seconds, 0 or 1..86400"});
		     o.simulation.sched_period_s = period.value();
		     return ok_status();
	     }},
	    {"--short-room",
	     within<double>(&SimulationOptions::short_room, 0, 0.5,
	                    "a part of the CPUs in 0..0.5")},
	    {"--short-room-wide",
	     within<double>(&SimulationOptions::short_room_wide, 0, 1,
	                    "a part of the CPUs in 0..1")},
	    {"--short-room-recent",
	     within<int64_t>(&SimulationOptions::short_room_recent_s, 0, 31622400,
	                     "seconds in 0..31622400")},
	    {"--short-room-demand",
	     [](auto &o, auto &option, auto &v) {
		     auto demand = plan::short_room_demand_named(v);
		     if (!demand)
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not pending, blocked or fitting"});
		     o.simulation.short_room_demand = demand.value();
		     return ok_status();
	     }},
	    {"--short-room-by",
	     [](auto &o, auto &option, auto &v) {
		     if (v != "limit" && v != "expected")
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not limit or expected"});
		     o.simulation.short_by_expected = v == "expected";
		     return ok_status();
	     }},
	    {"--local-search",
	     within<int64_t>(&SimulationOptions::local_search, 0, 100000,
	                     "a number of moves in 0..100000")},
	    {"--freeze-slip",
	     within<int64_t>(&SimulationOptions::freeze_slip_s, 0, 31622400,
	                     "seconds in 0..31622400")},
	    {"--dump-plan",
	     [](auto &o, auto &option, auto &v) {
		     const size_t dash = v.find('-', 1);
		     auto from = number<int64_t>(option, v.substr(0, dash));
		     auto to = dash == std::string::npos ? from
		                                         : number<int64_t>(option, v.substr(dash + 1));
		     if (!from || !to || from.value() < 0 || to.value() < from.value())
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not seconds FROM-TO, 0 <= FROM <= TO"});
		     o.simulation.dump_plan.from_s = from.value();
		     o.simulation.dump_plan.to_s = to.value();
		     return ok_status();
	     }},
	    {"--freeze-room",
	     [](auto &o, auto &option, auto &v) {
		     if (v != "now" && v != "cap")
			     return Status(Error{"option " + option + ": '" + v + "' is not now or cap"});
		     o.simulation.freeze_keeps_room = v == "cap";
		     return ok_status();
	     }},
	    {"--freeze-skip-first",
	     within<int32_t>(&SimulationOptions::freeze_skip_first, 0, kMost<int32_t>,
	                     "a number of campaigns >= 0")},
	    {"--freeze-wide",
	     within<double>(&SimulationOptions::freeze_wide, 0, 1, "a part of the CPUs in 0..1")},
	    {"--local-search-ms",
	     within<int64_t>(&SimulationOptions::local_search_ms, 1, 60000,
	                     "milliseconds in 1..60000")},
	    {"--short-limit",
	     within<int64_t>(&SimulationOptions::short_limit_s, 1, kMost<int64_t>, "seconds > 0")},
	    {"--tau",
	     within<double>(&CampsimOptions::tau_s, kAboveZero, 86400, "seconds in (0, 86400]")},
	    {"--bf-resolution",
	     within<int64_t>(&SimulationOptions::bf_resolution_s, 0, 3600,
	                     "seconds in [0, 3600] (bf_resolution)")},
	    {"--horizon",
	     within<int64_t>(&SimulationOptions::horizon_s, 1, kMost<int64_t>, "a horizon > 0")},
	    {"--threshold",
	     [](auto &o, auto &option, auto &v) {
		     auto threshold = number<int64_t>(option, v);
		     if (!threshold || threshold.value() < 0)
			     return Status(
			         Error{"option " + option + ": '" + v + "' is not seconds >= 0"});
		     o.simulation.scoring_rule.kind = DetectionRule::Kind::Threshold;
		     o.simulation.scoring_rule.threshold_s = threshold.value();
		     return ok_status();
	     }},
	    {"--release",
	     [](auto &o, auto &option, auto &v) {
		     if (v != "chains" && v != "generation")
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not chains or generation"});
		     o.simulation.release_in_generation_order = v == "generation";
		     return ok_status();
	     }},
	    {"--campaigns",
	     [](auto &o, auto &option, auto &v) {
		     if (v != "shared" && v != "online")
			     return Status(Error{"option " + option + ": '" + v +
			                         "' is not shared or online"});
		     o.simulation.online_campaigns = v == "online";
		     return ok_status();
	     }},
	    {"--load",
	     within<double>(&CampsimOptions::load, kAboveZero, 100, "an offered load in (0, 100]")},
	    {"--split-downtimes",
	     within<int64_t>(&SimulationOptions::downtime_gap_s, 1, kMost<int64_t>, "seconds > 0")},
	    {"--window",
	     [](auto &o, auto &option, auto &v) {
		     auto window = number<int64_t>(option, v);
		     if (!window || window.value() < 0)
			     return Status(
			         Error{"option " + option + ": '" + v + "' is not seconds >= 0"});
		     o.simulation.scoring_rule.kind = DetectionRule::Kind::Window;
		     o.simulation.scoring_rule.window_s = window.value();
		     return ok_status();
	     }},
	};
	return table;
}

const std::map<std::string, bool CampsimOptions::*> &flags()
{
	static const std::map<std::string, bool CampsimOptions::*> table = {
	    {"--lenient", &CampsimOptions::lenient},
	    {"--anonymise", &CampsimOptions::anonymise},
	    {"--anonymize", &CampsimOptions::anonymise},
	    {"--dependencies", &CampsimOptions::dependencies},
	    {"--rank-lag", &CampsimOptions::rank_lag},
	    {"--plots", &CampsimOptions::plots},
	    {"--progress", &CampsimOptions::progress},
	    {"--observed", &CampsimOptions::observed},
	};
	return table;
}

// Whether `command` uses `option`; `run` uses every option but rank's and reproduce's own.
bool command_uses(const std::string &command, const std::string &option)
{
	static const std::set<std::string> workload = {
	    "--swf",      "--jobs",  "--sacct",   "--anonymise",    "--anonymize",
	    "--generate", "--users", "--seed",    "--job-count",    "--cpus",
	    "--from",     "--to",    "--lenient", "--missing-limit"};
	if (command == "rank")
		return workload.count(option) || option == "--at" || option == "--rank-policy" ||
		       option == "--parameters";
	static const std::set<std::string> replay = {"--nodes",   "--node-cpus", "--compress",
	                                             "--cpu-map", "--wide",      "--user-prefix"};
	if (command == "replay-plan")
		return workload.count(option) || replay.count(option) || option == "--out";
	if (option == "--nodes" || option == "--node-cpus")
		return command == "run"; // run: the machine as nodes
	if (replay.count(option))
		return false;
	if (command == "reproduce")
		return option == "--instances" || option == "--out" || option == "--progress" ||
		       option == "--swf";
	return option != "--at" && option != "--rank-policy" && option != "--instances";
}

// "rank does not use --policy (its policy is --rank-policy)".
Error unused_option(const std::string &command, const std::string &option)
{
	std::string hint;
	if (command == "rank" && option == "--policy")
		hint = " (its policy is --rank-policy)";
	else if (command == "rank" && (option == "--threshold" || option == "--window"))
		hint = " (its campaign rule is in --parameters: rule, threshold_s, window_s)";
	else if (command == "run" && option == "--rank-policy")
		hint = " (its policies are --policy)";
	return Error{command + " does not use " + option + hint};
}

// An option given twice is an error, except the lists --policy and --parameters (joined).
Status check_repeat(std::set<std::string> &given, const std::string &option)
{
	if (given.insert(option).second || option == "--policy" || option == "--parameters")
		return ok_status();
	return Error{"option " + option + " given twice"};
}

// After all options: the choices that exclude each other.
Status check_combinations(const CampsimOptions &options, const std::set<std::string> &given)
{
	if (given.count("--threshold") && given.count("--window"))
		return Error{
		    "options --threshold and --window: give --threshold or --window, not both"};
	if (given.count("--load") &&
	    (given.count("--dependencies") || given.count("--split-downtimes")))
		return Error{"option --load: not with --dependencies or --split-downtimes, which "
		             "replay the log's own times"};
	if ((given.count("--anonymise") || given.count("--anonymize")) && !given.count("--sacct"))
		return Error{
		    "option --anonymise: only with --sacct (the other inputs carry numbers "
		    "or names as given)"};
	const EstimateKind estimate = options.simulation.estimate.kind;
	if (given.count("--estimate-for") && estimate != EstimateKind::exact &&
	    estimate != EstimateKind::fmodel)
		return Error{
		    "option --estimate-for: only with --estimate exact or fmodel (it picks "
		    "whose jobs take it; the others keep their limits)"};
	const PlannerEstimate pending = options.simulation.planner_estimate.pending;
	if (given.count("--planner-factor") &&
	    (pending == PlannerEstimate::same || pending == PlannerEstimate::limit))
		return Error{
		    "option --planner-factor: only with --planner-pending exact, "
		    "expected, predicted, similar or consistent (it scales their guesses)"};
	if (given.count("--planner-pending-for") && pending == PlannerEstimate::same)
		return Error{
		    "option --planner-pending-for: only with --planner-pending (it picks whose "
		    "pending jobs take it)"};
	if (options.from_s && options.to_s && *options.from_s >= *options.to_s)
		return Error{"options --from and --to: --from (" + std::to_string(*options.from_s) +
		             ") is not before --to (" + std::to_string(*options.to_s) +
		             "): the window [from, to) would be empty"};
	return ok_status();
}

// run --nodes N --node-cpus C: the machine is N x C CPUs, placed per node (both or neither;
// not with --cpus, which is the one-pool machine).
Status machine_as_nodes(CampsimOptions &options, const std::set<std::string> &given)
{
	const bool nodes = given.count("--nodes"), node_cpus = given.count("--node-cpus");
	if (!nodes && !node_cpus)
		return ok_status();
	if (!nodes || !node_cpus)
		return Error{std::string("option ") + (nodes ? "--nodes" : "--node-cpus") +
		             ": give --nodes N and --node-cpus C together (the machine as N "
		             "nodes of C CPUs)"};
	if (given.count("--cpus"))
		return Error{"option --cpus: not with --nodes and --node-cpus, which give the "
		             "machine's CPUs (N x C)"};
	const uint64_t cpus =
	    static_cast<uint64_t>(options.replay_nodes) * options.replay_node_cpus;
	if (cpus > 100000000)
		return Error{"options --nodes and --node-cpus: " + std::to_string(cpus) +
		             " CPUs in all (at most 100000000)"};
	options.machine_cpus = static_cast<uint32_t>(cpus);
	options.simulation.nodes = options.replay_nodes;
	options.simulation.node_cpus = options.replay_node_cpus;
	return ok_status();
}

Status check_workload_choice(const CampsimOptions &options)
{
	const int given = !options.swf_path.empty() + !options.jobs_path.empty() +
	                  !options.sacct_path.empty() + !options.generator.empty();
	if (given != 1)
		return Error{options.command +
		             ": give exactly one workload: --swf FILE, --jobs FILE, "
		             "--sacct FILE or --generate NAME"};
	if (!options.generator.empty() && options.generator != "ostrich-profiles" &&
	    options.generator != "faircamp-zipf")
		return Error{"option --generate: unknown generator '" + options.generator +
		             "' (ostrich-profiles, faircamp-zipf)"};
	if (!options.generator.empty() && options.missing_limit)
		return Error{"option --missing-limit: only with a log (--swf, --jobs, --sacct): a "
		             "generated workload gives every job a limit"};
	return ok_status();
}

} // namespace

Result<CampsimOptions> parse_campsim_options(const std::vector<std::string> &arguments)
{
	CampsimOptions options;
	if (arguments.empty())
		return Error{"no command given"};
	options.command = arguments[0];
	options.arguments = arguments;
	size_t next = 1;
	const auto asks_help = [](const std::string &word) {
		return word == "--help" || word == "-h";
	};
	if (options.command == "help" ||
	    std::any_of(arguments.begin(), arguments.end(), asks_help)) {
		options.command = "help";
		return options;
	}
	if (options.command == "reproduce") {
		if (arguments.size() < 2 || arguments[1].starts_with("--"))
			return Error{
			    "reproduce: name an experiment (faircamp-zipf, ostrich-profiles, "
			    "lpc-egee)"};
		options.experiment = arguments[1];
		next = 2;
	} else if (options.command != "run" && options.command != "rank" &&
	           options.command != "replay-plan") {
		return Error{"unknown command '" + options.command +
		             "' (run, rank, replay-plan, reproduce, help)"};
	}
	std::set<std::string> given;
	for (size_t i = next; i < arguments.size(); ++i) {
		std::string option = arguments[i], value;
		const size_t equals = option.find('=');
		const bool inline_value = equals != std::string::npos;
		if (inline_value) {
			value = option.substr(equals + 1);
			option = option.substr(0, equals);
		}
		const bool known = flags().count(option) || setters().count(option);
		if (known && !command_uses(options.command, option))
			return unused_option(options.command, option);
		if (Status once = check_repeat(given, option); known && !once)
			return Error{once.error()};
		if (auto flag = flags().find(option); flag != flags().end() && !inline_value) {
			options.*(flag->second) = true;
			continue;
		}
		auto setter = setters().find(option);
		if (setter == setters().end())
			return Error{"unknown option '" + option + "'"};
		if (!inline_value) {
			if (i + 1 == arguments.size())
				return Error{"option " + option + " needs a value"};
			value = arguments[++i];
		}
		if (Status set = setter->second(options, option, value); !set)
			return Error{set.error()};
	}
	if (Status combined = check_combinations(options, given); !combined)
		return Error{combined.error()};
	options.simulation.dependencies = options.dependencies;
	options.simulation.rank_lag = options.rank_lag;
	if (options.command == "replay-plan") {
		if (Status checked = check_workload_choice(options); !checked)
			return Error{checked.error()};
		for (const char *needed : {"--nodes", "--node-cpus", "--compress"})
			if (!given.count(needed))
				return Error{std::string("replay-plan: give ") + needed};
	}
	if (options.command == "run")
		if (Status nodes = machine_as_nodes(options, given); !nodes)
			return Error{nodes.error()};
	if (options.command == "run" || options.command == "rank") {
		if (Status checked = check_workload_choice(options); !checked)
			return Error{checked.error()};
		if (options.policies.empty())
			options.policies = {{"fifo", BackfillKind::easy},
			                    {"fairshare", BackfillKind::easy},
			                    {"ostrich", BackfillKind::per_campaign},
			                    {"faircamp", BackfillKind::per_campaign}};
	}
	return options;
}

} // namespace campaign::sim
