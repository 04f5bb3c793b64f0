// What the trace readers share: reading a plain or gzip file line by line, strict integer fields,
// and the finishing of a Workload (order, CPU clamp). No format knowledge and no policy here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trace/sim_job.h"
#include "util/result.h"

namespace campaign::sim
{

// Reads a file (plain or gzip: zlib's gzopen reads both) one line at a time.
class TraceFile
{
public:
	explicit TraceFile(std::string path) : path_(std::move(path)) {}
	~TraceFile();
	TraceFile(const TraceFile &) = delete;
	TraceFile &operator=(const TraceFile &) = delete;

	// "<path>: cannot open: <reason>" when the file cannot be opened.
	Status open();
	// The next line without its line end ("\n" or "\r\n"); valid until the next call. False at
	// the end of the file or on a read error (see status()).
	bool next_line(std::string_view &line);
	// After next_line returned false: a read error (e.g. a truncated .gz) names the file.
	const Status &status() const { return status_; }
	uint64_t line_number() const { return line_number_; }
	const std::string &path() const { return path_; }
	// "<path>:<line>: <what>" for the line last read.
	Error error_here(const std::string &what) const;

private:
	std::string path_;
	void *gz_ = nullptr; // gzFile
	std::string line_;
	uint64_t line_number_ = 0;
	Status status_ = ok_status();
};

// A malformed record: without --lenient the error; with it, counted in counts.malformed_skipped
// and skipped, the first one kept for the note. The three readers share it.
class MalformedInput
{
public:
	MalformedInput(bool lenient, uint64_t &skipped) : lenient_(lenient), skipped_(skipped) {}

	Status reject(std::string message);
	// "malformed WHAT: N skipped (lenient); first: ..." (empty without --lenient).
	std::string note(const std::string &what) const;

private:
	bool lenient_;
	uint64_t &skipped_;
	std::string first_;
};

// The whole file as text (plain or gzip).
Result<std::string> read_whole_file(const std::string &path);

// A decimal integer filling all of `text` (leading '-' allowed, no '+', no spaces).
std::optional<int64_t> parse_integer(std::string_view text);

// The last component of a path (the workload's name).
std::string file_name_of(const std::string &path);

// The submit-time window of the --from/--to options: [from_s, to_s), either side open.
struct SubmitWindow {
	std::optional<int64_t> from_s;
	std::optional<int64_t> to_s;

	bool contains(int64_t submit_s) const
	{
		return (!from_s || submit_s >= *from_s) && (!to_s || submit_s < *to_s);
	}
	bool bounded() const { return from_s || to_s; }
	std::string describe() const; // "[100, 200)", "[100, end)"
};

// Clamps jobs wider than machine_cpus (when known) and counts them; counts the jobs whose limit
// is below their run time and the CPU-seconds the replay cuts there (of the kept jobs' work);
// orders jobs by submit time, then id; sets counts.kept.
void finish_workload(Workload &workload);

// "below the run time: N jobs, cut at their limit in the replay: X of the log's Y CPU-seconds
// lost (Z %)", for the readers' notes.
std::string limit_cut_text(const InputCounts &counts);

} // namespace campaign::sim
