// OStrich's event-driven virtual schedule against an independent brute-force reference: a
// small time-stepped fluid simulation written apart from it, on thousands of random instances.
// Also the randomized properties of V: equal weights equal the unweighted schedule, and
// splitting a campaign into single-job campaigns gains nothing (thesis §2.6 incentive claim).
#include "check_main.h"
#include "policy/virtual_schedule.h"

#include <cmath>
#include <deque>

using namespace campaign;

namespace
{

struct Submission {
	int64_t at_s;
	uint32_t unit;
	uint64_t campaign;
	double work_cpu_s;
};

struct Instance {
	double capacity_cpus;
	std::vector<double> weights;         // per unit
	std::vector<Submission> submissions; // sorted by time
};

Instance random_instance(std::mt19937_64 &random)
{
	Instance instance;
	instance.capacity_cpus = 1 + static_cast<double>(random() % 8);
	const uint32_t units = 1 + static_cast<uint32_t>(random() % 4);
	for (uint32_t unit = 0; unit < units; unit++)
		instance.weights.push_back(0.5 + static_cast<double>(random() % 4));
	const int campaigns = 1 + static_cast<int>(random() % 8);
	for (int index = 0; index < campaigns; index++)
		instance.submissions.push_back(
		    {static_cast<int64_t>(random() % 30), static_cast<uint32_t>(random() % units),
		     static_cast<uint64_t>(index + 1),
		     static_cast<double>(random() % 5 == 0 ? 0 : random() % 60)});
	std::stable_sort(instance.submissions.begin(), instance.submissions.end(),
	                 [](const Submission &a, const Submission &b) { return a.at_s < b.at_s; });
	return instance;
}

// The event-driven schedule: virtual completion time of every campaign.
std::map<uint64_t, double> event_driven(const Instance &instance, bool use_weights)
{
	VirtualSchedule schedule;
	for (uint32_t unit = 0; unit < instance.weights.size(); unit++)
		schedule.set_weight(unit, use_weights ? instance.weights[unit] : 1.0);
	for (const Submission &submission : instance.submissions) {
		schedule.advance_to(static_cast<double>(submission.at_s), instance.capacity_cpus);
		schedule.add_work(submission.campaign, submission.unit, submission.work_cpu_s);
	}
	schedule.advance_to(1e9, instance.capacity_cpus);
	std::map<uint64_t, double> finish;
	for (const Submission &submission : instance.submissions) {
		const VirtualView view = schedule.view(submission.campaign, instance.capacity_cpus);
		ck_assert(view.finished);
		finish[submission.campaign] = view.finish_s;
	}
	return finish;
}

// The reference: fixed steps of 1/64 s, each unit's head campaign served at its share.
std::map<uint64_t, double> time_stepped(const Instance &instance)
{
	const double step_s = 1.0 / 64;
	std::vector<std::deque<std::pair<uint64_t, double>>> queues(instance.weights.size());
	std::map<uint64_t, double> finish;
	size_t next = 0;
	for (double now_s = 0; finish.size() < instance.submissions.size(); now_s += step_s) {
		while (next < instance.submissions.size() &&
		       instance.submissions[next].at_s <= now_s + 1e-12) {
			const Submission &submission = instance.submissions[next++];
			queues[submission.unit].push_back(
			    {submission.campaign, submission.work_cpu_s});
		}
		double active_weight = 0;
		for (size_t unit = 0; unit < queues.size(); unit++) {
			while (!queues[unit].empty() && queues[unit].front().second <= 0) {
				finish[queues[unit].front().first] = now_s;
				queues[unit].pop_front();
			}
			if (!queues[unit].empty())
				active_weight += instance.weights[unit];
		}
		for (size_t unit = 0; unit < queues.size(); unit++) {
			if (queues[unit].empty())
				continue;
			const double rate =
			    instance.capacity_cpus * instance.weights[unit] / active_weight;
			auto &[campaign, remaining] = queues[unit].front();
			if (remaining <= rate * step_s) {
				finish[campaign] = now_s + remaining / rate;
				queues[unit].pop_front();
				// The unit's next campaign starts at the next step (error below one
				// step).
			} else {
				remaining -= rate * step_s;
			}
		}
	}
	return finish;
}

} // namespace

START_TEST(test_ostrich_matches_time_stepped_fluid_reference)
{
	std::mt19937_64 random(7);
	int compared = 0;
	for (int index = 0; index < 2000; index++) {
		const Instance instance = random_instance(random);
		const auto exact = event_driven(instance, true);
		const auto reference = time_stepped(instance);
		for (const auto &[campaign, finish_s] : exact) {
			ck_assert_msg(std::fabs(finish_s - reference.at(campaign)) < 0.2,
			              "instance %d campaign %lu: event-driven %.4f, reference %.4f",
			              index, static_cast<unsigned long>(campaign), finish_s,
			              reference.at(campaign));
			compared++;
		}
	}
	ck_assert_int_gt(compared, 5000);
}
END_TEST

START_TEST(test_ostrich_equal_weights_equal_unweighted_schedule)
{
	std::mt19937_64 random(11);
	for (int index = 0; index < 2000; index++) {
		Instance instance = random_instance(random);
		const auto unweighted = event_driven(instance, false);
		const double weight = 0.25 + static_cast<double>(random() % 40) / 8;
		for (double &unit_weight : instance.weights)
			unit_weight = weight;
		const auto weighted = event_driven(instance, true);
		for (const auto &[campaign, finish_s] : unweighted)
			ck_assert(std::fabs(weighted.at(campaign) - finish_s) < 1e-6);
	}
}
END_TEST

// Strict mode lets no job start before its campaign's s~. Splitting unit 0's campaign into
// single-job campaigns submitted at the same moment leaves the virtual completion of its whole
// work, and every other unit's completions, unchanged: the split gains nothing.
START_TEST(test_ostrich_strict_split_into_single_job_campaigns_gains_nothing)
{
	std::mt19937_64 random(13);
	for (int index = 0; index < 2000; index++) {
		Instance whole = random_instance(random);
		const int64_t at_s = static_cast<int64_t>(random() % 30);
		std::vector<double> jobs;
		for (int job = 0; job < 1 + static_cast<int>(random() % 5); job++)
			jobs.push_back(1 + static_cast<double>(random() % 20));
		Instance split = whole;
		double total = 0;
		for (size_t job = 0; job < jobs.size(); job++) {
			total += jobs[job];
			split.submissions.push_back({at_s, 0, 1000 + job, jobs[job]});
		}
		whole.submissions.push_back({at_s, 0, 1000, total});
		for (Instance *instance : {&whole, &split})
			std::stable_sort(instance->submissions.begin(), instance->submissions.end(),
			                 [](const Submission &a, const Submission &b) {
				                 return a.at_s < b.at_s;
			                 });
		const auto whole_finish = event_driven(whole, true);
		const auto split_finish = event_driven(split, true);
		const double split_last = split_finish.at(1000 + jobs.size() - 1);
		ck_assert_msg(split_last >= whole_finish.at(1000) - 1e-6,
		              "instance %d: split finishes at %.6f, whole at %.6f", index,
		              split_last, whole_finish.at(1000));
		for (const auto &[campaign, finish_s] : whole_finish)
			if (campaign < 1000)
				ck_assert(std::fabs(split_finish.at(campaign) - finish_s) < 1e-6);
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("ostrich_fluid_reference");
	TCase *tc = tcase_create("random");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_ostrich_matches_time_stepped_fluid_reference);
	tcase_add_test(tc, test_ostrich_equal_weights_equal_unweighted_schedule);
	tcase_add_test(tc, test_ostrich_strict_split_into_single_job_campaigns_gains_nothing);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
