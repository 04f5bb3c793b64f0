// CampaignDirectory: what priority/campaign publishes for sched/campaign's per-campaign
// reservations. A pass replaces the whole directory; unknown jobs are campaign 0.
#include "check_main.h"
#include "runtime/campaign_directory.h"

#include <atomic>
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

// Each publish is a new ranking: its snapshot second, its count, and whether its priorities were
// applied (sched/campaign holds newly eligible jobs against the second).
START_TEST(test_directory_stamps_each_ranking)
{
	CampaignDirectory directory;
	ck_assert(directory.stamp() == CampaignDirectory::Stamp{});
	ck_assert_int_eq(directory.stamp().count, 0);
	directory.publish({{7, 3}}, 1000, true);
	CampaignDirectory::Stamp first = directory.stamp();
	ck_assert_int_eq(first.snapshot_s, 1000);
	ck_assert_int_eq(first.count, 1);
	ck_assert(first.applied);
	directory.publish({}, 1000, false); // same second, shadow: still a newer ranking
	ck_assert_int_eq(directory.stamp().count, 2);
	ck_assert(!directory.stamp().applied);
	ck_assert(!(directory.stamp() == first));
	directory.publish({{7, 3}}, 1003, true);
	ck_assert_int_eq(directory.stamp().snapshot_s, 1003);
	ck_assert_int_eq(directory.stamp().count, 3);
}
END_TEST

// sched/campaign asks for a ranking through the waker priority/campaign registers; none
// registered (another priority plugin, or after its fini): the request says so.
START_TEST(test_directory_ranking_waker)
{
	CampaignDirectory directory;
	ck_assert(!directory.has_ranking_waker());
	ck_assert(!directory.request_ranking());
	int wakes = 0;
	directory.set_ranking_waker([&wakes] { wakes++; });
	ck_assert(directory.has_ranking_waker());
	ck_assert(directory.request_ranking());
	ck_assert(directory.request_ranking());
	ck_assert_int_eq(wakes, 2);
	directory.clear_ranking_waker();
	ck_assert(!directory.has_ranking_waker());
	ck_assert(!directory.request_ranking());
	ck_assert_int_eq(wakes, 2);
}
END_TEST

// fini clears the waker before its worker stops: once clear returns, no call is under way, so
// the worker may go. Here a slow waker runs while another thread clears.
START_TEST(test_directory_clear_waits_for_a_wake_under_way)
{
	CampaignDirectory directory;
	std::atomic<bool> in_wake{false}, wake_done{false};
	directory.set_ranking_waker([&] {
		in_wake = true;
		std::this_thread::sleep_for(std::chrono::milliseconds(100));
		wake_done = true;
	});
	std::thread requester([&directory] { (void)directory.request_ranking(); });
	while (!in_wake)
		std::this_thread::yield();
	directory.clear_ranking_waker();
	ck_assert(wake_done);
	requester.join();
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
	tcase_add_test(tc, test_directory_stamps_each_ranking);
	tcase_add_test(tc, test_directory_ranking_waker);
	tcase_add_test(tc, test_directory_clear_waits_for_a_wake_under_way);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
