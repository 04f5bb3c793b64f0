// Limits against runs (trace/limit_accuracy.h): which jobs count, the CPU-weighted part used,
// the median and the jobs under a tenth, and the note campsim prints with the input; the default
// limit --missing-limit gives jobs without one (trace/missing_limits.h).
#include "check_main.h"
#include "sim_job_fixture.h"
#include "trace/limit_accuracy.h"
#include "trace/missing_limits.h"

#include <cmath>
#include <string>
#include <vector>

using namespace campaign::sim;

namespace
{

SimJob limited(uint64_t id, uint32_t cpus, int64_t runtime_s, int64_t limit_s)
{
	SimJob job = sim_job(id, 1, 0, cpus, runtime_s);
	job.limit_s = limit_s;
	return job;
}

bool near(double a, double b)
{
	return std::fabs(a - b) < 1e-9;
}

} // namespace

START_TEST(test_limit_accuracy_weighs_cpu_seconds_and_skips_unknowns)
{
	Workload workload;
	workload.jobs = {
	    limited(1, 4, 100, 1000),  // 10 %, 400 of 4,000 CPU-s
	    limited(2, 1, 50, 1000),   // 5 %: under a tenth
	    limited(3, 2, 900, 1000),  // 90 %
	    limited(4, 1, 3000, 1000), // ran past its limit: cut, 100 %
	    limited(5, 8, 100, -1),    // unknown limit: not counted
	    limited(6, 8, 0, 1000),    // never ran: not counted
	};
	const LimitAccuracy accuracy = limit_accuracy(workload);
	ck_assert_uint_eq(accuracy.jobs, 4);
	// (400 + 50 + 1,800 + 1,000) / (4,000 + 1,000 + 2,000 + 1,000)
	ck_assert_msg(near(accuracy.used_part, 3250.0 / 8000.0), "used %g", accuracy.used_part);
	// Parts 0.05, 0.1, 0.9, 1: the lower median.
	ck_assert_msg(near(accuracy.median_part, 0.1), "median %g", accuracy.median_part);
	ck_assert_msg(near(accuracy.under_tenth, 0.25), "under a tenth %g", accuracy.under_tenth);
	const std::string note = limit_accuracy_note(accuracy);
	ck_assert_msg(note.find("4 jobs with a known limit used 41 % of the CPU-seconds they "
	                        "asked for;") != std::string::npos,
	              "%s", note.c_str());
	ck_assert_msg(note.find("the median job used 10.0 % of its limit, 25 % of the jobs under a "
	                        "tenth") != std::string::npos,
	              "%s", note.c_str());
}
END_TEST

START_TEST(test_limit_accuracy_without_limits_says_so)
{
	Workload workload;
	workload.jobs = {limited(1, 4, 100, -1)};
	const LimitAccuracy accuracy = limit_accuracy(workload);
	ck_assert_uint_eq(accuracy.jobs, 0);
	const std::string note = limit_accuracy_note(accuracy);
	ck_assert_str_eq(note.c_str(), "limits against runs: no job with a known limit and a run");
}
END_TEST

START_TEST(test_missing_limits_take_the_default_or_the_run)
{
	Workload workload;
	workload.jobs = {
	    limited(1, 1, 100, -1),  // no limit, shorter than the default: the default
	    limited(2, 1, 5000, -1), // no limit, longer: its run (it asked for at least that)
	    limited(3, 1, 10, 300),  // a limit of its own: kept
	};
	const MissingLimits given = give_missing_limits(workload, MissingLimitRule{3600, 0, false});
	ck_assert_uint_eq(given.given, 2);
	ck_assert_uint_eq(given.ran_longer, 1);
	ck_assert_int_eq(workload.jobs[0].limit_s, 3600);
	ck_assert_int_eq(workload.jobs[1].limit_s, 5000);
	ck_assert_int_eq(workload.jobs[2].limit_s, 300);
	ck_assert_int_eq(workload.jobs[0].runtime_s, 100); // runs untouched
	const std::string note = missing_limits_note(given);
	ck_assert_str_eq(note.c_str(),
	                 "--missing-limit: 2 jobs without a limit in the log given 3600 "
	                 "s; the 1 of them that ran longer their run");
	// The limits now count in the accuracy note: 100 of 3,600, 5,000 of 5,000, 10 of 300.
	ck_assert_uint_eq(limit_accuracy(workload).jobs, 3);
}
END_TEST

START_TEST(test_missing_limits_for_longer_jobs)
{
	const auto jobs = [] {
		return std::vector<SimJob>{limited(1, 1, 100, -1), limited(2, 1, 5000, -1),
		                           limited(3, 1, 90000, -1), limited(4, 1, 200000, 300000)};
	};
	Workload workload;
	workload.jobs = jobs();
	// M = 86,400: the job of 5,000 s asks for it, the one of 90,000 s for its run.
	MissingLimits given = give_missing_limits(workload, MissingLimitRule{3600, 86400, false});
	ck_assert_int_eq(workload.jobs[0].limit_s, 3600);
	ck_assert_int_eq(workload.jobs[1].limit_s, 86400);
	ck_assert_int_eq(workload.jobs[2].limit_s, 90000);
	ck_assert_int_eq(workload.jobs[3].limit_s, 300000);
	ck_assert_uint_eq(given.ran_longer, 2);
	// max: the longest run in the log (200,000 s, of a job with a limit of its own).
	workload.jobs = jobs();
	given = give_missing_limits(workload, MissingLimitRule{3600, 0, true});
	ck_assert_int_eq(given.longer_s, 200000);
	ck_assert_int_eq(workload.jobs[1].limit_s, 200000);
	ck_assert_int_eq(workload.jobs[2].limit_s, 200000);
	const std::string note = missing_limits_note(given);
	ck_assert_msg(note.find("the 2 of them that ran longer 200000 s (at least their run)") !=
	                  std::string::npos,
	              "%s", note.c_str());
}
END_TEST

START_TEST(test_unknown_limits_are_noted)
{
	Workload workload;
	workload.jobs = {limited(1, 1, 100, -1), limited(2, 1, 5000, 6000), limited(3, 1, 10, -1)};
	const std::string note = unknown_limits_note(workload);
	ck_assert_msg(note.find("limits unknown: 2 of 3 jobs (67 %) give none and are planned by "
	                        "their runs") != std::string::npos,
	              "%s", note.c_str());
	give_missing_limits(workload, MissingLimitRule{3600, 0, false});
	ck_assert(unknown_limits_note(workload).empty());
}
END_TEST

int main()
{
	Suite *suite = suite_create("limit_accuracy");
	TCase *tc = tcase_create("limit_accuracy");
	tcase_add_test(tc, test_limit_accuracy_weighs_cpu_seconds_and_skips_unknowns);
	tcase_add_test(tc, test_limit_accuracy_without_limits_says_so);
	tcase_add_test(tc, test_missing_limits_take_the_default_or_the_run);
	tcase_add_test(tc, test_missing_limits_for_longer_jobs);
	tcase_add_test(tc, test_unknown_limits_are_noted);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
