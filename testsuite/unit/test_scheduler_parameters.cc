// Our SchedulerParameters keys never contain a Slurm keyword (Slurm matches substrings), and
// the schema parses the strings sites actually write.
#include "check_main.h"
#include "config/scheduler_parameters.h"

#include <cctype>
#include <fstream>
#include <string>
#include <vector>

using namespace campaign;

namespace
{

// One list per Slurm release we build for (each release adds keywords: 24.11 defer_batch,
// time_min_as_soft_limit, bf_topopt_*; 26.05 bf_yield_rpc_*).
const char *const kKeywordLists[] = {"slurm_sched_keywords.txt", "slurm_sched_keywords-24.11.5.txt",
                                     "slurm_sched_keywords-26.05.3.txt"};

std::vector<std::string> slurm_keywords(const char *list)
{
	std::ifstream in(std::string(SRCDIR) + "/" + list);
	std::vector<std::string> words;
	std::string line;
	while (std::getline(in, line))
		if (!line.empty() && line[0] != '#') {
			// Slurm matches without case (xstrcasestr); our keys are lower case.
			for (char &c : line)
				c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
			words.push_back(line);
		}
	return words;
}

} // namespace

START_TEST(test_keyword_list_is_read)
{
	// Each list must be there, or the next test would pass vacuously.
	for (const char *list : kKeywordLists)
		ck_assert_msg(slurm_keywords(list).size() >= 70, "%s: fewer than 70 keywords",
		              list);
}
END_TEST

START_TEST(test_no_key_contains_a_slurm_keyword)
{
	const ParameterSchema schema = scheduler_parameter_schema();
	for (const auto &spec : schema.specs()) {
		ck_assert_msg(spec.key.rfind("campaign_", 0) == 0, "%s lacks the prefix",
		              spec.key.c_str());
		for (const char *list : kKeywordLists)
			for (const auto &word : slurm_keywords(list))
				ck_assert_msg(spec.key.find(word) == std::string::npos,
				              "our key %s contains Slurm's keyword %s (%s)",
				              spec.key.c_str(), word.c_str(), list);
	}
}
END_TEST

START_TEST(test_schema_parses_a_site_string)
{
	auto parsed = scheduler_parameter_schema().parse(
	    "sched_interval=-1,defer,bf_window=120,campaign_period=2");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	ck_assert_int_eq(parsed.value().integer("campaign_period"), 2);
	ck_assert(!scheduler_parameter_schema().parse("campaign_period=0").ok());
}
END_TEST

// The pass's rate limit: 250 ms by default; too short, too long or not a number is refused,
// naming the key.
START_TEST(test_min_gap_has_a_default_and_refuses_bad_values)
{
	auto defaults = scheduler_parameter_schema().parse("");
	ck_assert_int_eq(defaults.value().integer("campaign_min_gap_ms"), 250);
	auto parsed =
	    scheduler_parameter_schema().parse("campaign_period=60,campaign_min_gap_ms=50");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	ck_assert_int_eq(parsed.value().integer("campaign_min_gap_ms"), 50);
	for (const char *bad : {"campaign_min_gap_ms=49", "campaign_min_gap_ms=60001",
	                        "campaign_min_gap_ms=0", "campaign_min_gap_ms=soon"}) {
		auto refused = scheduler_parameter_schema().parse(bad);
		ck_assert_msg(!refused.ok(), "%s accepted", bad);
		ck_assert_msg(refused.error().find("campaign_min_gap_ms") != std::string::npos,
		              "%s: %s", bad, refused.error().c_str());
	}
}
END_TEST

START_TEST(test_whole_node_reservations_key_reaches_the_planner)
{
	auto defaults = scheduler_plan_config(scheduler_parameter_schema().parse("").value());
	ck_assert(!defaults.value().planner.whole_node_reservations);
	auto parsed = scheduler_parameter_schema().parse("campaign_whole_node_reservations=yes");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	ck_assert(scheduler_plan_config(parsed.value()).value().planner.whole_node_reservations);
	auto bad = scheduler_parameter_schema().parse("campaign_whole_node_reservations=maybe");
	ck_assert(!bad.ok());
	ck_assert(bad.error().find("campaign_whole_node_reservations") != std::string::npos);
}
END_TEST

START_TEST(test_short_room_keys_reach_the_planner)
{
	auto parsed = scheduler_parameter_schema().parse(
	    "campaign_short_room=0.1,campaign_short_limit=900,campaign_short_room_wide=0.25,"
	    "campaign_short_room_recent=3600,campaign_short_room_demand=pending");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	auto config = scheduler_plan_config(parsed.value());
	ck_assert(config.ok());
	ck_assert(config.value().planner.short_room == 0.1);
	ck_assert_int_eq(config.value().planner.short_limit_s, 900);
	ck_assert(config.value().planner.short_room_wide == 0.25);
	ck_assert_int_eq(config.value().planner.short_room_recent_s, 3600);
	ck_assert(config.value().planner.short_room_demand == plan::ShortRoomDemand::pending);
	// The default (issue 12): 5 % kept for 6 h after short jobs could not start.
	auto defaults = scheduler_plan_config(scheduler_parameter_schema().parse("").value());
	ck_assert(defaults.value().planner.short_room == 0.05);
	ck_assert_int_eq(defaults.value().planner.short_room_recent_s, 21600);
	ck_assert(defaults.value().planner.short_room_demand == plan::ShortRoomDemand::blocked);
	auto fitting = scheduler_plan_config(
	    scheduler_parameter_schema().parse("campaign_short_room_demand=fitting").value());
	ck_assert(fitting.value().planner.short_room_demand == plan::ShortRoomDemand::fitting);
	auto off = scheduler_plan_config(
	    scheduler_parameter_schema().parse("campaign_short_room=0").value());
	ck_assert(off.value().planner.short_room == 0);
	ck_assert(!defaults.value().planner.short_by_expected);
	auto expected = scheduler_plan_config(
	    scheduler_parameter_schema().parse("campaign_short_room_by=expected").value());
	ck_assert(expected.value().planner.short_by_expected);
	auto unknown_by = scheduler_parameter_schema().parse("campaign_short_room_by=runtime");
	ck_assert(!unknown_by.ok());
	ck_assert(unknown_by.error().find("campaign_short_room_by") != std::string::npos);
	auto unknown_demand = scheduler_parameter_schema().parse("campaign_short_room_demand=all");
	ck_assert(!unknown_demand.ok());
	ck_assert(unknown_demand.error().find("campaign_short_room_demand") != std::string::npos);
	auto negative = scheduler_parameter_schema().parse("campaign_short_room_recent=-1");
	ck_assert(!negative.ok());
	ck_assert(negative.error().find("campaign_short_room_recent") != std::string::npos);
	auto too_much = scheduler_parameter_schema().parse("campaign_short_room=0.6");
	ck_assert(!too_much.ok());
	ck_assert(too_much.error().find("campaign_short_room") != std::string::npos);
}
END_TEST

START_TEST(test_local_search_keys_reach_the_planner)
{
	auto parsed = scheduler_parameter_schema().parse(
	    "campaign_local_search=8,campaign_local_search_ms=40");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	auto config = scheduler_plan_config(parsed.value());
	ck_assert(config.ok());
	ck_assert_int_eq(config.value().planner.local_search_iterations, 8);
	ck_assert_int_eq(config.value().planner.local_search_ms, 40);
	auto defaults = scheduler_plan_config(scheduler_parameter_schema().parse("").value());
	ck_assert_int_eq(defaults.value().planner.local_search_iterations, 0);
	ck_assert_int_eq(defaults.value().planner.local_search_ms, 100);
	auto negative = scheduler_parameter_schema().parse("campaign_local_search=-1");
	ck_assert(!negative.ok());
	ck_assert(negative.error().find("campaign_local_search") != std::string::npos);
	auto no_time = scheduler_parameter_schema().parse("campaign_local_search_ms=0");
	ck_assert(!no_time.ok());
	ck_assert(no_time.error().find("campaign_local_search_ms") != std::string::npos);
}
END_TEST

START_TEST(test_freeze_slip_key_reaches_the_planner)
{
	auto parsed = scheduler_parameter_schema().parse("campaign_freeze_slip=86400");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	auto config = scheduler_plan_config(parsed.value());
	ck_assert(config.ok());
	ck_assert_int_eq(config.value().planner.freeze_slip_s, 86400);
	auto defaults = scheduler_plan_config(scheduler_parameter_schema().parse("").value());
	ck_assert_int_eq(defaults.value().planner.freeze_slip_s, 0); // off by default
	ck_assert_double_eq(defaults.value().planner.freeze_wide, 0);
	auto wide = scheduler_parameter_schema().parse("campaign_freeze_wide=0.33");
	ck_assert(wide.ok());
	ck_assert_double_eq(scheduler_plan_config(wide.value()).value().planner.freeze_wide, 0.33);
	ck_assert(!defaults.value().planner.freeze_keeps_room);
	ck_assert_int_eq(defaults.value().planner.freeze_skip_first, 0);
	auto variants = scheduler_parameter_schema().parse(
	    "campaign_freeze_room=cap,campaign_freeze_skip_first=3");
	ck_assert_msg(variants.ok(), "%s", variants.ok() ? "" : variants.error().c_str());
	ck_assert(scheduler_plan_config(variants.value()).value().planner.freeze_keeps_room);
	ck_assert_int_eq(scheduler_plan_config(variants.value()).value().planner.freeze_skip_first,
	                 3);
	ck_assert(!scheduler_parameter_schema().parse("campaign_freeze_room=always").ok());
	ck_assert(!scheduler_parameter_schema().parse("campaign_freeze_skip_first=-1").ok());
	auto negative = scheduler_parameter_schema().parse("campaign_freeze_slip=-1");
	ck_assert(!negative.ok());
	ck_assert(negative.error().find("campaign_freeze_slip") != std::string::npos);
}
END_TEST

int main()
{
	Suite *suite = suite_create("scheduler_parameters");
	TCase *tc = tcase_create("keys");
	tcase_add_test(tc, test_keyword_list_is_read);
	tcase_add_test(tc, test_local_search_keys_reach_the_planner);
	tcase_add_test(tc, test_freeze_slip_key_reaches_the_planner);
	tcase_add_test(tc, test_min_gap_has_a_default_and_refuses_bad_values);
	tcase_add_test(tc, test_no_key_contains_a_slurm_keyword);
	tcase_add_test(tc, test_schema_parses_a_site_string);
	tcase_add_test(tc, test_short_room_keys_reach_the_planner);
	tcase_add_test(tc, test_whole_node_reservations_key_reaches_the_planner);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
