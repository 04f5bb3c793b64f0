// What the trace readers share: reading a plain or gzip file line by line, strict integer fields,
// and the finishing of a Workload (order, CPU clamp). No format knowledge and no policy here.
#include "trace/trace_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <zlib.h>

namespace campaign::sim
{

namespace
{

constexpr unsigned gz_buffer_bytes = 256 * 1024;

std::string gz_error_text(gzFile gz)
{
	int code = Z_OK;
	const char *text = gzerror(gz, &code);
	if (code == Z_ERRNO)
		return std::strerror(errno);
	return text ? text : "unknown error";
}

bool gz_failed(gzFile gz)
{
	int code = Z_OK;
	gzerror(gz, &code);
	return code != Z_OK && code != Z_STREAM_END;
}

} // namespace

TraceFile::~TraceFile()
{
	if (gz_)
		gzclose(static_cast<gzFile>(gz_));
}

Status TraceFile::open()
{
	errno = 0;
	gzFile gz = gzopen(path_.c_str(), "rb");
	if (!gz)
		return Error{path_ +
		             ": cannot open: " + (errno ? std::strerror(errno) : "out of memory")};
	gzbuffer(gz, gz_buffer_bytes);
	gz_ = gz;
	return ok_status();
}

bool TraceFile::next_line(std::string_view &line)
{
	gzFile gz = static_cast<gzFile>(gz_);
	char chunk[4096];
	line_.clear();
	bool read_any = false;
	while (gzgets(gz, chunk, sizeof chunk)) {
		read_any = true;
		line_.append(chunk);
		if (!line_.empty() && line_.back() == '\n')
			break;
	}
	if (gz_failed(gz)) {
		status_ = Error{path_ + ": read error after line " + std::to_string(line_number_) +
		                ": " + gz_error_text(gz)};
		return false;
	}
	if (!read_any)
		return false;
	++line_number_;
	size_t length = line_.size();
	if (length && line_[length - 1] == '\n')
		--length;
	if (length && line_[length - 1] == '\r')
		--length;
	line = std::string_view(line_.data(), length);
	return true;
}

Error TraceFile::error_here(const std::string &what) const
{
	return Error{path_ + ":" + std::to_string(line_number_) + ": " + what};
}

Result<std::string> read_whole_file(const std::string &path)
{
	TraceFile file(path);
	if (Status opened = file.open(); !opened)
		return Error{opened.error()};
	std::string text;
	std::string_view line;
	while (file.next_line(line)) {
		text.append(line);
		text.push_back('\n');
	}
	if (!file.status())
		return Error{file.status().error()};
	return text;
}

std::optional<int64_t> parse_integer(std::string_view text)
{
	int64_t value = 0;
	const char *end = text.data() + text.size();
	const auto [stop, code] = std::from_chars(text.data(), end, value);
	if (text.empty() || code != std::errc() || stop != end)
		return std::nullopt;
	return value;
}

std::string file_name_of(const std::string &path)
{
	const size_t slash = path.find_last_of('/');
	return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string SubmitWindow::describe() const
{
	return "[" + (from_s ? std::to_string(*from_s) : std::string("start")) + ", " +
	       (to_s ? std::to_string(*to_s) : std::string("end")) + ")";
}

void finish_workload(Workload &workload)
{
	InputCounts &counts = workload.counts;
	for (SimJob &job : workload.jobs) {
		if (workload.machine_cpus > 0 && job.cpus > workload.machine_cpus) {
			job.cpus = workload.machine_cpus;
			++counts.clamped_cpus;
		}
		const auto cpus = static_cast<uint64_t>(job.cpus);
		counts.work_cpu_s += static_cast<uint64_t>(job.runtime_s) * cpus;
		if (job.limit_s >= 0 && job.limit_s < job.runtime_s) {
			++counts.limit_below_runtime;
			counts.cut_at_limit_cpu_s +=
			    static_cast<uint64_t>(job.runtime_s - job.limit_s) * cpus;
		}
	}
	std::sort(workload.jobs.begin(), workload.jobs.end(), [](const SimJob &a, const SimJob &b) {
		return a.submit_s != b.submit_s ? a.submit_s < b.submit_s : a.id < b.id;
	});
	counts.kept = workload.jobs.size();
}

std::string limit_cut_text(const InputCounts &counts)
{
	const double percent = counts.work_cpu_s == 0
	                           ? 0.0
	                           : 100.0 * static_cast<double>(counts.cut_at_limit_cpu_s) /
	                                 static_cast<double>(counts.work_cpu_s);
	char share[32];
	std::snprintf(share, sizeof share, "%.1f", percent);
	return "below the run time: " + std::to_string(counts.limit_below_runtime) +
	       " jobs, cut at their limit in the replay: " +
	       std::to_string(counts.cut_at_limit_cpu_s) + " of the log's " +
	       std::to_string(counts.work_cpu_s) + " CPU-seconds lost (" + share + " %)";
}

Status MalformedInput::reject(std::string message)
{
	if (!lenient_)
		return Error{std::move(message)};
	++skipped_;
	if (first_.empty())
		first_ = std::move(message);
	return ok_status();
}

std::string MalformedInput::note(const std::string &what) const
{
	if (!lenient_)
		return "";
	return "malformed " + what + ": " + std::to_string(skipped_) + " skipped (lenient)" +
	       (first_.empty() ? "" : "; first: " + first_);
}

} // namespace campaign::sim
