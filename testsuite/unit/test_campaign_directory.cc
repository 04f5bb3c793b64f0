// CampaignDirectory: what priority/campaign publishes for sched/campaign's per-campaign
// reservations. A pass replaces the whole directory; unknown jobs are campaign 0.
#include "check_main.h"
#include "runtime/campaign_directory.h"

#include <thread>

using campaign::CampaignDirectory;

START_TEST(test_directory_publish_replaces_everything)
{
	CampaignDirectory directory;
	ck_assert_int_eq(directory.campaign_of(7), 0);
	directory.publish({{7, 3}, {8, 3}, {9, 4}});
	ck_assert_int_eq(directory.campaign_of(8), 3);
	ck_assert_int_eq(directory.campaign_of(9), 4);
	directory.publish({{9, 5}});
	ck_assert_int_eq(directory.campaign_of(7), 0); // started or gone since: forgotten
	ck_assert_int_eq(directory.campaign_of(9), 5);
	ck_assert_int_eq(directory.size(), 1);
	directory.clear();
	ck_assert_int_eq(directory.campaign_of(9), 0);
}
END_TEST

// The expected run time travels with the campaign (campaign_short_room_by=expected).
START_TEST(test_directory_carries_expected_run_times)
{
	CampaignDirectory directory;
	directory.publish({{7, 3, 120}, {8, 3}});
	ck_assert_int_eq(directory.entry_of(7).campaign_id, 3);
	ck_assert_int_eq(directory.entry_of(7).expected_run_s, 120);
	ck_assert_int_eq(directory.entry_of(8).expected_run_s, 0);
	ck_assert_int_eq(directory.entry_of(9).job_id, 0); // unknown
	ck_assert_int_eq(directory.entry_of(9).expected_run_s, 0);
}
END_TEST

START_TEST(test_directory_is_one_per_process)
{
	campaign::process_campaign_directory().publish({{1, 42}});
	ck_assert_int_eq(campaign::process_campaign_directory().campaign_of(1), 42);
	campaign::process_campaign_directory().clear();
}
END_TEST

// A reader (the scheduler thread) and a publisher (the ranking thread) at once: every read
// returns a value some pass published (or 0 before the first), never garbage.
START_TEST(test_directory_reads_whole_passes_under_concurrency)
{
	CampaignDirectory directory;
	std::thread publisher([&directory] {
		for (uint64_t pass = 0; pass < 2000; ++pass)
			directory.publish({{1, 10 + pass % 2}, {2, 20 + pass % 2}});
	});
	bool consistent = true;
	for (int read = 0; read < 20000; ++read) {
		const uint64_t first = directory.campaign_of(1);
		consistent = consistent && (first == 0 || first == 10 || first == 11);
	}
	publisher.join();
	ck_assert(consistent);
}
END_TEST

int main()
{
	Suite *suite = suite_create("campaign_directory");
	TCase *tc = tcase_create("directory");
	tcase_add_test(tc, test_directory_publish_replaces_everything);
	tcase_add_test(tc, test_directory_carries_expected_run_times);
	tcase_add_test(tc, test_directory_is_one_per_process);
	tcase_add_test(tc, test_directory_reads_whole_passes_under_concurrency);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
