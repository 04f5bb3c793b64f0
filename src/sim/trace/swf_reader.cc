// Reads a Standard Workload Format trace (Parallel Workloads Archive; plain or .gz) into a
// Workload, applying and stating the archive's conventions. No scheduling policy here.
#include "trace/swf_reader.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "trace/trace_file.h"

namespace campaign::sim
{

namespace
{

constexpr size_t swf_field_count = 18;

// SWF fields are numbered from 1, as in the archive's definition.
enum SwfField : size_t {
	job_number = 1,
	submit_time = 2,
	wait_time = 3,
	run_time = 4,
	allocated_processors = 5,
	requested_processors = 8,
	requested_time = 9,
	status = 11,
	user_id = 12,
	group_id = 13,
	partition_number = 16,
};

constexpr SwfField parsed_fields[] = {
    job_number,     submit_time, wait_time, run_time, allocated_processors, requested_processors,
    requested_time, status,      user_id,   group_id, partition_number,
};

const char *const field_names[swf_field_count + 1] = {
    "",
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user",
    "group",
    "executable",
    "queue",
    "partition",
    "preceding job",
    "think time after preceding job",
};

constexpr int64_t swf_status_unknown = -1;
constexpr int64_t swf_status_cancelled = 5;
constexpr int64_t uint32_limit = std::numeric_limits<uint32_t>::max();

struct SwfRecord {
	int64_t field[swf_field_count + 1] = {}; // by SWF field number; only parsed_fields set

	int64_t operator[](SwfField number) const { return field[number]; }
	// Allocated processors, else requested; 0 when neither is known.
	int64_t cpus() const
	{
		if (field[allocated_processors] > 0)
			return field[allocated_processors];
		return field[requested_processors] > 0 ? field[requested_processors] : 0;
	}
};

std::string field_label(SwfField number)
{
	return "field " + std::to_string(number) + " (" + field_names[number] + ")";
}

// Splits on blanks; stores up to `capacity` fields and returns how many there are in all.
size_t split_fields(std::string_view line, std::string_view *fields, size_t capacity)
{
	size_t count = 0;
	size_t at = 0;
	while (true) {
		while (at < line.size() && (line[at] == ' ' || line[at] == '\t'))
			++at;
		if (at == line.size())
			return count;
		const size_t begin = at;
		while (at < line.size() && line[at] != ' ' && line[at] != '\t')
			++at;
		if (count < capacity)
			fields[count] = line.substr(begin, at - begin);
		++count;
	}
}

// Empty when the parsed values are in range.
std::string range_problem(const SwfRecord &record)
{
	if (record[job_number] < 0)
		return field_label(job_number) +
		       " is negative: " + std::to_string(record[job_number]);
	for (SwfField number : parsed_fields) {
		if (number != status && record[number] < -1)
			return field_label(number) +
			       " is below -1 (unknown): " + std::to_string(record[number]);
	}
	for (SwfField number :
	     {allocated_processors, requested_processors, user_id, group_id, partition_number}) {
		if (record[number] > uint32_limit)
			return field_label(number) +
			       " is too large: " + std::to_string(record[number]);
	}
	return "";
}

// A status outside -1..5 (some logs have e.g. 265): campsim only needs "cancelled".
bool status_outside_swf(const SwfRecord &record)
{
	return record[status] < swf_status_unknown || record[status] > swf_status_cancelled;
}

// A line whose every field is -1: a placeholder some logs carry, not a job.
bool is_placeholder(std::string_view line)
{
	std::string_view fields[swf_field_count];
	const size_t found = split_fields(line, fields, swf_field_count);
	for (size_t at = 0; at < std::min(found, swf_field_count); ++at) {
		if (fields[at] != "-1")
			return false;
	}
	return found == swf_field_count;
}

Result<SwfRecord> parse_record(std::string_view line)
{
	std::string_view fields[swf_field_count];
	const size_t found = split_fields(line, fields, swf_field_count);
	if (found != swf_field_count)
		return Error{"expected " + std::to_string(swf_field_count) + " fields, found " +
		             std::to_string(found)};
	SwfRecord record;
	for (SwfField number : parsed_fields) {
		const std::string_view text = fields[number - 1];
		const std::optional<int64_t> value = parse_integer(text);
		if (!value)
			return Error{field_label(number) + " is not a number: '" +
			             std::string(text) + "'"};
		record.field[number] = *value;
	}
	if (std::string problem = range_problem(record); !problem.empty())
		return Error{problem};
	return record;
}

enum class Verdict {
	keep,
	unknown_submit,
	outside_window,
	cancelled,
	unknown_runtime,
	unknown_cpus
};

// The first drop rule a record meets, in the order the notes state.
Verdict classify(const SwfRecord &record, const SubmitWindow &window)
{
	if (record[submit_time] < 0)
		return Verdict::unknown_submit;
	if (!window.contains(record[submit_time]))
		return Verdict::outside_window;
	if (record[status] == swf_status_cancelled && record[run_time] <= 0)
		return Verdict::cancelled;
	if (record[run_time] < 0)
		return Verdict::unknown_runtime;
	if (record.cpus() == 0)
		return Verdict::unknown_cpus;
	return Verdict::keep;
}

SimJob to_sim_job(const SwfRecord &record)
{
	SimJob job;
	job.id = static_cast<uint64_t>(record[job_number]);
	job.user = static_cast<uint32_t>(std::max<int64_t>(record[user_id], 0));
	job.group = static_cast<uint32_t>(std::max<int64_t>(record[group_id], 0));
	job.partition = static_cast<uint32_t>(std::max<int64_t>(record[partition_number], 0));
	job.submit_s = record[submit_time];
	job.cpus = static_cast<uint32_t>(record.cpus());
	job.runtime_s = record[run_time];
	job.limit_s = record[requested_time] == 0 ? -1 : record[requested_time]; // 0: none given
	job.trace_start_s = record[wait_time] >= 0 ? record[submit_time] + record[wait_time] : -1;
	job.status =
	    static_cast<int32_t>(status_outside_swf(record) ? swf_status_unknown : record[status]);
	return job;
}

// "; MaxProcs: 140" -> 140 (key given without the colon). Unknown values (-1) and text: none.
std::optional<int64_t> header_value(std::string_view line, std::string_view key)
{
	size_t at = line.find_first_not_of("; \t");
	if (at == std::string_view::npos || line.substr(at, key.size()) != key)
		return std::nullopt;
	at += key.size();
	at = line.find_first_not_of(" \t", at);
	if (at == std::string_view::npos || line[at] != ':')
		return std::nullopt;
	at = line.find_first_not_of(" \t", at + 1);
	if (at == std::string_view::npos)
		return std::nullopt;
	const size_t end = line.find_first_of(" \t", at);
	const std::optional<int64_t> value = parse_integer(line.substr(at, end - at));
	if (!value || *value <= 0 || *value > uint32_limit)
		return std::nullopt;
	return value;
}

class SwfReader
{
public:
	SwfReader(const std::string &path, const TraceOptions &options)
	    : file_(path), options_(options), window_{options.from_s, options.to_s}
	{
	}
	Result<Workload> read();

private:
	void read_header_line(std::string_view line);
	Status read_data_line(std::string_view line);
	Status reject(const std::string &problem);
	void count_drop(Verdict verdict);
	void resolve_machine();
	void state_notes();

	TraceFile file_;
	const TraceOptions &options_;
	SubmitWindow window_;
	std::optional<int64_t> max_procs_;
	std::optional<int64_t> max_nodes_;
	std::string machine_source_;
	std::unordered_map<uint64_t, uint64_t> line_of_job_;
	Workload workload_;
	MalformedInput malformed_{options_.lenient, workload_.counts.malformed_skipped};
};

Result<Workload> SwfReader::read()
{
	if (Status opened = file_.open(); !opened)
		return Error{opened.error()};
	std::string_view line;
	while (file_.next_line(line)) {
		const size_t first = line.find_first_not_of(" \t");
		if (first == std::string_view::npos)
			continue;
		if (line[first] == ';') {
			read_header_line(line);
			continue;
		}
		if (Status read = read_data_line(line); !read)
			return Error{read.error()};
	}
	if (!file_.status())
		return Error{file_.status().error()};
	workload_.name = file_name_of(file_.path());
	resolve_machine();
	finish_workload(workload_);
	state_notes();
	return std::move(workload_);
}

void SwfReader::read_header_line(std::string_view line)
{
	if (!max_procs_)
		max_procs_ = header_value(line, "MaxProcs");
	if (!max_nodes_)
		max_nodes_ = header_value(line, "MaxNodes");
}

Status SwfReader::read_data_line(std::string_view line)
{
	InputCounts &counts = workload_.counts;
	++counts.lines;
	if (is_placeholder(line)) {
		++counts.placeholder_dropped;
		return ok_status();
	}
	Result<SwfRecord> parsed = parse_record(line);
	if (!parsed)
		return reject(parsed.error());
	const SwfRecord &record = parsed.value();
	const Verdict verdict = classify(record, window_);
	if (verdict != Verdict::keep) {
		count_drop(verdict);
		return ok_status();
	}
	const SimJob job = to_sim_job(record);
	const auto [seen, inserted] = line_of_job_.emplace(job.id, file_.line_number());
	if (!inserted)
		return reject("duplicate job number " + std::to_string(job.id) +
		              " (first on line " + std::to_string(seen->second) + ")");
	counts.zero_runtime += job.runtime_s == 0;
	counts.zero_limit_unknown += record[requested_time] == 0;
	counts.status_outside_swf += status_outside_swf(record);
	workload_.jobs.push_back(job);
	return ok_status();
}

// A malformed line: the error, or (lenient) counted and skipped.
Status SwfReader::reject(const std::string &problem)
{
	return malformed_.reject(file_.error_here(problem).message);
}

void SwfReader::count_drop(Verdict verdict)
{
	InputCounts &counts = workload_.counts;
	switch (verdict) {
	case Verdict::unknown_submit:
		++counts.unknown_submit;
		break;
	case Verdict::outside_window:
		++counts.outside_window;
		break;
	case Verdict::cancelled:
		++counts.cancelled_dropped;
		break;
	case Verdict::unknown_runtime:
		++counts.unknown_runtime;
		break;
	case Verdict::unknown_cpus:
		++counts.unknown_cpus;
		break;
	case Verdict::keep:
		break;
	}
}

void SwfReader::resolve_machine()
{
	if (options_.machine_cpus) {
		workload_.machine_cpus = *options_.machine_cpus;
		machine_source_ = "option";
	} else if (max_procs_) {
		workload_.machine_cpus = static_cast<uint32_t>(*max_procs_);
		machine_source_ = "MaxProcs header";
	} else if (max_nodes_) {
		workload_.machine_cpus = static_cast<uint32_t>(*max_nodes_);
		machine_source_ = "MaxNodes header, one CPU per node";
	}
}

void SwfReader::state_notes()
{
	const InputCounts &counts = workload_.counts;
	std::vector<std::string> &notes = workload_.notes;
	const auto count = [](uint64_t value) { return std::to_string(value); };
	notes.push_back("input: " + file_.path() +
	                " (Standard Workload Format); submit times as in the log, not rebased");
	if (workload_.machine_cpus > 0)
		notes.push_back("machine: " + count(workload_.machine_cpus) + " CPUs (" +
		                machine_source_ + ")");
	else
		notes.push_back("machine: unknown (no MaxProcs/MaxNodes header, no option)");
	notes.push_back("lines: " + count(counts.lines) + " data lines, " + count(counts.kept) +
	                " jobs kept; each dropped line is counted once, by the first rule below");
	notes.push_back("lines with every field -1: " + count(counts.placeholder_dropped) +
	                " dropped");
	if (options_.lenient)
		notes.push_back(malformed_.note("lines"));
	notes.push_back("submit time unknown (field 2 = -1): " + count(counts.unknown_submit) +
	                " dropped");
	if (window_.bounded())
		notes.push_back("submit window " + window_.describe() + ": " +
		                count(counts.outside_window) + " dropped outside");
	notes.push_back(
	    "cancelled (status 5) with run time <= 0: " + count(counts.cancelled_dropped) +
	    " dropped; cancelled jobs that ran are kept with their run time");
	notes.push_back("run time unknown (field 4 = -1): " + count(counts.unknown_runtime) +
	                " dropped");
	notes.push_back("CPUs: allocated processors (field 5), else requested (field 8) where "
	                "allocated is -1 or 0; neither known: " +
	                count(counts.unknown_cpus) + " dropped");
	notes.push_back("run time 0: " + count(counts.zero_runtime) + " kept (they run 0 s)");
	notes.push_back("limit: requested time (field 9), -1 unknown; limit 0: " +
	                count(counts.zero_limit_unknown) + " read as unknown (no limit given); " +
	                limit_cut_text(counts));
	notes.push_back("status outside -1..5: " + count(counts.status_outside_swf) +
	                " kept, read as -1 (campsim uses field 11 only to drop cancelled jobs)");
	if (workload_.machine_cpus > 0)
		notes.push_back("more CPUs than the machine: " + count(counts.clamped_cpus) +
		                " clamped to " + count(workload_.machine_cpus));
	notes.push_back("trace start: submit + wait (field 3) where the wait is known; user, "
	                "group and partition -1 (unknown) read as 0");
}

} // namespace

Result<Workload> read_swf(const std::string &path, const TraceOptions &options)
{
	return SwfReader(path, options).read();
}

} // namespace campaign::sim
