// The value formats of `sacct --parsable2` output: times, durations, time limits and job states,
// each parsed strictly. No column or drop rule here (sacct_reader does that).
#include "trace/sacct_fields.h"

#include <array>
#include <vector>

#include "trace/trace_file.h"

namespace campaign::sim
{

namespace
{

// Days from 1970-01-01 to the civil date (proleptic Gregorian), Howard Hinnant's algorithm.
int64_t days_from_civil(int64_t year, int64_t month, int64_t day)
{
	year -= month <= 2;
	const int64_t era = (year >= 0 ? year : year - 399) / 400;
	const int64_t year_of_era = year - era * 400;
	const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
	const int64_t day_of_era =
	    year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
	return era * 146097 + day_of_era - 719468;
}

int64_t days_in_month(int64_t year, int64_t month)
{
	static constexpr std::array<int64_t, 12> days = {31, 28, 31, 30, 31, 30,
	                                                 31, 31, 30, 31, 30, 31};
	const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	return month == 2 && leap ? 29 : days[static_cast<size_t>(month - 1)];
}

// A run of exactly `digits` decimal digits at `at`.
std::optional<int64_t> digits_at(std::string_view text, size_t at, size_t digits)
{
	if (at + digits > text.size())
		return std::nullopt;
	for (size_t i = at; i < at + digits; ++i) {
		if (text[i] < '0' || text[i] > '9')
			return std::nullopt;
	}
	return parse_integer(text.substr(at, digits));
}

std::vector<std::string_view> split(std::string_view text, char separator)
{
	std::vector<std::string_view> parts;
	size_t from = 0;
	while (true) {
		const size_t at = text.find(separator, from);
		parts.push_back(text.substr(from, at - from));
		if (at == std::string_view::npos)
			return parts;
		from = at + 1;
	}
}

std::optional<int64_t> non_negative(std::string_view text)
{
	for (char c : text) {
		if (c < '0' || c > '9')
			return std::nullopt;
	}
	return parse_integer(text);
}

bool no_limit_of_its_own(std::string_view text)
{
	return text.empty() || text == "UNLIMITED" || text == "Partition_Limit";
}

} // namespace

Result<std::optional<int64_t>> parse_sacct_time(std::string_view text)
{
	if (text.empty() || text == "Unknown" || text == "None")
		return std::optional<int64_t>();
	const Error bad{"'" + std::string(text) +
	                "' is not a time YYYY-MM-DDTHH:MM:SS (sacct's default format; unset "
	                "SLURM_TIME_FORMAT)"};
	if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
	    text[13] != ':' || text[16] != ':')
		return bad;
	const auto year = digits_at(text, 0, 4), month = digits_at(text, 5, 2),
	           day = digits_at(text, 8, 2), hour = digits_at(text, 11, 2),
	           minute = digits_at(text, 14, 2), second = digits_at(text, 17, 2);
	if (!year || !month || !day || !hour || !minute || !second || *month < 1 || *month > 12 ||
	    *day < 1 || *day > days_in_month(*year, *month) || *hour > 23 || *minute > 59 ||
	    *second > 60)
		return bad;
	return std::optional<int64_t>(days_from_civil(*year, *month, *day) * 86400 + *hour * 3600 +
	                              *minute * 60 + *second);
}

Result<int64_t> parse_sacct_duration(std::string_view text)
{
	const Error bad{"'" + std::string(text) +
	                "' is not a duration [D-]HH:MM:SS, D-HH:MM, D-HH, MM:SS or MM"};
	int64_t days = 0;
	std::string_view clock = text;
	const size_t dash = text.find('-');
	if (dash != std::string_view::npos) {
		const std::optional<int64_t> day_count = non_negative(text.substr(0, dash));
		if (!day_count)
			return bad;
		days = *day_count;
		clock = text.substr(dash + 1);
	}
	std::vector<int64_t> parts;
	for (std::string_view part : split(clock, ':')) {
		const std::optional<int64_t> value = non_negative(part);
		if (!value)
			return bad;
		parts.push_back(*value);
	}
	if (parts.size() > 3)
		return bad;
	// With days the parts are hours first; without, a lone part is minutes, two are MM:SS.
	static constexpr std::array<int64_t, 3> hms = {3600, 60, 1};
	size_t first_unit = 0;
	if (dash == std::string_view::npos)
		first_unit = parts.size() == 3 ? 0 : 1;
	int64_t seconds = days * 86400;
	for (size_t i = 0; i < parts.size(); ++i) {
		if (i > 0 && parts[i] > 59)
			return bad;
		seconds += parts[i] * hms[first_unit + i];
	}
	return seconds;
}

Result<std::optional<int64_t>> parse_sacct_limit(std::string_view text, bool raw_minutes)
{
	if (no_limit_of_its_own(text))
		return std::optional<int64_t>();
	if (raw_minutes) {
		const std::optional<int64_t> minutes = non_negative(text);
		if (!minutes)
			return Error{"'" + std::string(text) +
			             "' is not minutes, UNLIMITED or Partition_Limit"};
		return std::optional<int64_t>(*minutes * 60);
	}
	Result<int64_t> seconds = parse_sacct_duration(text);
	if (!seconds)
		return Error{seconds.error() + ", UNLIMITED or Partition_Limit"};
	return std::optional<int64_t>(seconds.value());
}

Result<SacctStateKind> parse_sacct_state(std::string_view text)
{
	const std::string_view word = text.substr(0, text.find(' '));
	static const std::array<std::string_view, 8> finished = {
	    "COMPLETED", "FAILED",    "TIMEOUT",   "OUT_OF_MEMORY",
	    "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE"};
	static const std::array<std::string_view, 13> unfinished = {
	    "PENDING",   "RUNNING",   "REQUEUED",  "REQUEUE_HOLD", "REQUEUE_FED",
	    "SUSPENDED", "RESIZING",  "REVOKED",   "SPECIAL_EXIT", "STOPPED",
	    "SIGNALING", "STAGE_OUT", "COMPLETING"};
	for (std::string_view name : finished) {
		if (word == name)
			return SacctStateKind::finished;
	}
	if (word == "CANCELLED")
		return SacctStateKind::cancelled;
	for (std::string_view name : unfinished) {
		if (word == name)
			return SacctStateKind::unfinished;
	}
	return Error{"unknown state '" + std::string(text) + "'"};
}

} // namespace campaign::sim
