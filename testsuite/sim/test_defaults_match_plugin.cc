// The plugins and campsim run the same default (issue 12): sched/campaign's SchedulerParameters
// with nothing set give the planner configuration campsim plans a core policy with when no
// planner option is given, and priority/campaign's calc_period is campsim's. A fair-share
// baseline (sched/backfill) keeps no room for short jobs. Fails if either side's default moves
// alone.
#include "check_main.h"
#include "config/scheduler_parameters.h"
#include "engine/simulation.h"
#include "runtime/priority_plugin_parameters.h"

using namespace campaign;
using namespace campaign::sim;

namespace
{

plan::PlannerConfig plugin_default()
{
	auto values = scheduler_parameter_schema().parse("");
	ck_assert_msg(values.ok(), "%s", values.ok() ? "" : values.error().c_str());
	auto config = scheduler_plan_config(values.value());
	ck_assert(config.ok());
	return config.value().planner;
}

void check_same(const plan::PlannerConfig &plugin, const plan::PlannerConfig &campsim)
{
	ck_assert_int_eq(plugin.depth, campsim.depth);
	ck_assert_int_eq(plugin.horizon_s, campsim.horizon_s);
	ck_assert_double_eq(plugin.short_room, campsim.short_room);
	ck_assert_int_eq(plugin.short_limit_s, campsim.short_limit_s);
	ck_assert_double_eq(plugin.short_room_wide, campsim.short_room_wide);
	ck_assert_int_eq(plugin.short_room_recent_s, campsim.short_room_recent_s);
	ck_assert(plugin.short_room_demand == campsim.short_room_demand);
	ck_assert(plugin.short_by_expected == campsim.short_by_expected);
	ck_assert_int_eq(plugin.whole_node_reservations, campsim.whole_node_reservations);
	ck_assert_int_eq(plugin.local_search_iterations, campsim.local_search_iterations);
	ck_assert_int_eq(plugin.local_search_ms, campsim.local_search_ms);
	ck_assert_int_eq(plugin.freeze_slip_s, campsim.freeze_slip_s);
	ck_assert_double_eq(plugin.freeze_wide, campsim.freeze_wide);
	ck_assert_int_eq(plugin.freeze_keeps_room, campsim.freeze_keeps_room);
	ck_assert_int_eq(plugin.freeze_skip_first, campsim.freeze_skip_first);
}

} // namespace

START_TEST(test_core_policies_plan_with_sched_campaign_defaults)
{
	for (const char *priority : {"ostrich", "faircamp", "fifo", "ostrich-strict"}) {
		SimulationOptions options;
		options.priority = priority;
		check_same(plugin_default(), planner_config(options));
	}
}
END_TEST

// The default is the room for short jobs sized by blocked demand (doc/fairness-results.md);
// the comparison above would also pass with the room off on both sides.
START_TEST(test_default_keeps_a_room_for_blocked_short_jobs)
{
	const plan::PlannerConfig plugin = plugin_default();
	ck_assert(plugin.short_room > 0);
	ck_assert(plugin.short_room_recent_s > 0);
	ck_assert(plugin.short_room_demand == plan::ShortRoomDemand::blocked);
}
END_TEST

START_TEST(test_baselines_keep_no_room)
{
	for (const char *priority : {"fairshare", "fairtree", "fcfs"}) {
		SimulationOptions options;
		options.priority = priority;
		ck_assert_double_eq(planner_config(options).short_room, 0);
	}
	SimulationOptions given;
	given.priority = "fairtree";
	given.short_room = 0.1;
	ck_assert_double_eq(planner_config(given).short_room, 0.1);
}
END_TEST

START_TEST(test_calc_period_is_the_plugins)
{
	auto values = plugin_parameter_schema().parse("");
	ck_assert(values.ok());
	ck_assert_int_eq(values.value().integer("calc_period"), SimulationOptions{}.calc_period_s);
}
END_TEST

int main()
{
	Suite *suite = suite_create("defaults_match_plugin");
	TCase *tc = tcase_create("defaults");
	tcase_add_test(tc, test_core_policies_plan_with_sched_campaign_defaults);
	tcase_add_test(tc, test_default_keeps_a_room_for_blocked_short_jobs);
	tcase_add_test(tc, test_baselines_keep_no_room);
	tcase_add_test(tc, test_calc_period_is_the_plugins);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
