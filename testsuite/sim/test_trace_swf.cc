// The SWF reader as a specification: the Parallel Workloads Archive's conventions (field
// definitions: Feitelson et al., "Experience with using the Parallel Workloads Archive", JPDC
// 2014, and the archive's swf.html), each drop/keep rule with its count, and culprit errors.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <zlib.h>

#include "trace/swf_reader.h"
#include "trace_test_files.h"

using namespace campaign::sim;
using campaign::Result;
using trace_test::lines;
using trace_test::noted;
using trace_test::TempDir;

namespace
{

struct Line {
	int64_t id = 1, submit = 0, wait = 10, run = 100, allocated = 4;
	int64_t requested_cpus = 4, requested_time = 200, status = 1, user = 1, group = 1;
	int64_t partition = 1;
};

// The 18 SWF fields of `line`; the fields the reader ignores hold -1 (6, 7, 10, 14, 15, 17, 18).
std::string swf(const Line &line)
{
	const int64_t fields[18] = {line.id,
	                            line.submit,
	                            line.wait,
	                            line.run,
	                            line.allocated,
	                            -1,
	                            -1,
	                            line.requested_cpus,
	                            line.requested_time,
	                            -1,
	                            line.status,
	                            line.user,
	                            line.group,
	                            -1,
	                            -1,
	                            line.partition,
	                            -1,
	                            -1};
	std::string text;
	for (int64_t field : fields)
		text += (text.empty() ? "" : " ") + std::to_string(field);
	return text;
}

Workload read_ok(const std::string &path, const TraceOptions &options = {})
{
	Result<Workload> result = read_swf(path, options);
	ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
	return std::move(result).value();
}

std::string read_error(const std::string &path, const TraceOptions &options = {})
{
	Result<Workload> result = read_swf(path, options);
	ck_assert_msg(!result.ok(), "%s read without error", path.c_str());
	return result.error();
}

uint64_t dropped(const InputCounts &counts)
{
	return counts.placeholder_dropped + counts.unknown_submit + counts.cancelled_dropped +
	       counts.unknown_runtime + counts.unknown_cpus + counts.outside_window +
	       counts.malformed_skipped;
}

void write_gz(const std::string &path, const std::string &text)
{
	gzFile gz = gzopen(path.c_str(), "wb");
	ck_assert(gz != nullptr);
	ck_assert_int_eq(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())),
	                 static_cast<int>(text.size()));
	ck_assert_int_eq(gzclose(gz), Z_OK);
}

} // namespace

START_TEST(test_swf_keeps_every_field_of_a_completed_job)
{
	TempDir dir;
	Line line;
	line = {.id = 7,
	        .submit = 50,
	        .wait = 5,
	        .run = 30,
	        .allocated = 8,
	        .requested_cpus = 6,
	        .requested_time = 60,
	        .status = 0,
	        .user = 3,
	        .group = 2,
	        .partition = 4};
	const Workload workload =
	    read_ok(dir.write("one.swf", lines({"; MaxProcs: 64", swf(line)})));
	ck_assert_string_eq(workload.name, "one.swf");
	ck_assert_uint_eq(workload.machine_cpus, 64);
	ck_assert_uint_eq(workload.jobs.size(), 1);
	const SimJob &job = workload.jobs[0];
	ck_assert_uint_eq(job.id, 7);
	ck_assert_int_eq(job.submit_s, 50); // not rebased
	ck_assert_int_eq(job.trace_start_s, 55);
	ck_assert_int_eq(job.runtime_s, 30);
	ck_assert_uint_eq(job.cpus, 8); // allocated (field 5), not requested (field 8)
	ck_assert_int_eq(job.limit_s, 60);
	ck_assert_int_eq(job.status, 0);
	ck_assert_uint_eq(job.user, 3);
	ck_assert_uint_eq(job.group, 2);
	ck_assert_uint_eq(job.partition, 4);
	ck_assert(!workload.closed_loop);
}
END_TEST

START_TEST(test_swf_orders_jobs_by_submit_then_id)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write(
	    "order.swf", lines({swf({.id = 3, .submit = 20}), swf({.id = 2, .submit = 10}),
	                        swf({.id = 9, .submit = 10}), swf({.id = 1, .submit = 10})})));
	ck_assert_uint_eq(workload.jobs.size(), 4);
	const uint64_t expected[] = {1, 2, 9, 3};
	for (size_t at = 0; at < 4; ++at)
		ck_assert_uint_eq(workload.jobs[at].id, expected[at]);
}
END_TEST

START_TEST(test_swf_cpus_fall_back_to_requested_and_drop_when_both_unknown)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("cpus.swf", lines({swf({.id = 1, .allocated = -1, .requested_cpus = 5}),
	                                 swf({.id = 2, .allocated = 0, .requested_cpus = 3}),
	                                 swf({.id = 3, .allocated = -1, .requested_cpus = -1})})));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.jobs[0].cpus, 5);
	ck_assert_uint_eq(workload.jobs[1].cpus, 3);
	ck_assert_uint_eq(workload.counts.unknown_cpus, 1);
	ck_assert_uint_eq(workload.counts.lines, 3);
	ck_assert(noted(workload.notes, "neither known: 1 dropped"));
}
END_TEST

START_TEST(test_swf_unknown_runtime_is_dropped)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("run.swf", lines({swf({.id = 1, .run = -1}), swf({.id = 2, .run = 5})})));
	ck_assert_uint_eq(workload.jobs.size(), 1);
	ck_assert_uint_eq(workload.jobs[0].id, 2);
	ck_assert_uint_eq(workload.counts.unknown_runtime, 1);
	ck_assert(noted(workload.notes, "run time unknown (field 4 = -1): 1 dropped"));
}
END_TEST

START_TEST(test_swf_zero_runtime_is_kept_and_counted)
{
	TempDir dir;
	const Workload workload =
	    read_ok(dir.write("zero.swf", lines({swf({.id = 1, .run = 0}), swf({.id = 2})})));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_int_eq(workload.jobs[0].runtime_s, 0);
	ck_assert_uint_eq(workload.counts.zero_runtime, 1);
	ck_assert(noted(workload.notes, "run time 0: 1 kept"));
}
END_TEST

START_TEST(test_swf_cancelled_without_runtime_dropped_cancelled_that_ran_kept)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write(
	    "cancelled.swf",
	    lines({swf({.id = 1, .run = 0, .status = 5}),
	           swf({.id = 2, .run = -1, .allocated = -1, .requested_cpus = -1, .status = 5}),
	           swf({.id = 3, .run = 40, .status = 5})})));
	ck_assert_uint_eq(workload.jobs.size(), 1);
	ck_assert_uint_eq(workload.jobs[0].id, 3);
	ck_assert_int_eq(workload.jobs[0].runtime_s, 40);
	ck_assert_int_eq(workload.jobs[0].status, 5);
	// Cancellation is the first rule: job 2 is not also unknown run time or unknown CPUs.
	ck_assert_uint_eq(workload.counts.cancelled_dropped, 2);
	ck_assert_uint_eq(workload.counts.unknown_runtime, 0);
	ck_assert_uint_eq(workload.counts.unknown_cpus, 0);
	ck_assert_uint_eq(workload.counts.zero_runtime, 0);
	ck_assert(noted(workload.notes, "cancelled (status 5) with run time <= 0: 2 dropped"));
}
END_TEST

START_TEST(test_swf_requested_time_below_runtime_kept_and_counted)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("limit.swf", lines({swf({.id = 1, .run = 100, .requested_time = 50}),
	                                  swf({.id = 2, .run = 100, .requested_time = -1}),
	                                  swf({.id = 3, .run = 100, .requested_time = 100})})));
	ck_assert_uint_eq(workload.jobs.size(), 3);
	ck_assert_int_eq(workload.jobs[0].limit_s, 50); // kept as given: the replay cuts it
	ck_assert_int_eq(workload.jobs[1].limit_s, -1); // unknown
	ck_assert_int_eq(workload.jobs[2].limit_s, 100);
	ck_assert_uint_eq(workload.counts.limit_below_runtime, 1);
}
END_TEST

// Issue 12: cutting jobs at their limit removed 24 % of one log's CPU-seconds unreported. Here
// job 1 loses (100 - 50) s on 4 CPUs = 200 CPU-s, job 3 (300 - 100) s on 2 CPUs = 400 of the
// log's 4 * 100 + 4 * 100 + 2 * 300 = 1400 CPU-s: 600 CPU-s, 42.9 %.
START_TEST(test_swf_cpu_seconds_lost_at_the_limit_are_counted)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write(
	    "cut.swf", lines({swf({.id = 1, .run = 100, .allocated = 4, .requested_time = 50}),
	                      swf({.id = 2, .run = 100, .allocated = 4, .requested_time = 200}),
	                      swf({.id = 3, .run = 300, .allocated = 2, .requested_time = 100})})));
	ck_assert_uint_eq(workload.counts.limit_below_runtime, 2);
	ck_assert_uint_eq(workload.counts.work_cpu_s, 1400);
	ck_assert_uint_eq(workload.counts.cut_at_limit_cpu_s, 600);
	ck_assert_msg(noted(workload.notes,
	                    "below the run time: 2 jobs, cut at their limit in the "
	                    "replay: 600 of the log's 1400 CPU-seconds lost (42.9 %)"),
	              "no CPU-seconds note");
}
END_TEST

// Issue 12: a limit of 0 made a long job a 0 s job. SWF's 0 is no limit given: unknown (-1).
START_TEST(test_swf_zero_limit_is_unknown_and_counted)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("zero-limit.swf", lines({swf({.id = 1, .run = 5000, .requested_time = 0}),
	                                       swf({.id = 2, .run = 10, .requested_time = 20})})));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_int_eq(workload.jobs[0].limit_s, -1);
	ck_assert_int_eq(workload.jobs[0].runtime_s, 5000);
	ck_assert_uint_eq(workload.counts.zero_limit_unknown, 1);
	ck_assert_uint_eq(workload.counts.limit_below_runtime, 0);
	ck_assert_uint_eq(workload.counts.cut_at_limit_cpu_s, 0);
	ck_assert(noted(workload.notes, "limit 0: 1 read as unknown"));
}
END_TEST

// Issue 12: status 265 (a real log's) stopped the run; campsim uses the status only to drop
// cancelled jobs that never ran, so any other value is kept, read as unknown and counted.
START_TEST(test_swf_status_outside_swf_range_is_kept_and_counted)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("status.swf",
	              lines({swf({.id = 1, .status = 265}), swf({.id = 2, .status = -7}),
	                     swf({.id = 3, .run = 0, .status = 5}), swf({.id = 4, .status = 1})})));
	ck_assert_uint_eq(workload.jobs.size(), 3);
	ck_assert_int_eq(workload.jobs[0].status, -1);
	ck_assert_int_eq(workload.jobs[1].status, -1);
	ck_assert_int_eq(workload.jobs[2].status, 1);
	ck_assert_uint_eq(workload.counts.status_outside_swf, 2);
	ck_assert_uint_eq(workload.counts.cancelled_dropped, 1);
	ck_assert(noted(workload.notes, "status outside -1..5: 2 kept"));
}
END_TEST

// Issue 12: lines with every field -1 (placeholders in real logs) stopped the run.
START_TEST(test_swf_placeholder_lines_are_dropped_and_counted)
{
	TempDir dir;
	std::string placeholder = "-1";
	for (int field = 2; field <= 18; ++field)
		placeholder += " -1";
	const Workload workload = read_ok(
	    dir.write("placeholder.swf",
	              lines({swf({.id = 1}), placeholder, "\t" + placeholder, swf({.id = 2})})));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.counts.lines, 4);
	ck_assert_uint_eq(workload.counts.placeholder_dropped, 2);
	ck_assert_uint_eq(workload.counts.kept + dropped(workload.counts), workload.counts.lines);
	ck_assert(noted(workload.notes, "every field -1: 2 dropped"));
}
END_TEST

// LLNL-Thunder-2007 has 1,190 job records with no submit time, CPUs or run (submit -1, the
// user and queue known): the archive's unknown, not a malformed line, so not a stop.
START_TEST(test_swf_unknown_submit_is_dropped_and_counted)
{
	TempDir dir;
	const Workload workload = read_ok(
	    dir.write("thunder.swf",
	              lines({swf({.id = 1}), "2 -1 -1 -1 -1 -1 -1 -1 -1 -1 1 36 -1 66 -1 2 -1 -1",
	                     "3 -1 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1", swf({.id = 4})})));
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.counts.unknown_submit, 2);
	ck_assert_uint_eq(workload.counts.kept + dropped(workload.counts), workload.counts.lines);
	ck_assert(noted(workload.notes, "submit time unknown (field 2 = -1): 2 dropped"));
}
END_TEST

START_TEST(test_swf_trace_start_is_submit_plus_known_wait)
{
	TempDir dir;
	const Workload workload =
	    read_ok(dir.write("wait.swf", lines({swf({.id = 1, .submit = 100, .wait = 0}),
	                                         swf({.id = 2, .submit = 100, .wait = -1}),
	                                         swf({.id = 3, .submit = 100, .wait = 25})})));
	ck_assert_int_eq(workload.jobs[0].trace_start_s, 100);
	ck_assert_int_eq(workload.jobs[1].trace_start_s, -1);
	ck_assert_int_eq(workload.jobs[2].trace_start_s, 125);
}
END_TEST

START_TEST(test_swf_unknown_user_group_partition_read_as_zero)
{
	TempDir dir;
	const Workload workload =
	    read_ok(dir.write("ids.swf", lines({swf({.user = -1, .group = -1, .partition = -1})})));
	ck_assert_uint_eq(workload.jobs[0].user, 0);
	ck_assert_uint_eq(workload.jobs[0].group, 0);
	ck_assert_uint_eq(workload.jobs[0].partition, 0);
}
END_TEST

START_TEST(test_swf_cpus_above_machine_are_clamped_and_counted)
{
	TempDir dir;
	const Workload workload =
	    read_ok(dir.write("wide.swf", lines({";  MaxProcs: 16", swf({.id = 1, .allocated = 32}),
	                                         swf({.id = 2, .allocated = 16})})));
	ck_assert_uint_eq(workload.jobs[0].cpus, 16);
	ck_assert_uint_eq(workload.jobs[1].cpus, 16);
	ck_assert_uint_eq(workload.counts.clamped_cpus, 1);
	ck_assert(noted(workload.notes, "more CPUs than the machine: 1 clamped to 16"));
}
END_TEST

START_TEST(test_swf_machine_from_maxprocs_then_maxnodes_option_overrides)
{
	TempDir dir;
	// LPC-EGEE's header: "MaxNodes: 70  (dual)" before "MaxProcs: 140".
	const std::string both =
	    dir.write("both.swf", lines({";        MaxNodes: 70  (dual)", ";        MaxProcs: 140",
	                                 swf({.allocated = 100})}));
	ck_assert_uint_eq(read_ok(both).machine_cpus, 140);
	const std::string nodes =
	    dir.write("nodes.swf", lines({"; MaxNodes: 70", "; MaxProcs: -1", swf({})}));
	ck_assert_uint_eq(read_ok(nodes).machine_cpus, 70);
	TraceOptions options;
	options.machine_cpus = 50;
	const Workload overridden = read_ok(both, options);
	ck_assert_uint_eq(overridden.machine_cpus, 50);
	ck_assert_uint_eq(overridden.jobs[0].cpus, 50);
	ck_assert(noted(overridden.notes, "machine: 50 CPUs (option)"));
	const Workload unknown = read_ok(dir.write("none.swf", lines({swf({.allocated = 999})})));
	ck_assert_uint_eq(unknown.machine_cpus, 0);
	ck_assert_uint_eq(unknown.jobs[0].cpus, 999); // nothing to clamp to
	ck_assert(noted(unknown.notes, "machine: unknown"));
}
END_TEST

START_TEST(test_swf_window_keeps_submits_in_from_to_half_open)
{
	TempDir dir;
	const std::string path = dir.write(
	    "window.swf", lines({swf({.id = 1, .submit = 99}), swf({.id = 2, .submit = 100}),
	                         swf({.id = 3, .submit = 199}), swf({.id = 4, .submit = 200})}));
	TraceOptions options;
	options.from_s = 100;
	options.to_s = 200;
	const Workload workload = read_ok(path, options);
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.jobs[0].id, 2);
	ck_assert_uint_eq(workload.jobs[1].id, 3);
	ck_assert_int_eq(workload.jobs[0].submit_s, 100); // not rebased to the window
	ck_assert_uint_eq(workload.counts.outside_window, 2);
	ck_assert(noted(workload.notes, "submit window [100, 200): 2 dropped outside"));
	TraceOptions from_only;
	from_only.from_s = 200;
	ck_assert_uint_eq(read_ok(path, from_only).jobs.size(), 1);
}
END_TEST

START_TEST(test_swf_comments_and_blank_lines_are_not_counted_and_counts_add_up)
{
	TempDir dir;
	const Workload workload = read_ok(dir.write(
	    "mixed.swf", lines({"; Version: 2.2", "", "   ", swf({.id = 1}), "; a comment between",
	                        swf({.id = 2, .run = -1}), swf({.id = 3, .run = 0, .status = 5}),
	                        swf({.id = 4, .allocated = -1, .requested_cpus = -1}),
	                        swf({.id = 5, .run = 0}), "\t" + swf({.id = 6})})));
	const InputCounts &counts = workload.counts;
	ck_assert_uint_eq(counts.lines, 6);
	ck_assert_uint_eq(counts.kept, 3);
	ck_assert_uint_eq(counts.kept, workload.jobs.size());
	ck_assert_uint_eq(counts.kept + dropped(counts), counts.lines);
}
END_TEST

START_TEST(test_swf_reads_gzip_and_crlf)
{
	TempDir dir;
	const std::string text = "; MaxProcs: 8\r\n" + swf({.id = 1}) + "\r\n" +
	                         swf({.id = 2, .submit = 5, .run = 7}) + "\r\n";
	write_gz(dir.path("trace.swf.gz"), text);
	const Workload workload = read_ok(dir.path("trace.swf.gz"));
	ck_assert_string_eq(workload.name, "trace.swf.gz");
	ck_assert_uint_eq(workload.machine_cpus, 8);
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_int_eq(workload.jobs[1].runtime_s, 7);
	ck_assert_uint_eq(workload.jobs[1].partition, 1); // the last field, before "\r"
}
END_TEST

START_TEST(test_swf_truncated_gzip_is_an_error_naming_the_file)
{
	TempDir dir;
	std::string text;
	for (int id = 1; id <= 2000; ++id)
		text += swf({.id = id, .submit = id}) + "\n";
	write_gz(dir.path("full.swf.gz"), text);
	std::ifstream in(dir.path("full.swf.gz"), std::ios::binary);
	const std::string bytes((std::istreambuf_iterator<char>(in)),
	                        std::istreambuf_iterator<char>());
	const std::string cut = dir.write("cut.swf.gz", bytes.substr(0, bytes.size() / 2));
	const std::string error = read_error(cut);
	ck_assert_msg(error.rfind(cut + ": read error after line ", 0) == 0, "%s", error.c_str());
}
END_TEST

START_TEST(test_swf_every_error_names_file_and_line)
{
	TempDir dir;
	const std::string good = swf({.id = 1});
	const struct {
		std::string line;
		std::string message;
	} cases[] = {
	    {"1 0 10 abc 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1",
	     "field 4 (run time) is not a number: 'abc'"},
	    {"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1", "expected 18 fields, found 17"},
	    {"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1 7", "expected 18 fields, found 19"},
	    {"1 -5 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1",
	     "field 2 (submit time) is below -1 (unknown): -5"},
	    {"-1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1",
	     "field 1 (job number) is negative: -1"},
	    {"1 0 10 -2 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1",
	     "field 4 (run time) is below -1 (unknown): -2"},
	    {"1 0 10 100 4.5 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1",
	     "field 5 (allocated processors) is not a number: '4.5'"},
	    {"1 0 10 100 4 -1 -1 4 200 -1 1 99999999999 1 -1 -1 1 -1 -1",
	     "field 12 (user) is too large: 99999999999"},
	    {"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1",
	     "duplicate job number 1 (first on line 2)"},
	};
	for (const auto &each : cases) {
		// The bad line is line 3, after a header comment and a good line.
		const std::string path =
		    dir.write("bad.swf", lines({"; MaxProcs: 8", good, each.line}));
		const std::string expected = path + ":3: " + each.message;
		ck_assert_string_eq(read_error(path), expected.c_str());
	}
}
END_TEST

START_TEST(test_swf_fields_the_reader_ignores_may_be_decimals)
{
	TempDir dir;
	// Field 6 (average CPU time) is a decimal in CTC, HPC2N and SDSC.
	const Workload workload = read_ok(dir.write(
	    "decimal.swf", lines({"1 0 10 100 4 97.25 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1"})));
	ck_assert_uint_eq(workload.jobs.size(), 1);
}
END_TEST

START_TEST(test_swf_lenient_skips_and_counts_malformed_lines)
{
	TempDir dir;
	const std::string path =
	    dir.write("lenient.swf",
	              lines({swf({.id = 1}), "garbage", swf({.id = 2, .run = -1}),
	                     "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 1 -1 -1", swf({.id = 3})}));
	const std::string expected = path + ":2: expected 18 fields, found 1";
	ck_assert_string_eq(read_error(path), expected.c_str());
	TraceOptions options;
	options.lenient = true;
	const Workload workload = read_ok(path, options);
	ck_assert_uint_eq(workload.jobs.size(), 2);
	ck_assert_uint_eq(workload.counts.malformed_skipped, 2); // garbage, duplicate job 1
	ck_assert_uint_eq(workload.counts.unknown_runtime, 1);
	ck_assert_uint_eq(workload.counts.lines, 5);
	ck_assert_uint_eq(workload.counts.kept + dropped(workload.counts), workload.counts.lines);
	ck_assert(noted(workload.notes, "malformed lines: 2 skipped (lenient); first: " + path +
	                                    ":2: expected 18 fields, found 1"));
}
END_TEST

START_TEST(test_swf_missing_file_names_it)
{
	TempDir dir;
	const std::string path = dir.path("absent.swf");
	const std::string expected = path + ": cannot open: No such file or directory";
	ck_assert_string_eq(read_error(path), expected.c_str());
}
END_TEST

START_TEST(test_swf_notes_state_every_rule)
{
	TempDir dir;
	const Workload workload =
	    read_ok(dir.write("notes.swf", lines({"; MaxProcs: 4", swf({})})));
	for (const char *rule :
	     {"not rebased", "machine: 4 CPUs (MaxProcs header)", "cancelled (status 5)",
	      "run time unknown", "CPUs: allocated", "run time 0", "requested time (field 9)",
	      "every field -1", "status outside -1..5", "limit 0", "clamped", "submit + wait"})
		ck_assert_msg(noted(workload.notes, rule), "no note on '%s'", rule);
}
END_TEST

// LPC-EGEE (Parallel Workloads Archive, cleaned v1.2): 234,889 jobs on 140 CPUs. The expected
// counts come from the file itself (awk over fields 4, 5, 9, 11): 14,210 cancelled jobs with run
// time -1 or 0, 6,357 kept jobs of run time 0, 755 kept jobs whose requested time is below it,
// losing 3,614,656 of the kept jobs' 705,375,722 CPU-seconds when cut there; no limit 0, no
// status outside -1..5, no placeholder line.
START_TEST(test_swf_reads_lpc_egee_trace_consistently)
{
	const char *env = std::getenv("TRACE_DIR");
	const std::string path =
	    std::string(env && *env ? env : DEFAULT_TRACE_DIR) + "/LPC-EGEE-2004-1.2-cln.swf.gz";
	if (!std::filesystem::exists(path)) {
		std::printf("test_swf_reads_lpc_egee_trace_consistently: skipped, %s absent\n",
		            path.c_str());
		return;
	}
	const auto began = std::chrono::steady_clock::now();
	const Workload workload = read_ok(path);
	const double seconds =
	    std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
	std::printf("read_swf LPC-EGEE %.3f s\n", seconds);
	const InputCounts &counts = workload.counts;
	ck_assert_uint_eq(workload.machine_cpus, 140);
	ck_assert_uint_eq(counts.lines, 234889);
	ck_assert_uint_eq(counts.cancelled_dropped, 14210);
	ck_assert_uint_eq(counts.unknown_runtime, 0);
	ck_assert_uint_eq(counts.unknown_cpus, 0);
	ck_assert_uint_eq(counts.zero_runtime, 6357);
	ck_assert_uint_eq(counts.limit_below_runtime, 755);
	ck_assert_uint_eq(counts.cut_at_limit_cpu_s, 3614656);
	ck_assert_uint_eq(counts.work_cpu_s, 705375722);
	ck_assert_uint_eq(counts.zero_limit_unknown, 0);
	ck_assert_uint_eq(counts.status_outside_swf, 0);
	ck_assert_uint_eq(counts.placeholder_dropped, 0);
	ck_assert_uint_eq(counts.clamped_cpus, 0);
	ck_assert_uint_eq(counts.kept, 234889 - 14210);
	ck_assert_uint_eq(counts.kept, workload.jobs.size());
	ck_assert_uint_eq(counts.kept + dropped(counts), counts.lines);
	for (size_t at = 1; at < workload.jobs.size(); ++at) {
		const SimJob &before = workload.jobs[at - 1], &job = workload.jobs[at];
		ck_assert(before.submit_s < job.submit_s ||
		          (before.submit_s == job.submit_s && before.id < job.id));
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("trace_swf");
	TCase *tc = tcase_create("swf");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_swf_keeps_every_field_of_a_completed_job);
	tcase_add_test(tc, test_swf_orders_jobs_by_submit_then_id);
	tcase_add_test(tc, test_swf_cpus_fall_back_to_requested_and_drop_when_both_unknown);
	tcase_add_test(tc, test_swf_unknown_runtime_is_dropped);
	tcase_add_test(tc, test_swf_zero_runtime_is_kept_and_counted);
	tcase_add_test(tc, test_swf_cancelled_without_runtime_dropped_cancelled_that_ran_kept);
	tcase_add_test(tc, test_swf_requested_time_below_runtime_kept_and_counted);
	tcase_add_test(tc, test_swf_cpu_seconds_lost_at_the_limit_are_counted);
	tcase_add_test(tc, test_swf_zero_limit_is_unknown_and_counted);
	tcase_add_test(tc, test_swf_status_outside_swf_range_is_kept_and_counted);
	tcase_add_test(tc, test_swf_placeholder_lines_are_dropped_and_counted);
	tcase_add_test(tc, test_swf_unknown_submit_is_dropped_and_counted);
	tcase_add_test(tc, test_swf_trace_start_is_submit_plus_known_wait);
	tcase_add_test(tc, test_swf_unknown_user_group_partition_read_as_zero);
	tcase_add_test(tc, test_swf_cpus_above_machine_are_clamped_and_counted);
	tcase_add_test(tc, test_swf_machine_from_maxprocs_then_maxnodes_option_overrides);
	tcase_add_test(tc, test_swf_window_keeps_submits_in_from_to_half_open);
	tcase_add_test(tc, test_swf_comments_and_blank_lines_are_not_counted_and_counts_add_up);
	tcase_add_test(tc, test_swf_reads_gzip_and_crlf);
	tcase_add_test(tc, test_swf_truncated_gzip_is_an_error_naming_the_file);
	tcase_add_test(tc, test_swf_every_error_names_file_and_line);
	tcase_add_test(tc, test_swf_fields_the_reader_ignores_may_be_decimals);
	tcase_add_test(tc, test_swf_lenient_skips_and_counts_malformed_lines);
	tcase_add_test(tc, test_swf_missing_file_names_it);
	tcase_add_test(tc, test_swf_notes_state_every_rule);
	tcase_add_test(tc, test_swf_reads_lpc_egee_trace_consistently);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
