// Unit tests of the strict parameter parser: defaults, types, bounds, unknown keys, prefixes.
#include "check_main.h"
#include "util/parameters.h"

#include <string>

using namespace campaign;

namespace
{

ParameterSchema priority_schema()
{
	return ParameterSchema(
	    "PriorityParameters", "",
	    {
	        {.key = "policy",
	         .kind = ParameterKind::Choice,
	         .default_value = "ostrich",
	         .choices = {"fifo", "ostrich", "faircamp"}},
	        {.key = "calc_period",
	         .kind = ParameterKind::Integer,
	         .default_value = "5",
	         .min_integer = 1,
	         .max_integer = 3600},
	        {.key = "shadow", .kind = ParameterKind::Boolean, .default_value = "no"},
	        {.key = "weight",
	         .kind = ParameterKind::Real,
	         .default_value = "1.5",
	         .min_real = 0.0,
	         .max_real = 10.0},
	    });
}

bool contains(const std::string &text, const std::string &part)
{
	return text.find(part) != std::string::npos;
}

} // namespace

START_TEST(test_defaults_fill_every_key)
{
	auto parsed = priority_schema().parse("");
	ck_assert(parsed.ok());
	ck_assert_string_eq(parsed.value().text("policy"), "ostrich");
	ck_assert_int_eq(parsed.value().integer("calc_period"), 5);
	ck_assert(!parsed.value().boolean("shadow"));
	ck_assert(!parsed.value().was_set("policy"));
}
END_TEST

START_TEST(test_values_are_parsed_and_normalised)
{
	auto parsed = priority_schema().parse(" Policy = FairCamp , calc_period=60,shadow=YES,");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	ck_assert_string_eq(parsed.value().text("policy"), "faircamp");
	ck_assert_int_eq(parsed.value().integer("calc_period"), 60);
	ck_assert(parsed.value().boolean("shadow"));
	ck_assert(parsed.value().was_set("calc_period"));
	ck_assert(contains(parsed.value().describe(), "policy=faircamp"));
}
END_TEST

START_TEST(test_unknown_key_is_named)
{
	auto parsed = priority_schema().parse("policy=ostrich,calc_perod=5");
	ck_assert(!parsed.ok());
	ck_assert(contains(parsed.error(), "unknown parameter 'calc_perod'"));
	ck_assert(contains(parsed.error(), "PriorityParameters"));
	ck_assert(contains(parsed.error(), "calc_period")); // lists the known keys
}
END_TEST

START_TEST(test_bad_values_name_key_and_allowed_values)
{
	auto schema = priority_schema();
	auto bad_choice = schema.parse("policy=lottery");
	ck_assert(!bad_choice.ok());
	ck_assert(contains(bad_choice.error(), "policy"));
	ck_assert(contains(bad_choice.error(), "fifo|ostrich|faircamp"));

	auto out_of_range = schema.parse("calc_period=0");
	ck_assert(!out_of_range.ok());
	ck_assert(contains(out_of_range.error(), "[1, 3600]"));

	ck_assert(!schema.parse("calc_period=5x").ok());
	ck_assert(!schema.parse("calc_period=99999999999999999999999").ok());
	ck_assert(!schema.parse("shadow=maybe").ok());
	ck_assert(!schema.parse("weight=nan").ok());
	ck_assert(!schema.parse("weight=11").ok());
	auto no_value = schema.parse("calc_period");
	ck_assert(!no_value.ok());
	ck_assert(contains(no_value.error(), "needs a value"));
	auto twice = schema.parse("shadow=yes,shadow=no");
	ck_assert(!twice.ok());
	ck_assert(contains(twice.error(), "twice"));
}
END_TEST

START_TEST(test_prefix_leaves_foreign_keys_alone)
{
	ParameterSchema sched("SchedulerParameters", "campaign_",
	                      {{.key = "campaign_interval",
	                        .kind = ParameterKind::Integer,
	                        .default_value = "30",
	                        .min_integer = 1,
	                        .max_integer = 3600}});
	auto parsed = sched.parse("sched_interval=-1,defer,bf_window=99,campaign_interval=7");
	ck_assert_msg(parsed.ok(), "%s", parsed.ok() ? "" : parsed.error().c_str());
	ck_assert_int_eq(parsed.value().integer("campaign_interval"), 7);
	auto unknown = sched.parse("defer,campaign_intervall=3");
	ck_assert(!unknown.ok());
	ck_assert(contains(unknown.error(), "campaign_intervall"));
}
END_TEST

// A key the values do not hold is an expected error of values from another schema: covers()
// names it, and reading it returns empty values instead of throwing (house style: no exceptions).
START_TEST(test_missing_key_is_an_error_not_an_exception)
{
	ParameterSchema other("SchedulerParameters", "", {{.key = "campaign_period"}});
	auto parsed = priority_schema().parse("policy=fifo");
	ck_assert(parsed.ok());
	Status complete = parsed.value().covers(other);
	ck_assert(!complete.ok());
	ck_assert(contains(complete.error(), "campaign_period"));
	ck_assert(parsed.value().covers(priority_schema()).ok());
	ck_assert_int_eq(parsed.value().integer("campaign_period"), 0);
	ck_assert_string_eq(parsed.value().text("campaign_period"), "");
	ck_assert(!parsed.value().boolean("campaign_period"));
	ck_assert(!parsed.value().was_set("campaign_period"));
}
END_TEST

START_TEST(test_describe_restricted_to_a_schema)
{
	ParameterSchema part("PriorityParameters", "",
	                     {{.key = "shadow", .kind = ParameterKind::Boolean},
	                      {.key = "policy", .kind = ParameterKind::Text}});
	auto parsed = priority_schema().parse("shadow=yes,calc_period=7");
	ck_assert(parsed.ok());
	ck_assert_string_eq(parsed.value().describe(part), "policy=ostrich,shadow=yes");
	ck_assert_string_eq(parsed.value().describe(),
	                    "calc_period=7,policy=ostrich,shadow=yes,weight=1.5");
}
END_TEST

int main()
{
	Suite *suite = suite_create("parameters");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, test_defaults_fill_every_key);
	tcase_add_test(tc, test_values_are_parsed_and_normalised);
	tcase_add_test(tc, test_unknown_key_is_named);
	tcase_add_test(tc, test_bad_values_name_key_and_allowed_values);
	tcase_add_test(tc, test_prefix_leaves_foreign_keys_alone);
	tcase_add_test(tc, test_missing_key_is_an_error_not_an_exception);
	tcase_add_test(tc, test_describe_restricted_to_a_schema);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
