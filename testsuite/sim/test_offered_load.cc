// campsim run --load: the offered load of a trace, the scaling of its inter-arrival times to a
// target load, and the campaigns scored, which stay those of the log at every load.
#include "check_main.h"
#include "sim_job_fixture.h"

#include "engine/estimates.h"
#include "engine/shared_campaigns.h"
#include "workload/offered_load.h"

using namespace campaign;
using namespace campaign::sim;

namespace
{

// The log started every job at its submission.
SimJob trace_job(uint64_t id, uint32_t user, int64_t submit_s, uint32_t cpus, int64_t runtime_s)
{
	SimJob job = sim_job(id, user, submit_s, cpus, runtime_s);
	job.trace_start_s = submit_s;
	return job;
}

// 4 CPUs; between the first (t = 100) and last (t = 500) submission 1600 CPU-seconds run:
// offered load 1600 / (4 x 400) = 1.
Workload small_trace()
{
	Workload workload;
	workload.name = "small";
	workload.machine_cpus = 4;
	workload.jobs = {trace_job(1, 1, 100, 4, 100), trace_job(2, 1, 150, 2, 200),
	                 trace_job(3, 2, 300, 4, 150), trace_job(4, 1, 500, 2, 100)};
	return workload;
}

} // namespace

START_TEST(test_offered_load_of_a_trace)
{
	const Workload workload = small_trace();
	ck_assert_double_eq_tol(offered_load(workload, effective_runtimes(workload)), 1.0, 1e-12);
	Workload at_once = small_trace();
	for (SimJob &job : at_once.jobs)
		job.submit_s = 100;
	ck_assert_double_eq_tol(offered_load(at_once, effective_runtimes(at_once)), 0, 1e-12);
}
END_TEST

START_TEST(test_scaling_stretches_inter_arrival_times)
{
	Workload workload = small_trace();
	ck_assert(scale_to_load(workload, 0.5).ok());
	// Factor 1 / 0.5 = 2 from the first submission: 100, 200, 500, 900.
	const int64_t expected[] = {100, 200, 500, 900};
	for (size_t i = 0; i < 4; ++i) {
		ck_assert_int_eq(workload.jobs[i].submit_s, expected[i]);
		ck_assert_int_eq(workload.jobs[i].log_submit_s, small_trace().jobs[i].submit_s);
	}
	ck_assert_double_eq_tol(offered_load(workload, effective_runtimes(workload)), 0.5, 1e-12);
	ck_assert(workload.notes.back().find("scaled by 2.0000") != std::string::npos);
	// Scaling again starts from the scaled times but keeps the log's own.
	ck_assert(scale_to_load(workload, 1.0).ok());
	ck_assert_int_eq(workload.jobs[3].submit_s, 500);
	ck_assert_int_eq(workload.jobs[3].log_submit_s, 500);
}
END_TEST

// Compressed to a load of 4 (factor 1/4), user 1's jobs at 100, 112 and 200 overlap differently
// than in the log; the scored campaigns are still the log's.
START_TEST(test_campaigns_scored_as_in_the_log)
{
	const Workload log = small_trace();
	Workload compressed = small_trace();
	ck_assert(scale_to_load(compressed, 4.0).ok());
	ck_assert_int_eq(compressed.jobs[3].submit_s, 200);
	const DetectionRule rule;
	ck_assert(shared_campaigns(compressed, effective_runtimes(compressed), rule) ==
	          shared_campaigns(log, effective_runtimes(log), rule));
}
END_TEST

START_TEST(test_refusals_name_the_reason)
{
	Workload closed = small_trace();
	closed.closed_loop = true;
	auto refused = scale_to_load(closed, 0.8);
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("closed-loop") != std::string::npos);
	Workload at_once = small_trace();
	for (SimJob &job : at_once.jobs)
		job.submit_s = 7;
	refused = scale_to_load(at_once, 0.8);
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("offered load unknown") != std::string::npos);
}
END_TEST

int main()
{
	Suite *suite = suite_create("offered_load");
	TCase *tc = tcase_create("load");
	tcase_add_test(tc, test_offered_load_of_a_trace);
	tcase_add_test(tc, test_scaling_stretches_inter_arrival_times);
	tcase_add_test(tc, test_campaigns_scored_as_in_the_log);
	tcase_add_test(tc, test_refusals_name_the_reason);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
