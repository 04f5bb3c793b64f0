// Our SchedulerParameters keys never contain a Slurm keyword (Slurm matches substrings), and
// the schema parses the strings sites actually write.
#include "check_main.h"
#include "config/scheduler_parameters.h"

#include <fstream>
#include <string>
#include <vector>

using namespace campaign;

namespace
{

std::vector<std::string> slurm_keywords()
{
	std::ifstream in(std::string(SRCDIR) + "/slurm_sched_keywords.txt");
	std::vector<std::string> words;
	std::string line;
	while (std::getline(in, line))
		if (!line.empty() && line[0] != '#')
			words.push_back(line);
	return words;
}

} // namespace

START_TEST(test_keyword_list_is_read)
{
	// The list must be there, or the next test would pass vacuously.
	auto words = slurm_keywords();
	ck_assert_int_ge(words.size(), 80);
}
END_TEST

START_TEST(test_no_key_contains_a_slurm_keyword)
{
	const ParameterSchema schema = scheduler_parameter_schema();
	for (const auto &spec : schema.specs()) {
		ck_assert_msg(spec.key.rfind("campaign_", 0) == 0, "%s lacks the prefix",
		              spec.key.c_str());
		for (const auto &word : slurm_keywords())
			ck_assert_msg(spec.key.find(word) == std::string::npos,
			              "our key %s contains Slurm's keyword %s", spec.key.c_str(),
			              word.c_str());
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

START_TEST(test_short_room_keys_reach_the_planner)
{
	auto parsed = scheduler_parameter_schema().parse(
	    "campaign_short_room=0.05,campaign_short_limit=900,campaign_short_room_wide=0.25");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	auto config = scheduler_plan_config(parsed.value());
	ck_assert(config.ok());
	ck_assert(config.value().planner.short_room == 0.05);
	ck_assert_int_eq(config.value().planner.short_limit_s, 900);
	ck_assert(config.value().planner.short_room_wide == 0.25);
	auto defaults = scheduler_plan_config(scheduler_parameter_schema().parse("").value());
	ck_assert(defaults.value().planner.short_room == 0);
	auto too_much = scheduler_parameter_schema().parse("campaign_short_room=0.6");
	ck_assert(!too_much.ok());
	ck_assert(too_much.error().find("campaign_short_room") != std::string::npos);
}
END_TEST

int main()
{
	Suite *suite = suite_create("scheduler_parameters");
	TCase *tc = tcase_create("keys");
	tcase_add_test(tc, test_keyword_list_is_read);
	tcase_add_test(tc, test_no_key_contains_a_slurm_keyword);
	tcase_add_test(tc, test_schema_parses_a_site_string);
	tcase_add_test(tc, test_short_room_keys_reach_the_planner);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
