// Reads a plain job list (CSV with a header, or JSON) such as the cluster tests capture from
// Slurm, into a Workload, so campsim can be checked against the real cluster. No policy here.
#include "trace/job_list_reader.h"

#include <algorithm>
#include <cctype>
#include <jansson.h>
#include <limits>
#include <memory>
#include <unordered_map>

#include "trace/trace_file.h"

namespace campaign::sim
{

namespace
{

enum Column : size_t { id, user, submit, cpus, limit, start, end, runtime, account, column_count };
constexpr size_t required_column_count = 5; // id .. limit, the header must name them
const char *const column_names[column_count] = {"id",    "user", "submit",  "cpus",   "limit",
                                                "start", "end",  "runtime", "account"};

constexpr int64_t uint32_limit = std::numeric_limits<uint32_t>::max();

// One job as listed, before users and accounts are numbered.
struct ListedJob {
	int64_t id = 0;
	std::string user;
	std::string account; // empty: unknown
	int64_t submit_s = 0;
	int64_t cpus = 0;
	int64_t limit_s = -1;
	std::optional<int64_t> start_s;
	std::optional<int64_t> end_s;
	std::optional<int64_t> runtime_s;

	// end - start, else runtime, else limit; none: unknown.
	std::optional<int64_t> known_runtime() const
	{
		if (start_s && end_s)
			return *end_s - *start_s;
		if (runtime_s)
			return runtime_s;
		return limit_s >= 0 ? std::optional<int64_t>(limit_s) : std::nullopt;
	}
};

// Users (or accounts) as numbers: the listed numbers when every value is one, else names
// numbered 1, 2, ... in order of first appearance.
class Numbering
{
public:
	void add(const std::string &value)
	{
		if (value.empty() || numbers_.count(value))
			return;
		const std::optional<int64_t> number = parse_integer(value);
		all_numbers_ = all_numbers_ && number && *number >= 0 && *number <= uint32_limit;
		numbers_.emplace(value, static_cast<uint32_t>(numbers_.size() + 1));
	}
	uint32_t number(const std::string &value) const
	{
		if (value.empty())
			return 0;
		if (all_numbers_)
			return static_cast<uint32_t>(*parse_integer(value));
		return numbers_.at(value);
	}
	bool by_name() const { return !all_numbers_; }

private:
	std::unordered_map<std::string, uint32_t> numbers_; // in order of first appearance
	bool all_numbers_ = true;
};

// Empty when the listed values are consistent.
std::string listed_problem(const ListedJob &job)
{
	const auto text = [](int64_t value) { return std::to_string(value); };
	if (job.id < 0)
		return "'id' is negative: " + text(job.id);
	if (job.user.empty())
		return "'user' is empty";
	if (job.submit_s < 0)
		return "'submit' is negative: " + text(job.submit_s);
	if (job.cpus == 0 || job.cpus < -1)
		return "'cpus' is not positive (or -1, unknown): " + text(job.cpus);
	if (job.cpus > uint32_limit)
		return "'cpus' is too large: " + text(job.cpus);
	if (job.limit_s < -1)
		return "'limit' is below -1 (unknown): " + text(job.limit_s);
	for (const auto &[name, value] :
	     {std::pair{"start", job.start_s}, std::pair{"end", job.end_s},
	      std::pair{"runtime", job.runtime_s}}) {
		if (value && *value < 0)
			return std::string("'") + name + "' is below -1 (unknown): " + text(*value);
	}
	if (job.start_s && *job.start_s < job.submit_s)
		return "'start' (" + text(*job.start_s) + ") is before 'submit' (" +
		       text(job.submit_s) + ")";
	if (job.start_s && job.end_s && *job.end_s < *job.start_s)
		return "'end' (" + text(*job.end_s) + ") is before 'start' (" + text(*job.start_s) +
		       ")";
	return "";
}

// Gathers the listed jobs, applies the drop rules and states them in the notes.
class JobListBuilder
{
public:
	JobListBuilder(const std::string &path, const TraceOptions &options)
	    : path_(path), options_(options), window_{options.from_s, options.to_s}
	{
	}
	// One listed job (or why it is malformed) found at `where` ("file:line", "file: jobs[3]").
	Status add(Result<ListedJob> listed, const std::string &where);
	Result<Workload> finish(const std::string &format, std::optional<int64_t> listed_cpus);

private:
	Status reject(const std::string &where, const std::string &problem);
	void state_notes(const std::string &format, const std::string &machine_source);

	const std::string &path_;
	const TraceOptions &options_;
	SubmitWindow window_;
	std::unordered_map<int64_t, std::string> where_of_job_;
	std::vector<ListedJob> kept_;
	Numbering users_;
	Numbering accounts_;
	Workload workload_;
	MalformedInput malformed_{options_.lenient, workload_.counts.malformed_skipped};
};

Status JobListBuilder::add(Result<ListedJob> listed, const std::string &where)
{
	InputCounts &counts = workload_.counts;
	++counts.lines;
	if (!listed)
		return reject(where, listed.error());
	ListedJob job = listed.value();
	if (std::string problem = listed_problem(job); !problem.empty())
		return reject(where, problem);
	const bool zero_limit = job.limit_s == 0; // Slurm's and SWF's "no limit given"
	if (zero_limit)
		job.limit_s = -1;
	users_.add(job.user);
	accounts_.add(job.account);
	if (!window_.contains(job.submit_s)) {
		++counts.outside_window;
		return ok_status();
	}
	if (!job.known_runtime()) {
		++counts.unknown_runtime;
		return ok_status();
	}
	if (job.cpus < 0) {
		++counts.unknown_cpus;
		return ok_status();
	}
	const auto [seen, inserted] = where_of_job_.emplace(job.id, where);
	if (!inserted)
		return reject(where, "duplicate id " + std::to_string(job.id) + " (first at " +
		                         seen->second + ")");
	counts.zero_limit_unknown += zero_limit;
	kept_.push_back(job);
	return ok_status();
}

Status JobListBuilder::reject(const std::string &where, const std::string &problem)
{
	return malformed_.reject(where + ": " + problem);
}

SimJob to_sim_job(const ListedJob &listed, const Numbering &users, const Numbering &accounts)
{
	SimJob job;
	job.id = static_cast<uint64_t>(listed.id);
	job.user = users.number(listed.user);
	job.group = accounts.number(listed.account);
	job.submit_s = listed.submit_s;
	job.cpus = static_cast<uint32_t>(listed.cpus);
	job.runtime_s = *listed.known_runtime();
	job.limit_s = listed.limit_s;
	job.trace_start_s = listed.start_s.value_or(-1);
	return job;
}

Result<Workload> JobListBuilder::finish(const std::string &format,
                                        std::optional<int64_t> listed_cpus)
{
	std::string machine_source = "option";
	if (options_.machine_cpus) {
		workload_.machine_cpus = *options_.machine_cpus;
	} else if (listed_cpus) {
		workload_.machine_cpus = static_cast<uint32_t>(*listed_cpus);
		machine_source = "the list's machine_cpus";
	} else {
		return Error{path_ + ": machine size unknown: give the machine_cpus option (or "
		                     "\"machine_cpus\" in a JSON list)"};
	}
	InputCounts &counts = workload_.counts;
	for (const ListedJob &listed : kept_) {
		const SimJob job = to_sim_job(listed, users_, accounts_);
		counts.zero_runtime += job.runtime_s == 0;
		workload_.jobs.push_back(job);
	}
	workload_.name = file_name_of(path_);
	finish_workload(workload_);
	state_notes(format, machine_source);
	return std::move(workload_);
}

void JobListBuilder::state_notes(const std::string &format, const std::string &machine_source)
{
	const InputCounts &counts = workload_.counts;
	std::vector<std::string> &notes = workload_.notes;
	const auto count = [](uint64_t value) { return std::to_string(value); };
	notes.push_back("input: " + path_ + " (job list, " + format +
	                "); times in seconds as listed, not rebased");
	notes.push_back("machine: " + count(workload_.machine_cpus) + " CPUs (" + machine_source +
	                ")");
	notes.push_back("jobs: " + count(counts.lines) + " listed, " + count(counts.kept) +
	                " kept; each dropped job is counted once, by the first rule below");
	if (options_.lenient)
		notes.push_back(malformed_.note("jobs"));
	if (window_.bounded())
		notes.push_back("submit window " + window_.describe() + ": " +
		                count(counts.outside_window) + " dropped outside");
	notes.push_back("run time: end - start where both are given, else runtime, else the "
	                "limit; none known: " +
	                count(counts.unknown_runtime) + " dropped");
	notes.push_back("CPUs -1 (unknown): " + count(counts.unknown_cpus) + " dropped");
	notes.push_back("run time 0: " + count(counts.zero_runtime) + " kept (they run 0 s)");
	notes.push_back("limit: -1 unknown; limit 0: " + count(counts.zero_limit_unknown) +
	                " read as unknown (no limit given); " + limit_cut_text(counts));
	notes.push_back("more CPUs than the machine: " + count(counts.clamped_cpus) +
	                " clamped to " + count(workload_.machine_cpus));
	notes.push_back(std::string("users: ") +
	                (users_.by_name() ? "names numbered 1, 2, ... in order of first appearance"
	                                  : "numbers as listed") +
	                "; accounts: " +
	                (accounts_.by_name() ? "names numbered 1, 2, ... (0 none)"
	                                     : "numbers as listed (0 none)") +
	                "; trace start: the listed start");
}

// Builds a ListedJob from a source of keyed values (a CSV row, a JSON object). Source has
// integer(Column, required) -> Result<optional<int64_t>> and name(Column, required) ->
// Result<string>, each naming the culprit in its errors.
template <typename Source> Result<ListedJob> listed_job(const Source &source)
{
	ListedJob job;
	const std::pair<Column, int64_t *> required[] = {
	    {id, &job.id}, {submit, &job.submit_s}, {cpus, &job.cpus}, {limit, &job.limit_s}};
	const std::pair<Column, std::optional<int64_t> *> optional[] = {
	    {start, &job.start_s}, {end, &job.end_s}, {runtime, &job.runtime_s}};
	Result<std::string> user_name = source.name(user, true);
	if (!user_name)
		return Error{user_name.error()};
	job.user = std::move(user_name.value());
	for (const auto &[column, target] : required) {
		Result<std::optional<int64_t>> value = source.integer(column, true);
		if (!value)
			return Error{value.error()};
		*target = *value.value();
	}
	for (const auto &[column, target] : optional) {
		Result<std::optional<int64_t>> value = source.integer(column, false);
		if (!value)
			return Error{value.error()};
		if (value.value() && *value.value() != -1) // -1: unknown, as empty
			*target = value.value();
	}
	Result<std::string> account_name = source.name(account, false);
	if (!account_name)
		return Error{account_name.error()};
	job.account = std::move(account_name.value());
	return job;
}

// ---- CSV ----

// Splits one CSV line into trimmed cells; double quotes group (and "" escapes) a quote.
Result<std::vector<std::string>> split_csv(std::string_view line)
{
	std::vector<std::string> cells(1);
	bool quoted = false;
	for (size_t at = 0; at < line.size(); ++at) {
		const char c = line[at];
		if (quoted && c == '"' && at + 1 < line.size() && line[at + 1] == '"')
			cells.back().push_back(line[++at]);
		else if (c == '"')
			quoted = !quoted;
		else if (c == ',' && !quoted)
			cells.emplace_back();
		else
			cells.back().push_back(c);
	}
	if (quoted)
		return Error{"unterminated quote"};
	for (std::string &cell : cells) {
		const size_t first = cell.find_first_not_of(" \t");
		const size_t last = cell.find_last_not_of(" \t");
		cell = first == std::string::npos ? "" : cell.substr(first, last - first + 1);
	}
	return cells;
}

struct CsvColumns {
	std::optional<size_t> index[column_count];
	std::string account_key = "account"; // or "group", as the header spells it
	size_t count = 0;                    // cells per row
};

std::optional<Column> column_named(const std::string &key)
{
	if (key == "group")
		return account;
	for (size_t column = 0; column < column_count; ++column) {
		if (key == column_names[column])
			return Column(column);
	}
	return std::nullopt;
}

Result<CsvColumns> read_csv_header(std::string_view line)
{
	Result<std::vector<std::string>> cells = split_csv(line);
	if (!cells)
		return Error{"header: " + cells.error()};
	CsvColumns columns;
	columns.count = cells.value().size();
	for (size_t at = 0; at < columns.count; ++at) {
		std::string key = cells.value()[at];
		std::transform(key.begin(), key.end(), key.begin(),
		               [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
		const std::optional<Column> column = column_named(key);
		if (!column)
			continue; // columns campsim does not use
		std::optional<size_t> &slot = columns.index[*column];
		if (slot)
			return Error{"header: column '" + key +
			             "' given twice (account and group are one column)"};
		slot = at;
		if (*column == account)
			columns.account_key = key;
	}
	for (size_t column = 0; column < required_column_count; ++column) {
		if (!columns.index[column])
			return Error{std::string("header: missing column '") +
			             column_names[column] +
			             "' (required: id, user, submit, cpus, limit)"};
	}
	return columns;
}

class CsvRow
{
public:
	CsvRow(const std::vector<std::string> &cells, const CsvColumns &columns)
	    : cells_(cells), columns_(columns)
	{
	}
	Result<std::optional<int64_t>> integer(Column column, bool required) const
	{
		const std::string *cell = find(column);
		if (!cell || cell->empty()) {
			if (required)
				return Error{"column '" + key(column) + "' is empty"};
			return std::optional<int64_t>();
		}
		const std::optional<int64_t> value = parse_integer(*cell);
		if (!value)
			return Error{"column '" + key(column) + "' is not a number: '" + *cell +
			             "'"};
		return value;
	}
	Result<std::string> name(Column column, bool required) const
	{
		const std::string *cell = find(column);
		if (required && (!cell || cell->empty()))
			return Error{"column '" + key(column) + "' is empty"};
		return cell ? *cell : std::string();
	}

private:
	const std::string *find(Column column) const
	{
		return columns_.index[column] ? &cells_[*columns_.index[column]] : nullptr;
	}
	std::string key(Column column) const
	{
		return column == account ? columns_.account_key : column_names[column];
	}

	const std::vector<std::string> &cells_;
	const CsvColumns &columns_;
};

Result<ListedJob> parse_csv_row(std::string_view line, const CsvColumns &columns)
{
	Result<std::vector<std::string>> cells = split_csv(line);
	if (!cells)
		return Error{cells.error()};
	if (cells.value().size() != columns.count)
		return Error{"expected " + std::to_string(columns.count) + " columns, found " +
		             std::to_string(cells.value().size())};
	return listed_job(CsvRow(cells.value(), columns));
}

Result<Workload> read_csv(const std::string &path, const std::string &text,
                          const TraceOptions &options)
{
	JobListBuilder builder(path, options);
	std::optional<CsvColumns> columns;
	uint64_t line_number = 0;
	for (size_t at = 0; at < text.size();) {
		const size_t stop = std::min(text.find('\n', at), text.size());
		std::string_view line(text.data() + at, stop - at);
		at = stop + 1;
		++line_number;
		if (!line.empty() && line.back() == '\r')
			line.remove_suffix(1);
		const size_t first = line.find_first_not_of(" \t");
		if (first == std::string_view::npos || line[first] == '#')
			continue;
		const std::string where = path + ":" + std::to_string(line_number);
		if (!columns) {
			Result<CsvColumns> header = read_csv_header(line);
			if (!header)
				return Error{where + ": " + header.error()};
			columns = std::move(header.value());
			continue;
		}
		if (Status added = builder.add(parse_csv_row(line, *columns), where); !added)
			return Error{added.error()};
	}
	if (!columns)
		return Error{path + ": no header line (id, user, submit, cpus, limit, ...)"};
	return builder.finish("CSV", std::nullopt);
}

// ---- JSON ----

class JsonJob
{
public:
	explicit JsonJob(const json_t *object) : object_(object) {}
	Result<std::optional<int64_t>> integer(Column column, bool required) const
	{
		const json_t *value = find(column);
		if (!value || json_is_null(value)) {
			if (required)
				return Error{"missing '" + key(column) + "'"};
			return std::optional<int64_t>();
		}
		if (!json_is_integer(value))
			return Error{"'" + key(column) + "' is not an integer"};
		return std::optional<int64_t>(json_integer_value(value));
	}
	Result<std::string> name(Column column, bool required) const
	{
		const json_t *value = find(column);
		if (!value || json_is_null(value)) {
			if (required)
				return Error{"missing '" + key(column) + "'"};
			return std::string();
		}
		if (json_is_integer(value))
			return std::to_string(json_integer_value(value));
		if (json_is_string(value))
			return std::string(json_string_value(value), json_string_length(value));
		return Error{"'" + key(column) + "' is neither a number nor a name"};
	}

private:
	const json_t *find(Column column) const
	{
		if (column != account)
			return json_object_get(object_, column_names[column]);
		const json_t *value = json_object_get(object_, "account");
		return value ? value : json_object_get(object_, "group");
	}
	std::string key(Column column) const
	{
		if (column == account && !json_object_get(object_, "account"))
			return "group";
		return column_names[column];
	}

	const json_t *object_;
};

Result<ListedJob> parse_json_job(const json_t *item)
{
	if (!json_is_object(item))
		return Error{"not an object"};
	return listed_job(JsonJob(item));
}

// The jobs array and the listed machine size of a JSON job list.
Status find_json_jobs(const json_t *root, const json_t *&jobs, std::optional<int64_t> &cpus)
{
	if (json_is_array(root)) {
		jobs = root;
		return ok_status();
	}
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs))
		return Error{"\"jobs\" is missing or not an array"};
	const json_t *machine = json_object_get(root, "machine_cpus");
	if (machine && !json_is_null(machine)) {
		if (!json_is_integer(machine) || json_integer_value(machine) <= 0 ||
		    json_integer_value(machine) > uint32_limit)
			return Error{"\"machine_cpus\" is not a positive integer"};
		cpus = json_integer_value(machine);
	}
	return ok_status();
}

Result<Workload> read_json(const std::string &path, const std::string &text,
                           const TraceOptions &options)
{
	json_error_t problem;
	std::unique_ptr<json_t, void (*)(json_t *)> root(
	    json_loadb(text.data(), text.size(), 0, &problem), json_decref);
	if (!root)
		return Error{path + ":" + std::to_string(problem.line) +
		             ": invalid JSON: " + problem.text};
	const json_t *jobs = nullptr;
	std::optional<int64_t> listed_cpus;
	if (Status found = find_json_jobs(root.get(), jobs, listed_cpus); !found)
		return Error{path + ": " + found.error()};
	JobListBuilder builder(path, options);
	for (size_t index = 0; index < json_array_size(jobs); ++index) {
		const std::string where = path + ": jobs[" + std::to_string(index) + "]";
		if (Status added = builder.add(parse_json_job(json_array_get(jobs, index)), where);
		    !added)
			return Error{added.error()};
	}
	return builder.finish("JSON", listed_cpus);
}

} // namespace

Result<Workload> read_job_list(const std::string &path, const TraceOptions &options)
{
	Result<std::string> text = read_whole_file(path);
	if (!text)
		return Error{text.error()};
	const size_t first = text.value().find_first_not_of(" \t\r\n");
	if (first != std::string::npos &&
	    (text.value()[first] == '[' || text.value()[first] == '{'))
		return read_json(path, text.value(), options);
	return read_csv(path, text.value(), options);
}

} // namespace campaign::sim
