// scampaign's wire format: a report survives JSON both ways; refusals and bad replies are errors.
#include "check_main.h"
#include "policy/campaign_report.h"
#include "runtime/munge_credential.h"
#include "runtime/query_server.h"

using namespace campaign;

START_TEST(test_report_round_trips_through_json)
{
	CampaignReport report;
	report.policy = "ostrich";
	report.generated_s = 1700000000;
	CampaignRow row;
	row.uid = 1001;
	row.user = "alice";
	row.account = "physics";
	row.domain = "debug";
	row.campaign_id = 42;
	row.jobs_pending = 3;
	row.jobs_running = 1;
	row.jobs_done = 7;
	row.submit_s = 1699999000;
	row.virtual_start_s = 1699999100;
	row.virtual_finish_s = 1700003600;
	row.remaining_work_cpu_s = 12345.5;
	row.stretch = 1.25;
	report.rows.push_back(row);
	auto back = report_from_json(report_to_json(report));
	ck_assert_msg(back.ok(), "%s", back.ok() ? "" : back.error().c_str());
	ck_assert_string_eq(back.value().policy, "ostrich");
	ck_assert_int_eq(back.value().rows.size(), 1);
	const CampaignRow &got = back.value().rows[0];
	ck_assert_string_eq(got.user, "alice");
	ck_assert_uint_eq(got.campaign_id, 42);
	ck_assert_int_eq(*got.virtual_finish_s, 1700003600);
	ck_assert(!got.deadline_s.has_value());
	ck_assert_double_eq_tol(got.stretch, 1.25, 1e-12);
}
END_TEST

START_TEST(test_refusal_and_garbage_are_errors)
{
	auto refused = report_from_json(query_error_line("credential refused: Expired credential"));
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("Expired credential") != std::string::npos);
	ck_assert(!report_from_json("not json").ok());
	auto bad_row = report_from_json("{\"ok\":true,\"campaigns\":[{\"uid\":\"x\"}]}");
	ck_assert(!bad_row.ok());
	ck_assert(bad_row.error().find("campaign row 0") != std::string::npos);
}
END_TEST

START_TEST(test_munge_socket_from_auth_info)
{
	ck_assert_string_eq(munge_socket_from_auth_info("socket=/run/m.sock"), "/run/m.sock");
	ck_assert_string_eq(munge_socket_from_auth_info("ttl=60,socket=/x/y"), "/x/y");
	ck_assert_string_eq(munge_socket_from_auth_info(""), "");
}
END_TEST

int main()
{
	Suite *suite = suite_create("campaign_report");
	TCase *tc = tcase_create("wire");
	tcase_add_test(tc, test_report_round_trips_through_json);
	tcase_add_test(tc, test_refusal_and_garbage_are_errors);
	tcase_add_test(tc, test_munge_socket_from_auth_info);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
