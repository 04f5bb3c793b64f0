// The backfill mode table: one name, one mode, in sched/campaign and campsim; unknown names are
// errors in both; the first release's "none" keeps its meaning in each, with a warning.
#include "check_main.h"
#include "config/scheduler_parameters.h"
#include "plan/backfill_modes.h"

using namespace campaign;
using namespace campaign::plan;

namespace
{

SchedulerPlanConfig plugin_config(const std::string &text)
{
	auto values = scheduler_parameter_schema().parse(text);
	ck_assert_msg(values.ok(), "%s", values.ok() ? "" : values.error().c_str());
	auto config = scheduler_plan_config(values.value());
	ck_assert_msg(config.ok(), "%s", config.ok() ? "" : config.error().c_str());
	return config.value();
}

} // namespace

START_TEST(test_backfill_names_mean_one_mode_for_both_readers)
{
	for (const BackfillMode mode : {BackfillMode::greedy, BackfillMode::easy,
	                                BackfillMode::conservative, BackfillMode::per_campaign}) {
		for (const ModeReader reader : {ModeReader::sched_campaign, ModeReader::campsim}) {
			auto named = backfill_mode_named(to_string(mode), reader);
			ck_assert_msg(named.ok(), "%s", to_string(mode));
			ck_assert(named.value().mode == mode);
			ck_assert(named.value().warning.empty());
		}
		const SchedulerPlanConfig config =
		    plugin_config(std::string("campaign_mode=") + to_string(mode));
		ck_assert(config.planner.mode == *reservation_mode_of(mode));
		ck_assert(config.warning.empty());
	}
	ck_assert(reservation_mode_of(BackfillMode::greedy) == ReservationMode::greedy);
	ck_assert(!reservation_mode_of(BackfillMode::no_backfill).has_value());
	auto list = backfill_mode_named("no_backfill", ModeReader::campsim);
	ck_assert(list.ok() && list.value().mode == BackfillMode::no_backfill);
}
END_TEST

START_TEST(test_unknown_backfill_names_are_errors_everywhere)
{
	for (const ModeReader reader : {ModeReader::sched_campaign, ModeReader::campsim}) {
		auto unknown = backfill_mode_named("conservativ", reader);
		ck_assert(!unknown.ok());
		ck_assert(unknown.error().find("'conservativ'") != std::string::npos);
	}
	// no_backfill is campsim's baseline: sched/campaign refuses it, as its schema does.
	ck_assert(!backfill_mode_named("no_backfill", ModeReader::sched_campaign).ok());
	auto refused = scheduler_parameter_schema().parse("campaign_mode=no_backfill");
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("campaign_mode") != std::string::npos);
	ck_assert(!scheduler_parameter_schema().parse("campaign_mode=bogus").ok());
}
END_TEST

// slurm.conf files say campaign_mode=none (greedy); campsim command lines say x/none (no
// backfill): both still work as they did, with a warning naming the new name.
START_TEST(test_old_name_none_keeps_its_meaning_with_a_warning)
{
	const SchedulerPlanConfig plugin = plugin_config("campaign_mode=none");
	ck_assert(plugin.planner.mode == ReservationMode::greedy);
	ck_assert(plugin.warning.find("greedy") != std::string::npos);
	auto sim = backfill_mode_named("none", ModeReader::campsim);
	ck_assert(sim.ok());
	ck_assert(sim.value().mode == BackfillMode::no_backfill);
	ck_assert(sim.value().warning.find("no_backfill") != std::string::npos);
	const std::vector<std::string> names = backfill_mode_names(ModeReader::sched_campaign);
	ck_assert_string_eq(names.back(), "none");
	ck_assert(std::find(names.begin(), names.end(), "no_backfill") == names.end());
}
END_TEST

int main()
{
	Suite *suite = suite_create("backfill_modes");
	TCase *tc = tcase_create("names");
	tcase_add_test(tc, test_backfill_names_mean_one_mode_for_both_readers);
	tcase_add_test(tc, test_unknown_backfill_names_are_errors_everywhere);
	tcase_add_test(tc, test_old_name_none_keeps_its_meaning_with_a_warning);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
