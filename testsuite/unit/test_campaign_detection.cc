// Campaign detection (doc/design.md §3): the threshold rule (strict "before", T = 0 is the thesis's
// MAX rule), the window rule, held and not-yet-eligible jobs, and online == offline.
#include "campaign/offline_detection.h"
#include "core_fixtures.h"

using namespace campaign_test;

namespace
{

uint64_t campaign_of(CampaignCore &core, uint32_t job_id, int64_t now_s)
{
	return explain(core.rank(now_s), job_id).campaign_id;
}

// A core with `parameters` on one partition of 4 CPUs.
CampaignCore four_cpu_core(const std::string &parameters)
{
	CampaignCore core = make_core(parameters);
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	return core;
}

} // namespace

START_TEST(test_detection_threshold_zero_is_strictly_before_latest_end)
{
	// Thesis §3 (MAX): a job joins iff submitted *prior to* the campaign's latest completion.
	CampaignDetector detector({DetectionRule::Kind::Threshold, 0, 0});
	const auto first = detector.job_eligible(0, 0);
	ck_assert(first.opened);
	const auto second = detector.job_eligible(0, 5); // first still running: joins
	ck_assert(!second.opened);
	ck_assert_uint_eq(second.campaign_id, first.campaign_id);
	detector.job_left(0, first.campaign_id, 10, true);
	detector.job_left(0, first.campaign_id, 12, true);
	ck_assert(detector.job_eligible(0, 12).opened); // equal to the latest end: new campaign
}
END_TEST

START_TEST(test_detection_threshold_session_rule_joins_within_T)
{
	CampaignDetector detector({DetectionRule::Kind::Threshold, 1200, 0});
	const auto first = detector.job_eligible(7, 0);
	detector.job_left(7, first.campaign_id, 100, true);
	ck_assert(!detector.job_eligible(7, 1299).opened); // 1299 < 100 + 1200
	detector.job_left(7, first.campaign_id, 1300, true);
	ck_assert(detector.job_eligible(7, 2500).opened); // 2500 == 1300 + 1200: not before
}
END_TEST

// close(): a campaign closed to new jobs (overdue postponement) keeps its jobs, and its group's
// next job opens a new campaign under either rule; closing an older campaign changes nothing.
START_TEST(test_detection_closed_campaign_takes_no_new_job)
{
	for (const auto kind : {DetectionRule::Kind::Threshold, DetectionRule::Kind::Window}) {
		CampaignDetector detector({kind, 0, 600});
		const auto first = detector.job_eligible(3, 0);
		ck_assert(!detector.job_eligible(3, 5).opened); // first still pending: joins
		detector.close(3, first.campaign_id + 1);       // not the group's campaign
		ck_assert(detector.still_open(3, first.campaign_id, 6));
		detector.close(3, first.campaign_id);
		ck_assert(!detector.still_open(3, first.campaign_id, 6));
		const auto next = detector.job_eligible(3, 6);
		ck_assert(next.opened);
		ck_assert_uint_ne(next.campaign_id, first.campaign_id);
		detector.job_left(3, first.campaign_id, 10, true); // an old campaign's end: ignored
		ck_assert(!detector.job_eligible(3, 11).opened);   // `next` is still pending
	}
}
END_TEST

START_TEST(test_detection_window_rule_counts_from_first_job)
{
	CampaignDetector detector({DetectionRule::Kind::Window, 0, 600});
	const auto first = detector.job_eligible(1, 1000);
	ck_assert(!detector.job_eligible(1, 1599).opened); // still running jobs do not matter
	ck_assert(detector.job_eligible(1, 1600).opened);
	ck_assert(detector.job_eligible(2, 1000).opened); // groups are independent
	(void)first;
}
END_TEST

// max_span_s: under the threshold rule a campaign with a job still pending takes a later job only
// within the span of its first job; 0 bounds nothing. The window rule ignores it.
START_TEST(test_detection_max_span_bounds_the_threshold_rule)
{
	DetectionRule rule{DetectionRule::Kind::Threshold, 0, 600};
	rule.max_span_s = 100;
	CampaignDetector detector(rule);
	const auto first = detector.job_eligible(4, 1000);
	ck_assert(!detector.job_eligible(4, 1099).opened); // first pending, within the span
	const auto later = detector.job_eligible(4, 1100); // 1100 - 1000 == span: not before
	ck_assert(later.opened);
	ck_assert_uint_ne(later.campaign_id, first.campaign_id);
	ck_assert(!detector.job_eligible(4, 1150).opened); // the new campaign's span runs from 1100
	// The offline loop reads the same rule: jobs ending late at 1000, 1099, 1100, 1150.
	const std::vector<uint64_t> offline = detect_campaigns_offline(
	    {{4, 1000, 5000}, {4, 1099, 5000}, {4, 1100, 5000}, {4, 1150, 5000}}, rule);
	ck_assert(offline == (std::vector<uint64_t>{1, 1, 2, 2}));
	rule.max_span_s = 0;
	CampaignDetector unbounded(rule);
	unbounded.job_eligible(4, 0);
	ck_assert(!unbounded.job_eligible(4, 10 * 86400).opened); // pending: joins at any time
	rule.kind = DetectionRule::Kind::Window;
	rule.max_span_s = 100;
	CampaignDetector window(rule);
	window.job_eligible(4, 0);
	ck_assert(!window.job_eligible(4, 599).opened); // the window alone decides
}
END_TEST

// The PriorityParameters key reaches the core: a job of a user whose campaign's first job still
// waits opens a campaign of its own once max_span_s has passed.
START_TEST(test_detection_max_span_key_opens_a_campaign_in_the_core)
{
	CampaignCore core = four_cpu_core("policy=ostrich,max_span_s=3600");
	ok(core.submit(job(1, 1, 0, 4, 100), 0));
	ok(core.submit(job(2, 1, 3599, 1, 100), 3599));
	const uint64_t first = campaign_of(core, 1, 3599);
	ck_assert_uint_eq(campaign_of(core, 2, 3599), first);
	ok(core.submit(job(3, 1, 3600, 1, 100), 3600)); // job 1 still waits: still a new campaign
	ck_assert(campaign_of(core, 3, 3600) != first);
	CampaignCore thesis = four_cpu_core("policy=ostrich");
	ok(thesis.submit(job(1, 1, 0, 4, 100), 0));
	ok(thesis.submit(job(3, 1, 3600, 1, 100), 3600));
	ck_assert_uint_eq(campaign_of(thesis, 3, 3600), campaign_of(thesis, 1, 3600));
}
END_TEST

START_TEST(test_detection_held_job_does_not_keep_campaign_open)
{
	CampaignCore core = four_cpu_core("policy=ostrich");
	ok(core.submit(job(1, 1, 0, 1, 100), 0));
	ok(core.submit(job(2, 1, 0, 1, 100), 0));
	const uint64_t first = campaign_of(core, 1, 0);
	ok(core.hold(2, 1));
	ok(core.start(1, 1));
	ok(core.end(1, 50));
	ok(core.submit(job(3, 1, 60, 1, 100), 60)); // job 2 is held: the campaign closed at 50
	const uint64_t third = campaign_of(core, 3, 60);
	ck_assert(third != first);
	ok(core.release(2, 70)); // released: eligible again at 70, joins the open campaign
	ck_assert_uint_eq(campaign_of(core, 2, 70), third);
}
END_TEST

START_TEST(test_detection_not_yet_eligible_job_joins_when_eligible)
{
	CampaignCore core = four_cpu_core("policy=ostrich");
	ok(core.submit(job(1, 1, 0, 1, 10), 0));
	JobFields later = job(2, 1, 0, 1, 10);
	later.eligible_s = 30; // begin time
	ok(core.submit(later, 0));
	JobFields dependent = job(3, 1, 0, 1, 10);
	dependent.eligible_s.reset(); // unmet dependency
	ok(core.submit(dependent, 0));
	ok(core.start(1, 0));
	ok(core.end(1, 10));
	Ranking at_20 = core.rank(20);
	ck_assert_uint_eq(at_20.order.size(), 0); // neither waiting job counts yet
	const uint64_t begun = campaign_of(core, 2, 30);
	ck_assert(begun != 0);
	ok(core.eligible(3, 35));
	ck_assert_uint_eq(campaign_of(core, 3, 35), begun); // job 2 pending keeps it open
}
END_TEST

// Online detection (events in time order: ends before eligibles at equal times, a zero-length
// job's end right after its own eligibility) equals the offline MAX loop on random traces.
START_TEST(test_detection_online_equals_offline_random)
{
	std::mt19937_64 random(20240901);
	for (int instance = 0; instance < 3000; instance++) {
		const bool window = instance % 3 == 2;
		DetectionRule rule{window ? DetectionRule::Kind::Window
		                          : DetectionRule::Kind::Threshold,
		                   static_cast<int64_t>(instance % 3 == 1 ? random() % 20 : 0),
		                   static_cast<int64_t>(random() % 30)};
		const int jobs = 1 + static_cast<int>(random() % 40);
		std::vector<TraceJob> trace;
		for (int index = 0; index < jobs; index++) {
			TraceJob job;
			job.group = static_cast<uint32_t>(random() % 4);
			job.eligible_s = static_cast<int64_t>(random() % 100);
			job.end_s = job.eligible_s +
			            static_cast<int64_t>(random() % 4 == 0 ? 0 : random() % 30);
			trace.push_back(job);
		}
		std::stable_sort(trace.begin(), trace.end(),
		                 [](const TraceJob &a, const TraceJob &b) {
			                 return a.eligible_s < b.eligible_s;
		                 });
		const std::vector<uint64_t> offline = detect_campaigns_offline(trace, rule);
		// (time, class, trace index, sub): class 0 = end of a job eligible earlier.
		std::vector<std::tuple<int64_t, int, size_t, int>> events;
		for (size_t index = 0; index < trace.size(); index++) {
			events.push_back({trace[index].eligible_s, 1, index, 0});
			if (trace[index].end_s > trace[index].eligible_s)
				events.push_back({trace[index].end_s, 0, index, 0});
			else
				events.push_back({trace[index].end_s, 1, index, 1});
		}
		std::sort(events.begin(), events.end());
		CampaignDetector detector(rule);
		std::vector<uint64_t> online(trace.size());
		for (const auto &[time_s, kind, index, sub] : events) {
			if (kind == 1 && sub == 0)
				online[index] =
				    detector.job_eligible(trace[index].group, time_s).campaign_id;
			else
				detector.job_left(trace[index].group, online[index], time_s, true);
		}
		ck_assert_msg(online == offline, "instance %d differs", instance);
	}
}
END_TEST

// The same through the CampaignCore facade: jobs submitted, started and ended as a trace
// replays (ends before submissions at equal times) get the offline detector's campaigns.
START_TEST(test_detection_core_online_equals_offline_random)
{
	std::mt19937_64 random(99);
	for (int instance = 0; instance < 300; instance++) {
		CampaignCore core =
		    make_core("policy=ostrich,threshold_s=" + std::to_string(instance % 2 ? 5 : 0));
		ok(core.capacity({"p", 1000, std::nullopt, std::nullopt}, 0));
		std::vector<TraceJob> trace;
		for (int index = 0; index < 30; index++)
			trace.push_back({static_cast<uint32_t>(random() % 3),
			                 static_cast<int64_t>(random() % 60), 0});
		std::stable_sort(trace.begin(), trace.end(),
		                 [](const TraceJob &a, const TraceJob &b) {
			                 return a.eligible_s < b.eligible_s;
		                 });
		for (TraceJob &job : trace)
			job.end_s = job.eligible_s + 1 + static_cast<int64_t>(random() % 15);
		// Groups are numbered by the core in order of first appearance: renumber alike.
		std::map<uint32_t, uint32_t> group_of_user;
		std::vector<TraceJob> numbered = trace;
		for (TraceJob &job : numbered)
			job.group =
			    group_of_user.emplace(job.group, group_of_user.size()).first->second;
		const auto offline = detect_campaigns_offline(
		    numbered, {DetectionRule::Kind::Threshold, instance % 2 ? 5 : 0, 0});
		std::vector<std::tuple<int64_t, int, size_t>> events;
		for (size_t index = 0; index < trace.size(); index++) {
			events.push_back({trace[index].eligible_s, 1, index});
			events.push_back({trace[index].end_s, 0, index});
		}
		std::sort(events.begin(), events.end());
		for (const auto &[time_s, kind, index] : events) {
			const uint32_t job_id = static_cast<uint32_t>(index + 1);
			if (kind == 0) {
				ok(core.end(job_id, time_s));
				continue;
			}
			ok(core.submit(job(job_id, trace[index].group, time_s, 1, 10), time_s));
			ck_assert_uint_eq(campaign_of(core, job_id, time_s), offline[index]);
			ok(core.start(job_id, time_s));
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("campaign_detection");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, test_detection_threshold_zero_is_strictly_before_latest_end);
	tcase_add_test(tc, test_detection_threshold_session_rule_joins_within_T);
	tcase_add_test(tc, test_detection_window_rule_counts_from_first_job);
	tcase_add_test(tc, test_detection_closed_campaign_takes_no_new_job);
	tcase_add_test(tc, test_detection_max_span_bounds_the_threshold_rule);
	tcase_add_test(tc, test_detection_max_span_key_opens_a_campaign_in_the_core);
	tcase_add_test(tc, test_detection_held_job_does_not_keep_campaign_open);
	tcase_add_test(tc, test_detection_not_yet_eligible_job_joins_when_eligible);
	tcase_add_test(tc, test_detection_online_equals_offline_random);
	tcase_add_test(tc, test_detection_core_online_equals_offline_random);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
