// Reads `sacct --parsable2` output (a site's own accounting) into a Workload: columns found by
// name, steps, array tasks, requeues and unfinished jobs handled and counted. No policy here.
#include "trace/sacct_reader.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <vector>

#include "trace/sacct_fields.h"
#include "trace/trace_file.h"

namespace campaign::sim
{

namespace
{

enum Column : size_t {
	job_id,
	job_id_raw,
	user,
	account,
	partition,
	submit,
	eligible,
	start,
	end,
	elapsed_raw,
	elapsed,
	timelimit_raw,
	timelimit,
	alloc_cpus,
	req_cpus,
	state,
	column_count
};
const char *const column_names[column_count] = {
    "JobID",     "JobIDRaw",  "User",    "Account",    "Partition", "Submit",
    "Eligible",  "Start",     "End",     "ElapsedRaw", "Elapsed",   "TimelimitRaw",
    "Timelimit", "AllocCPUS", "ReqCPUS", "State"};
constexpr Column required_columns[] = {job_id, user, submit, start, end, state, alloc_cpus};

// One job record (not a step) as sacct gives it, its values parsed.
struct SacctRecord {
	uint64_t line = 0;
	std::string key;     // the JobID text: one job's records share it ("123", "123_4")
	std::string id_text; // JobIDRaw, else JobID: the job's own number
	SacctStateKind state = SacctStateKind::finished;
	uint32_t user = 0, account = 0, partition = 0; // numbered in order of first appearance
	int64_t arrival_s = 0; // Eligible when later than Submit, else Submit
	bool eligible_after_submit = false;
	std::optional<int64_t> start_s;
	std::optional<int64_t> run_s; // known only for a record that started
	int64_t limit_s = -1;
	int64_t cpus = 0; // AllocCPUS, else ReqCPUS; 0 unknown
};

// One job: its last record, and the arrival of its first.
struct SacctJob {
	SacctRecord last;
	int64_t arrival_s = 0;
	bool eligible_after_submit = false;
};

// Names as numbers 1, 2, ... in order of first appearance ("" is 0).
class NameNumbers
{
public:
	uint32_t number(const std::string &name)
	{
		if (name.empty())
			return 0;
		const auto [at, added] =
		    numbers_.emplace(name, static_cast<uint32_t>(numbers_.size() + 1));
		if (added)
			names_.push_back(name);
		return at->second;
	}
	const std::vector<std::string> &names() const { return names_; }

private:
	std::unordered_map<std::string, uint32_t> numbers_;
	std::vector<std::string> names_;
};

bool same_name(std::string_view a, const char *b)
{
	const std::string_view other(b);
	return a.size() == other.size() &&
	       std::equal(a.begin(), a.end(), other.begin(), [](char x, char y) {
		       return std::tolower(static_cast<unsigned char>(x)) ==
		              std::tolower(static_cast<unsigned char>(y));
	       });
}

std::vector<std::string_view> split_bars(std::string_view line)
{
	std::vector<std::string_view> cells;
	size_t from = 0;
	while (true) {
		const size_t bar = line.find('|', from);
		cells.push_back(line.substr(from, bar - from));
		if (bar == std::string_view::npos)
			return cells;
		from = bar + 1;
	}
}

std::optional<int64_t> count_value(std::string_view text)
{
	const std::optional<int64_t> value = parse_integer(text);
	return value && *value >= 0 ? value : std::nullopt;
}

class SacctReader
{
public:
	SacctReader(const std::string &path, const TraceOptions &options)
	    : file_(path), options_(options), window_{options.from_s, options.to_s}
	{
	}
	Result<Workload> read();

private:
	Status read_header(std::string_view line);
	Status read_row(std::string_view line);
	Result<SacctRecord> parse_record(const std::vector<std::string_view> &cells);
	Status parse_run(const std::vector<std::string_view> &cells, SacctRecord &record);
	Result<uint64_t> job_number(const SacctRecord &record) const;
	Status add_job(const SacctJob &job);
	Status reject(uint64_t line, const std::string &problem);
	Error column_error(Column column, const std::string &problem) const;
	std::string_view cell(const std::vector<std::string_view> &cells, Column column) const
	{
		return index_[column] ? cells[*index_[column]] : std::string_view();
	}
	void state_notes();

	TraceFile file_;
	const TraceOptions &options_;
	SubmitWindow window_;
	std::optional<size_t> index_[column_count];
	size_t column_total_ = 0;
	bool trailing_bar_ = false; // --parsable (not 2) ends every line with '|'
	NameNumbers users_, accounts_, partitions_;
	std::unordered_map<std::string, size_t> job_of_key_;
	std::vector<SacctJob> jobs_; // in order of first appearance
	std::unordered_map<uint64_t, uint64_t> line_of_id_;
	Workload workload_;
	MalformedInput malformed_{options_.lenient, workload_.counts.malformed_skipped};
};

Result<Workload> SacctReader::read()
{
	if (Status opened = file_.open(); !opened)
		return Error{opened.error()};
	std::string_view line;
	bool header_read = false;
	while (file_.next_line(line)) {
		if (line.find_first_not_of(" \t") == std::string_view::npos)
			continue;
		Status read = header_read ? read_row(line) : read_header(line);
		if (!read)
			return Error{read.error()};
		header_read = true;
	}
	if (!file_.status())
		return Error{file_.status().error()};
	if (!header_read)
		return Error{file_.path() + ": empty: no sacct header line"};
	for (const SacctJob &job : jobs_) {
		if (Status added = add_job(job); !added)
			return Error{added.error()};
	}
	workload_.name = file_name_of(file_.path());
	workload_.machine_cpus = options_.machine_cpus.value_or(0);
	for (size_t at = 0; at < users_.names().size(); ++at) {
		const auto number = static_cast<uint32_t>(at + 1);
		workload_.user_names[number] =
		    options_.anonymise ? "u" + std::to_string(number) : users_.names()[at];
	}
	finish_workload(workload_);
	state_notes();
	return std::move(workload_);
}

Status SacctReader::read_header(std::string_view line)
{
	std::vector<std::string_view> names = split_bars(line);
	if (names.size() > 1 && names.back().empty()) {
		trailing_bar_ = true;
		names.pop_back();
	}
	column_total_ = names.size();
	bool any_known = false;
	for (size_t at = 0; at < names.size(); ++at) {
		for (size_t column = 0; column < column_count; ++column) {
			if (same_name(names[at], column_names[column]) && !index_[column]) {
				index_[column] = at;
				any_known = true;
			}
		}
	}
	if (!any_known)
		return file_.error_here("no sacct header line (run sacct with --parsable2 and "
		                        "without --noheader): '" +
		                        std::string(line.substr(0, 60)) + "'");
	for (Column column : required_columns) {
		if (!index_[column])
			return file_.error_here(
			    std::string("the header has no column ") + column_names[column] +
			    " (see campsim(1), \"sacct input\", for the command)");
	}
	if (!index_[timelimit] && !index_[timelimit_raw])
		return file_.error_here("the header has no column Timelimit or TimelimitRaw (see "
		                        "campsim(1), \"sacct input\", for the command)");
	return ok_status();
}

Error SacctReader::column_error(Column column, const std::string &problem) const
{
	return file_.error_here(std::string("column ") + column_names[column] + ": " + problem);
}

Status SacctReader::read_row(std::string_view line)
{
	++workload_.counts.lines;
	if (trailing_bar_ && !line.empty() && line.back() == '|')
		line.remove_suffix(1);
	const std::vector<std::string_view> cells = split_bars(line);
	if (cells.size() != column_total_)
		return reject(file_.line_number(),
		              "expected " + std::to_string(column_total_) +
		                  " columns separated by '|' as in the header, found " +
		                  std::to_string(cells.size()));
	const std::string_view key = cell(cells, job_id);
	if (key.empty())
		return reject(file_.line_number(), "column JobID is empty");
	if (key.find('.') != std::string_view::npos) {
		++workload_.counts.steps_dropped;
		return ok_status();
	}
	Result<SacctRecord> parsed = parse_record(cells);
	if (!parsed)
		return options_.lenient ? reject(file_.line_number(), parsed.error())
		                        : Status(Error{parsed.error()});
	SacctRecord &record = parsed.value();
	record.key = std::string(key);
	record.id_text = std::string(index_[job_id_raw] ? cell(cells, job_id_raw) : key);
	const auto [at, added] = job_of_key_.emplace(record.key, jobs_.size());
	if (added) {
		jobs_.push_back({record, record.arrival_s, record.eligible_after_submit});
		return ok_status();
	}
	SacctJob &job = jobs_[at->second]; // --duplicates: a later run of a requeued job
	++workload_.counts.earlier_runs_dropped;
	if (record.arrival_s < job.arrival_s) {
		job.arrival_s = record.arrival_s;
		job.eligible_after_submit = record.eligible_after_submit;
	}
	job.last = std::move(record);
	return ok_status();
}

Result<SacctRecord> SacctReader::parse_record(const std::vector<std::string_view> &cells)
{
	SacctRecord record;
	record.line = file_.line_number();
	Result<SacctStateKind> kind = parse_sacct_state(cell(cells, state));
	if (!kind)
		return column_error(state, kind.error());
	record.state = kind.value();
	if (cell(cells, user).empty())
		return column_error(user, "empty (every job has a user)");
	record.user = users_.number(std::string(cell(cells, user)));
	record.account = accounts_.number(std::string(cell(cells, account)));
	record.partition = partitions_.number(std::string(cell(cells, partition)));
	Result<std::optional<int64_t>> submitted = parse_sacct_time(cell(cells, submit));
	if (!submitted)
		return column_error(submit, submitted.error());
	if (!submitted.value())
		return column_error(submit, "'" + std::string(cell(cells, submit)) +
		                                "' (every job has a submit time)");
	Result<std::optional<int64_t>> eligible_at = parse_sacct_time(cell(cells, eligible));
	if (!eligible_at)
		return column_error(eligible, eligible_at.error());
	record.arrival_s = *submitted.value();
	if (eligible_at.value() && *eligible_at.value() > record.arrival_s) {
		record.arrival_s = *eligible_at.value();
		record.eligible_after_submit = true;
	}
	if (Status run = parse_run(cells, record); !run)
		return Error{run.error()};
	const Column limit_column = index_[timelimit_raw] ? timelimit_raw : timelimit;
	Result<std::optional<int64_t>> limit =
	    parse_sacct_limit(cell(cells, limit_column), limit_column == timelimit_raw);
	if (!limit)
		return column_error(limit_column, limit.error());
	record.limit_s = limit.value().value_or(-1);
	for (Column column : {alloc_cpus, req_cpus}) {
		const std::string_view text = cell(cells, column);
		const std::optional<int64_t> cpus = count_value(text);
		if (index_[column] && !cpus)
			return column_error(column,
			                    "'" + std::string(text) + "' is not a CPU count");
		if (record.cpus == 0 && cpus)
			record.cpus = *cpus;
	}
	return record;
}

// Sets start_s and run_s (a record that never started has neither).
Status SacctReader::parse_run(const std::vector<std::string_view> &cells, SacctRecord &record)
{
	Result<std::optional<int64_t>> started = parse_sacct_time(cell(cells, start));
	if (!started)
		return column_error(start, started.error());
	Result<std::optional<int64_t>> ended = parse_sacct_time(cell(cells, end));
	if (!ended)
		return column_error(end, ended.error());
	record.start_s = started.value();
	if (!record.start_s)
		return ok_status();
	if (index_[elapsed_raw]) {
		const std::optional<int64_t> seconds = count_value(cell(cells, elapsed_raw));
		if (!seconds)
			return column_error(elapsed_raw, "'" +
			                                     std::string(cell(cells, elapsed_raw)) +
			                                     "' is not seconds");
		record.run_s = seconds;
	} else if (index_[elapsed]) {
		Result<int64_t> seconds = parse_sacct_duration(cell(cells, elapsed));
		if (!seconds)
			return column_error(elapsed, seconds.error());
		record.run_s = seconds.value();
	} else if (ended.value()) {
		if (*ended.value() < *record.start_s)
			return column_error(end, "'" + std::string(cell(cells, end)) +
			                             "' is before Start '" +
			                             std::string(cell(cells, start)) + "'");
		record.run_s = *ended.value() - *record.start_s;
	}
	return ok_status();
}

// The job's own number: JobIDRaw, else a plain JobID.
Result<uint64_t> SacctReader::job_number(const SacctRecord &record) const
{
	const std::string &text = record.id_text;
	const std::optional<int64_t> number = count_value(text);
	if (number)
		return static_cast<uint64_t>(*number);
	if (!index_[job_id_raw])
		return Error{"column JobID: '" + text +
		             "' (an array task or a heterogeneous job's part) has no job number of "
		             "its own: add JobIDRaw to sacct's --format"};
	return Error{"column JobIDRaw: '" + text + "' is not a job number"};
}

Status SacctReader::add_job(const SacctJob &job)
{
	InputCounts &counts = workload_.counts;
	const SacctRecord &last = job.last;
	if (last.state == SacctStateKind::unfinished) {
		++counts.unfinished_dropped;
		return ok_status();
	}
	if (!window_.contains(job.arrival_s)) {
		++counts.outside_window;
		return ok_status();
	}
	if (last.state == SacctStateKind::cancelled && (!last.run_s || *last.run_s <= 0)) {
		++counts.cancelled_dropped;
		return ok_status();
	}
	if (!last.run_s) {
		++counts.unknown_runtime;
		return ok_status();
	}
	if (last.cpus == 0) {
		++counts.unknown_cpus;
		return ok_status();
	}
	Result<uint64_t> number = job_number(last);
	if (!number)
		return reject(last.line, number.error());
	const auto [seen, added] = line_of_id_.emplace(number.value(), last.line);
	if (!added)
		return reject(last.line, "job number " + std::to_string(number.value()) +
		                             " already on line " + std::to_string(seen->second));
	SimJob sim_job;
	sim_job.id = number.value();
	sim_job.user = last.user;
	sim_job.group = last.account;
	sim_job.partition = last.partition;
	sim_job.submit_s = job.arrival_s;
	sim_job.cpus = static_cast<uint32_t>(std::min<int64_t>(last.cpus, UINT32_MAX));
	sim_job.runtime_s = *last.run_s;
	sim_job.limit_s = last.limit_s == 0 ? -1 : last.limit_s;
	sim_job.trace_start_s = last.start_s.value_or(-1);
	sim_job.status = last.state == SacctStateKind::cancelled ? 5 : 1;
	counts.zero_runtime += sim_job.runtime_s == 0;
	counts.zero_limit_unknown += last.limit_s == 0;
	counts.array_tasks += last.key.find('_') != std::string::npos;
	counts.eligible_after_submit += job.eligible_after_submit;
	workload_.jobs.push_back(sim_job);
	return ok_status();
}

Status SacctReader::reject(uint64_t line, const std::string &problem)
{
	return malformed_.reject(file_.path() + ":" + std::to_string(line) + ": " + problem);
}

void SacctReader::state_notes()
{
	const InputCounts &counts = workload_.counts;
	std::vector<std::string> &notes = workload_.notes;
	const auto count = [](uint64_t value) { return std::to_string(value); };
	notes.push_back("input: " + file_.path() +
	                " (sacct --parsable2); times read as UTC epoch seconds, not rebased");
	notes.push_back("machine: " + count(workload_.machine_cpus) + " CPUs (option)");
	notes.push_back("lines: " + count(counts.lines) + " records, " + count(counts.kept) +
	                " jobs kept; each dropped record is counted once, by the first rule below");
	notes.push_back("job steps (123.batch, 123.0, 123.extern): " + count(counts.steps_dropped) +
	                " dropped");
	notes.push_back("earlier records of a job (--duplicates: runs before a requeue): " +
	                count(counts.earlier_runs_dropped) +
	                " dropped; the job keeps its last record's run and its first record's "
	                "arrival");
	if (options_.lenient)
		notes.push_back(malformed_.note("lines"));
	notes.push_back("pending, running, requeued or suspended at export: " +
	                count(counts.unfinished_dropped) + " dropped");
	if (window_.bounded())
		notes.push_back("arrival window " + window_.describe() + ": " +
		                count(counts.outside_window) + " dropped outside");
	notes.push_back("cancelled before they ran: " + count(counts.cancelled_dropped) +
	                " dropped; cancelled while running: kept with their run time");
	notes.push_back("run time (ElapsedRaw, Elapsed, else End - Start) unknown: " +
	                count(counts.unknown_runtime) + " dropped");
	notes.push_back("CPUs: AllocCPUS, else ReqCPUS; neither known: " +
	                count(counts.unknown_cpus) + " dropped");
	notes.push_back("arrival: Eligible where later than Submit (held, --begin, dependency): " +
	                count(counts.eligible_after_submit) + " jobs; else Submit");
	notes.push_back("array tasks (123_4): " + count(counts.array_tasks) +
	                " kept, each its own job (JobIDRaw)");
	notes.push_back("run time 0: " + count(counts.zero_runtime) + " kept (they run 0 s)");
	notes.push_back("limit: Timelimit(Raw); UNLIMITED and Partition_Limit read as unknown, "
	                "limit 0: " +
	                count(counts.zero_limit_unknown) + " read as unknown; " +
	                limit_cut_text(counts));
	notes.push_back("more CPUs than the machine: " + count(counts.clamped_cpus) +
	                " clamped to " + count(workload_.machine_cpus));
	notes.push_back("users: " + count(users_.names().size()) +
	                ", numbered 1, 2, ... in order of first appearance" +
	                (options_.anonymise ? ", named u1, u2, ... (--anonymise)"
	                                    : " (names in the JSON report's workload.user_names)") +
	                "; accounts and partitions numbered the same way (0 none)");
}

} // namespace

Result<Workload> read_sacct(const std::string &path, const TraceOptions &options)
{
	return SacctReader(path, options).read();
}

} // namespace campaign::sim
