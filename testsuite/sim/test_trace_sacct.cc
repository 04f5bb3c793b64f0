// The sacct reader as a specification (doc/evaluate-your-cluster.md): columns by name, steps,
// array tasks, requeues (--duplicates), cancelled and unfinished jobs counted, Eligible as the
// arrival, Slurm's time and duration formats, anonymised users, errors naming line and column;
// and a sample exported by a real sacct (make_sacct_sample.sh).
#include "trace/sacct_fields.h"
#include "trace/sacct_reader.h"
#include "trace_test_files.h"

using namespace campaign::sim;
using campaign::Result;
using trace_test::lines;
using trace_test::noted;
using trace_test::TempDir;

namespace
{

constexpr int64_t nov1 = 1793491200; // 2026-11-01T00:00:00 UTC (date -u -d 2026-11-01 +%s)

TraceOptions on_machine(uint32_t cpus)
{
	TraceOptions options;
	options.machine_cpus = cpus;
	return options;
}

Workload read_ok(const std::string &path, const TraceOptions &options = on_machine(16))
{
	Result<Workload> result = read_sacct(path, options);
	ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
	return std::move(result).value();
}

void expect_error(const std::string &path, const std::string &expected,
                  const TraceOptions &options = on_machine(16))
{
	Result<Workload> result = read_sacct(path, options);
	ck_assert_msg(!result.ok(), "%s read without error", path.c_str());
	ck_assert_str_eq(result.error().c_str(), expected.c_str());
}

const SimJob &job_with_id(const Workload &workload, uint64_t id)
{
	for (const SimJob &job : workload.jobs) {
		if (job.id == id)
			return job;
	}
	ck_abort_msg("job %llu not kept", static_cast<unsigned long long>(id));
	return workload.jobs.front();
}

// Every case of the brief in one export, columns in an order of their own (line numbers in the
// comments of the test below).
const std::vector<std::string> every_case = {
    "State|JobID|User|Submit|Eligible|Start|End|ElapsedRaw|TimelimitRaw|AllocCPUS|ReqCPUS|"
    "Account|Partition|JobIDRaw|NNodes",
    "COMPLETED|100|alice|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-01T00:00:10|"
    "2026-11-01T00:01:10|60|5|4|4|phys|batch|100|1",
    "COMPLETED|100.batch||2026-11-01T00:00:10|2026-11-01T00:00:10|2026-11-01T00:00:10|"
    "2026-11-01T00:01:10|60||4|4|phys||100.batch|1",
    "COMPLETED|100.extern||2026-11-01T00:00:10|2026-11-01T00:00:10|2026-11-01T00:00:10|"
    "2026-11-01T00:01:10|60||4|4|phys||100.extern|1",
    "COMPLETED|100.0||2026-11-01T00:00:11|2026-11-01T00:00:11|2026-11-01T00:00:11|"
    "2026-11-01T00:01:09|58||4|4|phys||100.0|1",
    "COMPLETED|200_1|bob|2026-11-01T00:01:00|2026-11-01T00:01:00|2026-11-01T00:02:00|"
    "2026-11-01T00:02:30|30|1|1|1|bio|batch|201|1",
    "TIMEOUT|200_2|bob|2026-11-01T00:01:00|2026-11-01T00:01:00|2026-11-01T00:02:00|"
    "2026-11-01T00:03:01|61|1|1|1|bio|batch|202|1",
    "PENDING|200_[3-5]|bob|2026-11-01T00:01:00|2026-11-01T00:01:00|Unknown|Unknown|0|1|0|1|"
    "bio|batch|200|1",
    "REQUEUED|300|carol|2026-11-01T00:02:00|2026-11-01T00:02:00|2026-11-01T00:02:05|"
    "2026-11-01T00:02:35|30|10|2|2|phys|batch|300|1",
    "COMPLETED|300|carol|2026-11-01T00:02:00|2026-11-01T00:04:00|2026-11-01T00:05:00|"
    "2026-11-01T00:07:00|120|10|2|2|phys|batch|300|1",
    "CANCELLED by 0|400|dave|2026-11-01T00:03:00|Unknown|None|2026-11-01T00:03:30|0|5|0|1|"
    "bio|batch|400|0",
    "CANCELLED by 1001|401|dave|2026-11-01T00:03:00|2026-11-01T00:03:00|"
    "2026-11-01T00:03:10|2026-11-01T00:04:00|50|UNLIMITED|3|3|bio|debug|401|1",
    "RUNNING|500|erin|2026-11-01T00:04:00|2026-11-01T00:04:00|2026-11-01T00:04:05|Unknown|"
    "100|Partition_Limit|1|1|phys|batch|500|1",
    "PENDING|501|erin|2026-11-01T00:04:00|2026-11-01T00:04:00|Unknown|Unknown|0|5|0|2|phys|"
    "batch|501|1",
    "COMPLETED|600|alice|2026-11-01T00:05:00|2026-11-01T00:06:40|2026-11-01T00:06:40|"
    "2026-11-01T00:07:00|20|Partition_Limit|0|2|phys|batch|600|1",
    "COMPLETED|700|frank|2026-11-01T00:06:00|Unknown|2026-11-01T00:06:00|"
    "2026-11-01T00:06:00|0|0|1|1||batch|700|1",
};

} // namespace

START_TEST(test_sacct_every_case_counted_once)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write("month.txt", lines(every_case)));
	const InputCounts &counts = workload.counts;
	ck_assert_str_eq(workload.name.c_str(), "month.txt");
	ck_assert_uint_eq(workload.machine_cpus, 16);
	ck_assert_uint_eq(counts.lines, 15);
	ck_assert_uint_eq(counts.steps_dropped, 3);        // 100.batch, 100.extern, 100.0
	ck_assert_uint_eq(counts.earlier_runs_dropped, 1); // 300's REQUEUED run
	ck_assert_uint_eq(counts.unfinished_dropped, 3);   // 200_[3-5], 500 running, 501
	ck_assert_uint_eq(counts.cancelled_dropped, 1);    // 400, never started
	ck_assert_uint_eq(counts.kept, 7);
	ck_assert_uint_eq(counts.steps_dropped + counts.earlier_runs_dropped +
	                      counts.unfinished_dropped + counts.cancelled_dropped + counts.kept,
	                  counts.lines);
	ck_assert_uint_eq(counts.array_tasks, 2);
	ck_assert_uint_eq(counts.eligible_after_submit, 1); // 600, held 100 s
	ck_assert_uint_eq(counts.zero_runtime, 1);          // 700
	ck_assert_uint_eq(counts.zero_limit_unknown, 1);    // 700
	ck_assert_uint_eq(counts.limit_below_runtime, 1);   // 202, timed out 1 s past its minute
	// Sorted by arrival, then id.
	const uint64_t order[] = {100, 201, 202, 300, 401, 700, 600};
	for (size_t i = 0; i < 7; ++i)
		ck_assert_uint_eq(workload.jobs[i].id, order[i]);
	ck_assert(noted(workload.notes, "job steps (123.batch, 123.0, 123.extern): 3 dropped"));
	ck_assert(noted(workload.notes, "cancelled before they ran: 1 dropped"));
}
END_TEST

START_TEST(test_sacct_job_fields_from_the_columns)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write("month.txt", lines(every_case)));
	const SimJob &first = job_with_id(workload, 100);
	ck_assert_int_eq(first.submit_s, nov1);
	ck_assert_int_eq(first.trace_start_s, nov1 + 10);
	ck_assert_int_eq(first.runtime_s, 60);
	ck_assert_int_eq(first.limit_s, 300); // TimelimitRaw is minutes
	ck_assert_uint_eq(first.cpus, 4);
	ck_assert_uint_eq(first.user, 1); // alice, bob, carol, dave, erin, frank: 1..6
	ck_assert_uint_eq(first.group, 1);
	ck_assert_uint_eq(job_with_id(workload, 202).user, 2);
	ck_assert_int_eq(job_with_id(workload, 202).runtime_s, 61);
	ck_assert_uint_eq(job_with_id(workload, 700).user, 6);
	ck_assert_uint_eq(job_with_id(workload, 700).group, 0); // no account
	ck_assert_int_eq(job_with_id(workload, 700).limit_s, -1);
	ck_assert_str_eq(workload.user_names.at(3).c_str(), "carol");
	ck_assert_uint_eq(workload.user_names.size(), 6);
}
END_TEST

START_TEST(test_sacct_requeued_job_keeps_first_arrival_and_last_run)
{
	TempDir dir;
	// The workload is kept: job_with_id returns a reference into it.
	const Workload workload = read_ok(dir.write("month.txt", lines(every_case)));
	const SimJob &job = job_with_id(workload, 300);
	ck_assert_int_eq(job.submit_s, nov1 + 120);      // the first record's arrival
	ck_assert_int_eq(job.trace_start_s, nov1 + 300); // the last record's run
	ck_assert_int_eq(job.runtime_s, 120);
	ck_assert_int_eq(job.limit_s, 600);
	ck_assert_uint_eq(job.cpus, 2);
}
END_TEST

START_TEST(test_sacct_cancelled_while_running_kept_with_its_run)
{
	TempDir dir;
	// The workload is kept: job_with_id returns a reference into it.
	const Workload workload = read_ok(dir.write("month.txt", lines(every_case)));
	const SimJob &job = job_with_id(workload, 401);
	ck_assert_int_eq(job.runtime_s, 50);
	ck_assert_int_eq(job.status, 5);
	ck_assert_int_eq(job.limit_s, -1); // UNLIMITED
	ck_assert_uint_eq(job.cpus, 3);
	ck_assert_uint_eq(job.partition, 2); // debug after batch
}
END_TEST

START_TEST(test_sacct_arrival_is_eligible_when_later_than_submit)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write("month.txt", lines(every_case)));
	const SimJob &held = job_with_id(workload, 600);
	ck_assert_int_eq(held.submit_s, nov1 + 400); // Eligible, 100 s after Submit
	ck_assert_int_eq(held.limit_s, -1);          // Partition_Limit
	ck_assert_uint_eq(held.cpus, 2);             // AllocCPUS 0: ReqCPUS
	ck_assert_int_eq(job_with_id(workload, 700).submit_s, nov1 + 360); // Eligible Unknown
}
END_TEST

START_TEST(test_sacct_anonymise_names_users_in_order_of_appearance)
{
	TempDir dir;
	TraceOptions options = on_machine(16);
	options.anonymise = true;
	const Workload workload = read_ok(dir.write("month.txt", lines(every_case)), options);
	ck_assert_uint_eq(workload.user_names.size(), 6);
	for (const auto &[number, name] : workload.user_names) {
		const std::string pseudonym = "u" + std::to_string(number); // outlives the check
		ck_assert_str_eq(name.c_str(), pseudonym.c_str());
	}
	ck_assert_uint_eq(job_with_id(workload, 300).user, 3);
	ck_assert(noted(workload.notes, "named u1, u2, ... (--anonymise)"));
}
END_TEST

START_TEST(test_sacct_durations_elapsed_and_timelimit_columns)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write(
	    "formats.txt",
	    lines({"JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit|Elapsed",
	           "1|u|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-02T02:03:04|COMPLETED|1|"
	           "2-00:00:00|1-02:03:04",
	           "2|u|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-01T00:10:00|COMPLETED|1|"
	           "30:00|00:10:00"})));
	ck_assert_int_eq(job_with_id(workload, 1).runtime_s, 93784);
	ck_assert_int_eq(job_with_id(workload, 1).limit_s, 172800);
	ck_assert_int_eq(job_with_id(workload, 2).limit_s, 1800);
	const Workload without_elapsed = read_ok(dir.write(
	    "ends.txt", lines({"JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit",
	                       "3|u|2026-11-01T00:00:00|2026-11-01T00:00:05|2026-11-01T00:01:00|"
	                       "FAILED|2|UNLIMITED"})));
	ck_assert_int_eq(without_elapsed.jobs[0].runtime_s, 55); // End - Start
	const std::string path =
	    dir.write("backwards.txt",
	              lines({"JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit",
	                     "4|u|2026-11-01T00:00:00|2026-11-01T00:01:00|2026-11-01T00:00:30|"
	                     "FAILED|2|UNLIMITED"}));
	expect_error(path, path + ":2: column End: '2026-11-01T00:00:30' is before Start "
	                          "'2026-11-01T00:01:00'");
}
END_TEST

START_TEST(test_sacct_field_formats)
{
	ck_assert_int_eq(*parse_sacct_time("2026-11-25T19:20:01").value(), 1795634401);
	ck_assert_int_eq(*parse_sacct_time("2024-02-29T00:00:00").value(), 1709164800);
	ck_assert(!parse_sacct_time("Unknown").value());
	ck_assert(!parse_sacct_time("None").value());
	ck_assert(!parse_sacct_time("").value());
	ck_assert(!parse_sacct_time("2026-02-29T00:00:00").ok());
	ck_assert(!parse_sacct_time("2026-11-25 19:20:01").ok());
	ck_assert(!parse_sacct_time("11/25-19:20:01").ok());
	ck_assert_int_eq(parse_sacct_duration("1-02:03:04").value(), 93784);
	ck_assert_int_eq(parse_sacct_duration("1-02:03").value(), 93780);
	ck_assert_int_eq(parse_sacct_duration("1-02").value(), 93600);
	ck_assert_int_eq(parse_sacct_duration("02:03:04").value(), 7384);
	ck_assert_int_eq(parse_sacct_duration("03:04").value(), 184);
	ck_assert_int_eq(parse_sacct_duration("5").value(), 300);
	for (const char *bad : {"", "1:2:3:4", "a", "01:60:00", "-5", "1--02"})
		ck_assert_msg(!parse_sacct_duration(bad).ok(), "'%s' read as a duration", bad);
	ck_assert(!parse_sacct_limit("UNLIMITED", false).value());
	ck_assert(!parse_sacct_limit("Partition_Limit", true).value());
	ck_assert_int_eq(*parse_sacct_limit("90", true).value(), 5400);
	ck_assert(!parse_sacct_limit("1:00", true).ok());
	ck_assert(parse_sacct_state("CANCELLED by 1001").value() == SacctStateKind::cancelled);
	ck_assert(parse_sacct_state("OUT_OF_MEMORY").value() == SacctStateKind::finished);
	ck_assert(parse_sacct_state("REQUEUED").value() == SacctStateKind::unfinished);
	ck_assert(!parse_sacct_state("DONE").ok());
}
END_TEST

START_TEST(test_sacct_errors_name_line_and_column)
{
	TempDir dir;
	const std::string header = "JobID|User|Submit|Start|End|State|AllocCPUS|Timelimit";
	const std::string good =
	    "1|u|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-01T00:01:00|COMPLETED|1|00:05:00";
	std::string path = dir.write("time.txt", lines({header, good,
	                                                "2|u|2026-11-01 00:00:00|Unknown|Unknown|"
	                                                "PENDING|0|00:05:00"}));
	expect_error(path, path + ":3: column Submit: '2026-11-01 00:00:00' is not a time "
	                          "YYYY-MM-DDTHH:MM:SS (sacct's default format; unset "
	                          "SLURM_TIME_FORMAT)");
	path = dir.write("state.txt", lines({header, "2|u|2026-11-01T00:00:00|Unknown|Unknown|"
	                                             "DONE|0|00:05:00"}));
	expect_error(path, path + ":2: column State: unknown state 'DONE'");
	path =
	    dir.write("count.txt", lines({header, "2|u|2026-11-01T00:00:00|Unknown|PENDING|0|1"}));
	expect_error(path,
	             path + ":2: expected 8 columns separated by '|' as in the header, found 7");
	path = dir.write("limit.txt", lines({header, good, good,
	                                     "2|u|2026-11-01T00:00:00|Unknown|"
	                                     "Unknown|PENDING|0|soon"}));
	expect_error(path, path + ":4: column Timelimit: 'soon' is not a duration [D-]HH:MM:SS, "
	                          "D-HH:MM, D-HH, MM:SS or MM, UNLIMITED or Partition_Limit");
	path = dir.write("cpus.txt", lines({header, "2|u|2026-11-01T00:00:00|Unknown|Unknown|"
	                                            "PENDING|-2|5"}));
	expect_error(path, path + ":2: column AllocCPUS: '-2' is not a CPU count");
	path = dir.write("user.txt", lines({header, "2||2026-11-01T00:00:00|Unknown|Unknown|"
	                                            "PENDING|0|5"}));
	expect_error(path, path + ":2: column User: empty (every job has a user)");
	path =
	    dir.write("array.txt", lines({header, "5_1|u|2026-11-01T00:00:00|2026-11-01T00:00:00|"
	                                          "2026-11-01T00:01:00|COMPLETED|1|5"}));
	expect_error(path, path + ":2: column JobID: '5_1' (an array task or a heterogeneous job's "
	                          "part) has no job number of its own: add JobIDRaw to sacct's "
	                          "--format");
	path = dir.write("same.txt",
	                 lines({header + "|JobIDRaw", good + "|7", "1_2" + good.substr(1) + "|7"}));
	expect_error(path, path + ":3: job number 7 already on line 2");
}
END_TEST

START_TEST(test_sacct_header_errors)
{
	TempDir dir;
	std::string path =
	    dir.write("no_cpus.txt", "JobID|User|Submit|Start|End|State|Timelimit\n");
	expect_error(path, path + ":1: the header has no column AllocCPUS (see campsim(1), \"sacct "
	                          "input\", for the command)");
	path = dir.write("no_limit.txt", "JobID|User|Submit|Start|End|State|AllocCPUS\n");
	expect_error(path, path + ":1: the header has no column Timelimit or TimelimitRaw (see "
	                          "campsim(1), \"sacct input\", for the command)");
	path = dir.write("noheader.txt", "100|alice|2026-11-01T00:00:00|COMPLETED\n");
	expect_error(path, path +
	                       ":1: no sacct header line (run sacct with --parsable2 and without "
	                       "--noheader): '100|alice|2026-11-01T00:00:00|COMPLETED'");
	path = dir.write("empty.txt", "\n");
	expect_error(path, path + ": empty: no sacct header line");
}
END_TEST

START_TEST(test_sacct_parsable_trailing_bar_and_lenient)
{
	TempDir dir;
	const Workload trailing = read_ok(dir.write(
	    "parsable.txt", lines({"jobid|user|submit|start|end|state|alloccpus|timelimitraw|",
	                           "1|u|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-01T00:01:"
	                           "00|COMPLETED|1|5|"})));
	ck_assert_uint_eq(trailing.jobs.size(), 1);
	TraceOptions lenient = on_machine(4);
	lenient.lenient = true;
	const Workload skipped = read_ok(
	    dir.write("bad.txt",
	              lines({"JobID|User|Submit|Start|End|State|AllocCPUS|TimelimitRaw",
	                     "1|u|2026-11-01T00:00:00|2026-11-01T00:00:00|2026-11-01T00:01:00|"
	                     "COMPLETED|1|5",
	                     "2|u|yesterday|Unknown|Unknown|PENDING|0|5"})),
	    lenient);
	ck_assert_uint_eq(skipped.counts.malformed_skipped, 1);
	ck_assert_uint_eq(skipped.jobs.size(), 1);
	ck_assert(noted(skipped.notes, "bad.txt:3: column Submit: 'yesterday'"));
}
END_TEST

// A real export: make_sacct_sample.sh ran it on a local cluster with slurmdbd (Slurm 22.05).
START_TEST(test_sacct_real_sample)
{
	const Workload workload = read_ok(SACCT_SAMPLE, on_machine(8));
	const InputCounts &counts = workload.counts;
	ck_assert_uint_eq(counts.kept, 9);
	ck_assert_uint_eq(counts.steps_dropped, 13);       // .batch, .0, .1
	ck_assert_uint_eq(counts.earlier_runs_dropped, 1); // the requeued job's first run
	ck_assert_uint_eq(counts.unfinished_dropped, 2);   // running and pending at export
	ck_assert_uint_eq(counts.cancelled_dropped, 1);    // pending on a full machine, cancelled
	ck_assert_uint_eq(counts.array_tasks, 3);
	ck_assert_uint_eq(counts.eligible_after_submit, 1); // --begin=now+20
	ck_assert_uint_eq(workload.user_names.size(), 8);   // camp1 .. camp8
	const SimJob &requeued = job_with_id(workload, 7);
	ck_assert_int_eq(requeued.submit_s, 1795635797); // 19:43:17, the first run's arrival
	ck_assert_int_eq(requeued.trace_start_s,
	                 1795635925); // 19:45:25, after Slurm's requeue delay
	ck_assert_int_eq(requeued.runtime_s, 10);
	ck_assert_int_eq(job_with_id(workload, 6).runtime_s, 7);         // cancelled while running
	ck_assert_int_eq(job_with_id(workload, 5).runtime_s, 60);        // TIMEOUT at its minute
	ck_assert_int_eq(job_with_id(workload, 4).submit_s, 1795635817); // Eligible, 20 s later
	ck_assert_uint_eq(job_with_id(workload, 2).cpus, 1);             // array task 2_3
}
END_TEST

int main()
{
	Suite *suite = suite_create("trace_sacct");
	TCase *tc = tcase_create("sacct");
	tcase_add_test(tc, test_sacct_every_case_counted_once);
	tcase_add_test(tc, test_sacct_job_fields_from_the_columns);
	tcase_add_test(tc, test_sacct_requeued_job_keeps_first_arrival_and_last_run);
	tcase_add_test(tc, test_sacct_cancelled_while_running_kept_with_its_run);
	tcase_add_test(tc, test_sacct_arrival_is_eligible_when_later_than_submit);
	tcase_add_test(tc, test_sacct_anonymise_names_users_in_order_of_appearance);
	tcase_add_test(tc, test_sacct_durations_elapsed_and_timelimit_columns);
	tcase_add_test(tc, test_sacct_field_formats);
	tcase_add_test(tc, test_sacct_errors_name_line_and_column);
	tcase_add_test(tc, test_sacct_header_errors);
	tcase_add_test(tc, test_sacct_parsable_trailing_bar_and_lenient);
	tcase_add_test(tc, test_sacct_real_sample);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
