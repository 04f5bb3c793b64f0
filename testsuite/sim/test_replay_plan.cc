// campsim replay-plan: the CPU mapping, the time compression and Slurm's whole-minute limits of
// the job list a real cluster replays, and the observed run that scores what it did.
#include "check_main.h"
#include "sim_job_fixture.h"

#include "engine/observed_run.h"
#include "replay/replay_plan.h"

using namespace campaign;
using namespace campaign::sim;

namespace
{

// A 128-CPU machine; users 3 and 7.
Workload trace_window()
{
	Workload workload;
	workload.name = "window";
	workload.machine_cpus = 128;
	SimJob wide = sim_job(11, 3, 1000, 128, 7200); // the whole machine, 2 h, limit 2 h
	SimJob small = sim_job(12, 7, 1600, 1, 30);    // 30 s, limit 1 h
	small.limit_s = 3600;
	SimJob unknown = sim_job(13, 7, 4600, 48, 90); // no limit logged
	unknown.limit_s = -1;
	SimJob over = sim_job(14, 3, 7000, 3, 5000); // ran past its 3601 s limit
	over.limit_s = 3601;
	workload.jobs = {wide, small, unknown, over};
	return workload;
}

ReplayOptions cluster(double compression, CpuMap map = CpuMap::scale)
{
	ReplayOptions options;
	options.nodes = 16;
	options.cpus_per_node = 32;
	options.compression = compression;
	options.cpu_map = map;
	return options;
}

} // namespace

START_TEST(test_limits_round_up_to_whole_minutes)
{
	ck_assert_int_eq(replay_limit_minutes(3600, 60), 1); // exactly 60 s
	ck_assert_int_eq(replay_limit_minutes(3601, 60), 2); // 60.02 s: a second minute
	ck_assert_int_eq(replay_limit_minutes(1, 60), 1);    // at least one minute
	ck_assert_int_eq(replay_limit_minutes(0, 60), 1);
	ck_assert_int_eq(replay_limit_minutes(7200, 30), 4); // 240 s
	ck_assert_int_eq(replay_limit_minutes(7201, 30), 5);
	ck_assert_int_eq(replay_limit_minutes(86400, 1), 1440);
}
END_TEST

START_TEST(test_cpus_scale_to_the_cluster)
{
	ck_assert_int_eq(scaled_cpus(128, 4, 512), 512);
	ck_assert_int_eq(scaled_cpus(3, 4, 512), 12);
	ck_assert_int_eq(scaled_cpus(1, 0.25, 512), 1);  // 0.25 -> at least 1
	ck_assert_int_eq(scaled_cpus(6, 0.25, 512), 2);  // 1.5 rounds to nearest (half up)
	ck_assert_int_eq(scaled_cpus(900, 1, 512), 512); // never wider than the cluster
}
END_TEST

START_TEST(test_plan_compresses_and_maps)
{
	auto plan = plan_replay(trace_window(), cluster(60));
	ck_assert(plan.ok());
	const auto &jobs = plan.value().jobs;
	ck_assert_uint_eq(jobs.size(), 4);
	ck_assert_uint_eq(plan.value().cluster_cpus, 512);
	ck_assert_double_eq_tol(plan.value().cpu_factor, 4, 1e-12);
	// Submissions from the window's first, divided by 60 and rounded: 0, 10, 60, 100.
	const int64_t submit[] = {0, 10, 60, 100};
	const uint32_t cpus[] = {512, 4, 192, 12};
	const int64_t limit_min[] = {2, 1, 1, 2};
	// 7200/60 = 120; 30/60 = 0.5 -> 1 (llround, half away from zero); 90/60 = 1.5 -> 2;
	// min(5000, 3601)/60 = 60.02 -> 60.
	const int64_t runtime[] = {120, 1, 2, 60};
	const char *login[] = {"rp3", "rp7", "rp7", "rp3"};
	for (size_t i = 0; i < 4; ++i) {
		ck_assert_int_eq(jobs[i].submit_s, submit[i]);
		ck_assert_uint_eq(jobs[i].cpus, cpus[i]);
		ck_assert_int_eq(jobs[i].limit_min, limit_min[i]);
		ck_assert_int_eq(jobs[i].runtime_s, runtime[i]);
		ck_assert_string_eq(jobs[i].login, login[i]);
		ck_assert_int_le(jobs[i].runtime_s, jobs[i].limit_min * 60);
	}
	const ReplayCounts &counts = plan.value().counts;
	ck_assert_uint_eq(counts.unknown_limit, 1);
	// 60 s, 3600 s and 7200 s are whole minutes at 60x; 90 s (1.5 s) and 3601 s are not.
	ck_assert_uint_eq(counts.limit_rounded_up, 2);
	ck_assert_double_eq_tol(counts.limit_added_s, (60 - 1.5) + (120 - 3601 / 60.0), 1e-9);
	ck_assert_uint_eq(counts.runtime_below_1s, 0);
	const std::string csv = replay_plan_csv(plan.value());
	ck_assert(csv.starts_with("id,user,submit,cpus,limit,runtime,limit_min,"));
	ck_assert(csv.find("\n14,rp3,100,12,120,60,2,3,7000,3,3601,3601\n") != std::string::npos);
}
END_TEST

START_TEST(test_identity_map_drops_or_clamps_wide_jobs)
{
	Workload big = trace_window();
	big.machine_cpus = 1024;
	big.jobs[0].cpus = 1024;
	auto dropped = plan_replay(big, cluster(30, CpuMap::identity));
	ck_assert(dropped.ok());
	ck_assert_uint_eq(dropped.value().jobs.size(), 3);
	ck_assert_uint_eq(dropped.value().counts.wide_dropped, 1);
	ck_assert_uint_eq(dropped.value().jobs[0].cpus, 1); // as logged
	// The window still starts at the dropped job's submission: times keep their places.
	ck_assert_int_eq(dropped.value().jobs[0].submit_s, 20);
	ReplayOptions clamp = cluster(30, CpuMap::identity);
	clamp.wide = WideJobs::clamp;
	auto clamped = plan_replay(big, clamp);
	ck_assert(clamped.ok());
	ck_assert_uint_eq(clamped.value().jobs.size(), 4);
	ck_assert_uint_eq(clamped.value().counts.wide_clamped, 1);
	ck_assert_uint_eq(clamped.value().jobs[0].cpus, 512);
	ck_assert(clamped.value().notes[0].find("1 clamped") != std::string::npos);
}
END_TEST

START_TEST(test_closed_loop_is_unrolled)
{
	Workload generated;
	generated.name = "generated";
	generated.machine_cpus = 4;
	generated.closed_loop = true;
	// User 1: campaign 1 (jobs of 100 s and 300 s), then campaign 3 with 50 s think time.
	// User 2: campaign 2 at once.
	SimJob a = sim_job(1, 1, 0, 1, 100), b = sim_job(2, 1, 0, 1, 300);
	SimJob c = sim_job(3, 2, 0, 1, 60), d = sim_job(4, 1, 0, 1, 10);
	a.campaign = b.campaign = 1;
	c.campaign = 2;
	d.campaign = 3;
	d.think_s = 50;
	generated.jobs = {a, b, c, d};
	auto plan = plan_replay(generated, cluster(1));
	ck_assert(plan.ok());
	const auto &jobs = plan.value().jobs;
	ck_assert_uint_eq(jobs.size(), 4);
	ck_assert_uint_eq(jobs[3].id, 4);
	ck_assert_int_eq(jobs[3].submit_s, 350); // 0 + longest 300 + think 50
	ck_assert_uint_eq(plan.value().counts.closed_loop_jobs, 4);
}
END_TEST

START_TEST(test_bad_cluster_or_factor_refused)
{
	ReplayOptions none = cluster(60);
	none.nodes = 0;
	auto refused = plan_replay(trace_window(), none);
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("at least one node") != std::string::npos);
	refused = plan_replay(trace_window(), cluster(0.5));
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("compression") != std::string::npos);
}
END_TEST

START_TEST(test_observed_run_keeps_the_logged_times)
{
	Workload workload = trace_window();
	const int64_t starts[] = {1000, 1700, 8200, 8200};
	for (size_t i = 0; i < 4; ++i)
		workload.jobs[i].trace_start_s = starts[i];
	auto run = observed_run(workload, SimulationOptions{});
	ck_assert(run.ok());
	ck_assert_string_eq(run.value().label, "observed/log");
	ck_assert_int_eq(run.value().jobs[1].start_s, 1700);
	ck_assert_int_eq(run.value().jobs[1].end_s, 1730);
	ck_assert_int_eq(run.value().jobs[3].end_s, 8200 + 3601); // cut at its limit
	workload.jobs[2].trace_start_s = -1;
	auto refused = observed_run(workload, SimulationOptions{});
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("job 13 has no logged start") != std::string::npos);
}
END_TEST

int main()
{
	Suite *suite = suite_create("replay_plan");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, test_limits_round_up_to_whole_minutes);
	tcase_add_test(tc, test_cpus_scale_to_the_cluster);
	tcase_add_test(tc, test_plan_compresses_and_maps);
	tcase_add_test(tc, test_identity_map_drops_or_clamps_wide_jobs);
	tcase_add_test(tc, test_closed_loop_is_unrolled);
	tcase_add_test(tc, test_bad_cluster_or_factor_refused);
	tcase_add_test(tc, test_observed_run_keeps_the_logged_times);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
