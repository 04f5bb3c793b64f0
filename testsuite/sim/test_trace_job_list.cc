// The job-list reader as a specification (doc/design.md §5: the plain CSV or JSON list the cluster
// tests capture from Slurm): keys, run time from start/end, user names, drop rules and their
// counts, and errors naming the file and line (CSV) or job index (JSON).
#include "trace/job_list_reader.h"
#include "trace_test_files.h"

using namespace campaign::sim;
using campaign::Result;
using trace_test::lines;
using trace_test::noted;
using trace_test::TempDir;

namespace
{

TraceOptions on_machine(uint32_t cpus)
{
	TraceOptions options;
	options.machine_cpus = cpus;
	return options;
}

Workload read_ok(const std::string &path, const TraceOptions &options = on_machine(64))
{
	Result<Workload> result = read_job_list(path, options);
	ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
	return std::move(result).value();
}

std::string read_error(const std::string &path, const TraceOptions &options = on_machine(64))
{
	Result<Workload> result = read_job_list(path, options);
	ck_assert_msg(!result.ok(), "%s read without error", path.c_str());
	return result.error();
}

void expect_error(const std::string &path, const std::string &expected,
                  const TraceOptions &options = on_machine(64))
{
	ck_assert_string_eq(read_error(path, options), expected.c_str());
}

uint64_t dropped(const InputCounts &counts)
{
	return counts.unknown_runtime + counts.unknown_cpus + counts.outside_window +
	       counts.malformed_skipped;
}

} // namespace

START_TEST(test_job_list_csv_runtime_is_end_minus_start)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write(
	    "jobs.csv", lines({"id,user,submit,cpus,limit,start,end", "12,1001,100,4,600,110,400",
	                       "11,1002,100,2,60,130,130"})));
	ck_assert_string_eq(workload.name, "jobs.csv");
	ck_assert_uint_eq(workload.machine_cpus, 64);
	ck_assert_uint_eq(workload.jobs.size(), 2);
	const SimJob &first = workload.jobs[0]; // same submit: by id
	ck_assert_uint_eq(first.id, 11);
	ck_assert_uint_eq(first.user, 1002); // numbers as listed
	ck_assert_int_eq(first.runtime_s, 0);
	ck_assert_int_eq(first.trace_start_s, 130);
	const SimJob &second = workload.jobs[1];
	ck_assert_uint_eq(second.id, 12);
	ck_assert_int_eq(second.submit_s, 100);
	ck_assert_uint_eq(second.cpus, 4);
	ck_assert_int_eq(second.limit_s, 600);
	ck_assert_int_eq(second.runtime_s, 290);
	ck_assert_int_eq(second.trace_start_s, 110);
	ck_assert_uint_eq(second.group, 0); // no account column
	ck_assert_uint_eq(workload.counts.zero_runtime, 1);
}
END_TEST

START_TEST(test_job_list_csv_runtime_column_then_limit_then_dropped)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("runtime.csv", lines({"id,user,submit,cpus,limit,runtime,start,end",
	                                    "1,1,0,1,100,40,,", "2,1,0,1,100,,,", "3,1,0,1,-1,,,",
	                                    "4,1,0,1,100,40,10,30", "5,1,0,1,100,-1,5,"})));
	ck_assert_uint_eq(workload.jobs.size(), 4);
	ck_assert_int_eq(workload.jobs[0].runtime_s, 40);  // runtime column
	ck_assert_int_eq(workload.jobs[1].runtime_s, 100); // the limit
	ck_assert_int_eq(workload.jobs[2].runtime_s, 20);  // end - start wins over runtime
	ck_assert_int_eq(workload.jobs[3].runtime_s, 100); // start without end: the limit
	ck_assert_int_eq(workload.jobs[3].trace_start_s, 5);
	ck_assert_int_eq(workload.jobs[0].trace_start_s, -1);
	ck_assert_uint_eq(workload.counts.unknown_runtime, 1); // job 3: nothing known
	ck_assert_uint_eq(workload.counts.limit_below_runtime, 0);
	ck_assert(noted(workload.notes, "none known: 1 dropped"));
}
END_TEST

START_TEST(test_job_list_user_and_account_names_numbered_by_first_appearance)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("names.csv",
	              lines({"id,user,submit,cpus,limit,group", "1,bob,0,1,10,physics",
	                     "2,alice,1,1,10,chemistry", "3,bob,2,1,10,", "4,42,3,1,10,physics"})));
	ck_assert_uint_eq(workload.jobs[0].user, 1); // bob
	ck_assert_uint_eq(workload.jobs[1].user, 2); // alice
	ck_assert_uint_eq(workload.jobs[2].user, 1);
	ck_assert_uint_eq(workload.jobs[3].user, 3); // "42" among names is a name
	ck_assert_uint_eq(workload.jobs[0].group, 1);
	ck_assert_uint_eq(workload.jobs[1].group, 2);
	ck_assert_uint_eq(workload.jobs[2].group, 0); // none given
	ck_assert_uint_eq(workload.jobs[3].group, 1);
	ck_assert(noted(workload.notes, "users: names numbered 1, 2, ..."));
}
END_TEST

START_TEST(test_job_list_csv_header_is_free_in_order_case_and_extra_columns)
{
	TempDir dir;
	const Workload workload =
	    read_ok(dir.write("loose.csv", "# captured by the cluster test\r\n"
	                                   "State, CPUS ,Limit,Submit,User,Account,ID,Name\r\n"
	                                   "\r\n"
	                                   "COMPLETED,2,300,50,7,9,3,\"sleep, then exit\"\r\n"
	                                   "COMPLETED,1,300,50,8,9,4,\"say \"\"hi\"\"\"\r\n"));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.jobs[0].id, 3);
	ck_assert_uint_eq(workload.jobs[0].cpus, 2);
	ck_assert_uint_eq(workload.jobs[0].user, 7);
	ck_assert_uint_eq(workload.jobs[0].group, 9);
	ck_assert_int_eq(workload.jobs[0].limit_s, 300);
	ck_assert_int_eq(workload.jobs[0].submit_s, 50);
}
END_TEST

START_TEST(test_job_list_drops_unknown_cpus_clamps_wide_jobs_and_applies_the_window)
{
	TempDir dir;
	const std::string path =
	    dir.write("drops.csv", lines({"id,user,submit,cpus,limit", "1,1,0,-1,10",
	                                  "2,1,10,100,10", "3,1,20,1,10", "4,1,30,1,10"}));
	TraceOptions options = on_machine(16);
	options.from_s = 10;
	options.to_s = 30;
	const Workload workload = read_ok(path, options);
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.jobs[0].cpus, 16);
	ck_assert_uint_eq(workload.counts.clamped_cpus, 1);
	ck_assert_uint_eq(workload.counts.outside_window, 2); // jobs 1 (before CPUs) and 4
	ck_assert_uint_eq(workload.counts.unknown_cpus, 0);
	const Workload all = read_ok(path, on_machine(16));
	ck_assert_uint_eq(all.counts.unknown_cpus, 1);
	ck_assert_uint_eq(all.counts.kept + dropped(all.counts), all.counts.lines);
	ck_assert(noted(all.notes, "CPUs -1 (unknown): 1 dropped"));
}
END_TEST

START_TEST(test_job_list_csv_errors_name_file_and_line)
{
	TempDir dir;
	const std::string header = "id,user,submit,cpus,limit,start,end";
	const struct {
		std::string row;
		std::string message;
	} cases[] = {
	    {"2,1,0,x,10,,", "column 'cpus' is not a number: 'x'"},
	    {"2,1,0,1,10", "expected 7 columns, found 5"},
	    {"2,,0,1,10,,", "column 'user' is empty"},
	    {"2,1,,1,10,,", "column 'submit' is empty"},
	    {"2,1,-3,1,10,,", "'submit' is negative: -3"},
	    {"2,1,0,0,10,,", "'cpus' is not positive (or -1, unknown): 0"},
	    {"2,1,0,1,-5,,", "'limit' is below -1 (unknown): -5"},
	    {"2,1,10,1,10,5,20", "'start' (5) is before 'submit' (10)"},
	    {"2,1,0,1,10,20,15", "'end' (15) is before 'start' (20)"},
	    {"2,1,0,1,10,\"5,", "unterminated quote"},
	    {"1,1,0,1,10,,", "duplicate id 1 (first at PATH:3)"},
	};
	for (const auto &each : cases) {
		// A comment, the header, a good job, then the bad one on line 4.
		const std::string path =
		    dir.write("bad.csv", lines({"# list", header, "1,1,0,1,10,,", each.row}));
		std::string message = each.message;
		if (const size_t at = message.find("PATH"); at != std::string::npos)
			message.replace(at, 4, path);
		expect_error(path, path + ":4: " + message);
	}
}
END_TEST

START_TEST(test_job_list_csv_header_errors)
{
	TempDir dir;
	const std::string missing =
	    dir.write("missing.csv", lines({"id,user,submit,cpus", "1,1,0,1"}));
	expect_error(missing, missing + ":1: header: missing column 'limit' (required: id, user, "
	                                "submit, cpus, limit)");
	const std::string twice =
	    dir.write("twice.csv", lines({"", "id,user,submit,cpus,limit,account,group"}));
	expect_error(twice, twice + ":2: header: column 'group' given twice (account and group "
	                            "are one column)");
	const std::string empty = dir.write("empty.csv", "# nothing\n");
	expect_error(empty, empty + ": no header line (id, user, submit, cpus, limit, ...)");
}
END_TEST

START_TEST(test_job_list_csv_lenient_skips_and_counts_bad_lines)
{
	TempDir dir;
	const std::string path = dir.write(
	    "lenient.csv", lines({"id,user,submit,cpus,limit", "1,1,0,1,10", "2,1,0,one,10",
	                          "3,1,0,1", "1,1,5,1,10", "4,1,0,1,10"}));
	expect_error(path, path + ":3: column 'cpus' is not a number: 'one'");
	TraceOptions options = on_machine(8);
	options.lenient = true;
	const Workload workload = read_ok(path, options);
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.counts.malformed_skipped, 3);
	ck_assert_uint_eq(workload.counts.lines, 5);
	ck_assert_uint_eq(workload.counts.kept + dropped(workload.counts), workload.counts.lines);
	ck_assert(noted(workload.notes, "malformed jobs: 3 skipped (lenient); first: " + path +
	                                    ":3: column 'cpus' is not a number: 'one'"));
}
END_TEST

START_TEST(test_job_list_machine_size_is_required)
{
	TempDir dir;
	const std::string csv =
	    dir.write("jobs.csv", lines({"id,user,submit,cpus,limit", "1,1,0,1,10"}));
	expect_error(
	    csv,
	    csv + ": machine size unknown: give the machine_cpus option (or \"machine_cpus\" in "
	          "a JSON list)",
	    TraceOptions{});
	const std::string json = dir.write(
	    "jobs.json", R"([{"id": 1, "user": 1, "submit": 0, "cpus": 1, "limit": 10}])");
	ck_assert(!read_job_list(json, TraceOptions{}).ok());
}
END_TEST

START_TEST(test_job_list_json_array_with_names_and_nulls)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write("jobs.json", R"(
  [
    {"id": 5, "user": "carol", "account": "bio", "submit": 10, "cpus": 3, "limit": 100,
     "start": 20, "end": 80, "partition": "debug"},
    {"id": 6, "user": "dave", "submit": 12, "cpus": 1, "limit": 50, "start": null,
     "end": null, "runtime": 30}
  ])"));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.jobs[0].user, 1);
	ck_assert_uint_eq(workload.jobs[0].group, 1);
	ck_assert_int_eq(workload.jobs[0].runtime_s, 60);
	ck_assert_int_eq(workload.jobs[0].trace_start_s, 20);
	ck_assert_uint_eq(workload.jobs[1].user, 2);
	ck_assert_uint_eq(workload.jobs[1].group, 0);
	ck_assert_int_eq(workload.jobs[1].runtime_s, 30);
	ck_assert_int_eq(workload.jobs[1].trace_start_s, -1);
	ck_assert(noted(workload.notes, "(job list, JSON)"));
}
END_TEST

START_TEST(test_job_list_json_object_gives_machine_option_overrides)
{
	TempDir dir;
	const std::string path = dir.write("machine.json", R"({"machine_cpus": 8, "jobs": [
		{"id": 1, "user": 4, "group": 2, "submit": 0, "cpus": 12, "limit": 10}]})");
	const Workload listed = read_ok(path, TraceOptions{});
	ck_assert_uint_eq(listed.machine_cpus, 8);
	ck_assert_uint_eq(listed.jobs[0].cpus, 8);
	ck_assert_uint_eq(listed.jobs[0].user, 4);
	ck_assert_uint_eq(listed.jobs[0].group, 2);
	ck_assert_uint_eq(listed.counts.clamped_cpus, 1);
	ck_assert(noted(listed.notes, "machine: 8 CPUs (the list's machine_cpus)"));
	const Workload overridden = read_ok(path, on_machine(32));
	ck_assert_uint_eq(overridden.machine_cpus, 32);
	ck_assert_uint_eq(overridden.jobs[0].cpus, 12);
}
END_TEST

START_TEST(test_job_list_json_errors_name_file_and_job_index)
{
	TempDir dir;
	const std::string good = R"({"id": 1, "user": 1, "submit": 0, "cpus": 1, "limit": 10})";
	const struct {
		std::string job;
		std::string message;
	} cases[] = {
	    {R"({"id": 2, "user": 1, "submit": 0, "cpus": 1})", "missing 'limit'"},
	    {R"({"id": 2, "user": 1, "submit": "0", "cpus": 1, "limit": 10})",
	     "'submit' is not an integer"},
	    {R"({"id": 2, "user": 1, "submit": 0, "cpus": 1.5, "limit": 10})",
	     "'cpus' is not an integer"},
	    {R"({"id": 2, "user": [1], "submit": 0, "cpus": 1, "limit": 10})",
	     "'user' is neither a number nor a name"},
	    {R"({"id": 2, "user": 1, "group": true, "submit": 0, "cpus": 1, "limit": 10})",
	     "'group' is neither a number nor a name"},
	    {R"({"id": 2, "user": 1, "submit": 9, "cpus": 1, "limit": 10, "start": 3})",
	     "'start' (3) is before 'submit' (9)"},
	    {R"([2, 1, 0, 1, 10])", "not an object"},
	    {good, "duplicate id 1 (first at PATH: jobs[0])"},
	};
	for (const auto &each : cases) {
		const std::string path = dir.write("bad.json", "[" + good + ",\n" + each.job + "]");
		std::string message = each.message;
		if (const size_t at = message.find("PATH"); at != std::string::npos)
			message.replace(at, 4, path);
		expect_error(path, path + ": jobs[1]: " + message);
	}
}
END_TEST

START_TEST(test_job_list_json_document_errors)
{
	TempDir dir;
	const std::string broken = dir.write("broken.json", "[\n{\"id\": 1,\n\"user\": }\n]");
	const std::string error = read_error(broken);
	ck_assert_msg(error.rfind(broken + ":3: invalid JSON: ", 0) == 0, "%s", error.c_str());
	const std::string no_jobs = dir.write("nojobs.json", R"({"machine_cpus": 4})");
	expect_error(no_jobs, no_jobs + ": \"jobs\" is missing or not an array");
	const std::string bad_machine =
	    dir.write("machine.json", R"({"machine_cpus": 0, "jobs": []})");
	expect_error(bad_machine, bad_machine + ": \"machine_cpus\" is not a positive integer");
}
END_TEST

START_TEST(test_job_list_json_lenient_skips_and_counts_bad_jobs)
{
	TempDir dir;
	const std::string path = dir.write("lenient.json", R"([
		{"id": 1, "user": 1, "submit": 0, "cpus": 1, "limit": 10},
		{"id": 2, "user": 1, "submit": 0, "cpus": 1},
		"junk",
		{"id": 3, "user": 1, "submit": 0, "cpus": -1, "limit": 10}])");
	TraceOptions options = on_machine(4);
	options.lenient = true;
	const Workload workload = read_ok(path, options);
	ck_assert_uint_eq(workload.jobs.size(), 1);
	ck_assert_uint_eq(workload.counts.malformed_skipped, 2);
	ck_assert_uint_eq(workload.counts.unknown_cpus, 1);
	ck_assert_uint_eq(workload.counts.lines, 4);
	ck_assert(noted(workload.notes, "first: " + path + ": jobs[1]: missing 'limit'"));
}
END_TEST

// Issue 12: a limit of 0 (Slurm's and SWF's "no limit given") made a long job a 0 s job; it is
// unknown (-1) instead, so a job with no run time and limit 0 has no known run time. Job 3
// loses (50 - 20) s on 2 CPUs = 60 of the kept jobs' 2 * 500 + 2 * 50 = 1100 CPU-s (5.5 %).
START_TEST(test_job_list_zero_limit_is_unknown_and_cut_cpu_seconds_counted)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("limits.csv", lines({"id,user,submit,cpus,limit,start,end", "1,1,0,2,0,0,500",
	                                   "2,1,0,1,0,,", "3,1,0,2,20,0,50"})));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_int_eq(workload.jobs[0].limit_s, -1);
	ck_assert_int_eq(workload.jobs[0].runtime_s, 500);
	ck_assert_uint_eq(workload.counts.unknown_runtime, 1); // job 2: limit 0 is no run time
	ck_assert_uint_eq(workload.counts.zero_limit_unknown, 1);
	ck_assert_uint_eq(workload.counts.limit_below_runtime, 1);
	ck_assert_uint_eq(workload.counts.cut_at_limit_cpu_s, 60);
	ck_assert_uint_eq(workload.counts.work_cpu_s, 1100);
	ck_assert(noted(workload.notes, "limit 0: 1 read as unknown"));
	ck_assert(noted(workload.notes, "60 of the log's 1100 CPU-seconds lost (5.5 %)"));
}
END_TEST

START_TEST(test_job_list_missing_file_names_it)
{
	TempDir dir;
	const std::string path = dir.path("absent.csv");
	expect_error(path, path + ": cannot open: No such file or directory");
}
END_TEST

int main()
{
	Suite *suite = suite_create("trace_job_list");
	TCase *tc = tcase_create("job_list");
	tcase_add_test(tc, test_job_list_csv_runtime_is_end_minus_start);
	tcase_add_test(tc, test_job_list_csv_runtime_column_then_limit_then_dropped);
	tcase_add_test(tc, test_job_list_user_and_account_names_numbered_by_first_appearance);
	tcase_add_test(tc, test_job_list_csv_header_is_free_in_order_case_and_extra_columns);
	tcase_add_test(tc,
	               test_job_list_drops_unknown_cpus_clamps_wide_jobs_and_applies_the_window);
	tcase_add_test(tc, test_job_list_csv_errors_name_file_and_line);
	tcase_add_test(tc, test_job_list_csv_header_errors);
	tcase_add_test(tc, test_job_list_csv_lenient_skips_and_counts_bad_lines);
	tcase_add_test(tc, test_job_list_machine_size_is_required);
	tcase_add_test(tc, test_job_list_json_array_with_names_and_nulls);
	tcase_add_test(tc, test_job_list_json_object_gives_machine_option_overrides);
	tcase_add_test(tc, test_job_list_json_errors_name_file_and_job_index);
	tcase_add_test(tc, test_job_list_json_document_errors);
	tcase_add_test(tc, test_job_list_json_lenient_skips_and_counts_bad_jobs);
	tcase_add_test(tc, test_job_list_zero_limit_is_unknown_and_cut_cpu_seconds_counted);
	tcase_add_test(tc, test_job_list_missing_file_names_it);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
