// Text helpers shared by campsim's reports: numbers for tables and CSV, CSV fields, file stems,
// writing a whole file with an error naming it. No metrics logic.
#include "report/text_format.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace campaign::sim
{

std::string format_number(double value)
{
	char text[64];
	std::snprintf(text, sizeof text, "%.10g", value);
	return text;
}

std::string format_table_number(double value)
{
	char text[64];
	if (!std::isfinite(value))
		std::snprintf(text, sizeof text, "%g", value);
	else if (value == std::floor(value) && std::abs(value) < 1e15)
		std::snprintf(text, sizeof text, "%.0f", value);
	else if (std::abs(value) >= 1000)
		std::snprintf(text, sizeof text, "%.1f", value);
	else if (std::abs(value) >= 0.001)
		std::snprintf(text, sizeof text, "%.4g", value);
	else
		std::snprintf(text, sizeof text, "%.2g", value);
	return text;
}

std::string csv_field(const std::string &text)
{
	if (text.find_first_of(",\"\r\n") == std::string::npos)
		return text;
	std::string quoted = "\"";
	for (const char c : text) {
		if (c == '"')
			quoted += '"';
		quoted += c;
	}
	return quoted + "\"";
}

std::string file_stem(const std::string &label)
{
	std::string stem = label.empty() ? std::string("run") : label;
	for (char &c : stem) {
		const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		                  (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		if (!safe)
			c = '_';
	}
	return stem;
}

Status write_text_file(const std::string &path, const std::string &text)
{
	std::FILE *file = std::fopen(path.c_str(), "w");
	if (file == nullptr)
		return Error{"cannot write " + path + ": " + std::strerror(errno)};
	const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
	const int saved_errno = errno;
	if (std::fclose(file) != 0 || !written)
		return Error{"cannot write " + path + ": " +
		             std::strerror(written ? errno : saved_errno)};
	return ok_status();
}

} // namespace campaign::sim
