// Strict "key=value,..." parser: every error names the parameter string's owner, the key and
// what it accepts. No Slurm types.
#include "util/parameters.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace campaign
{
namespace
{

std::string trim(std::string_view text)
{
	size_t begin = 0, end = text.size();
	while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
		begin++;
	while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
		end--;
	return std::string(text.substr(begin, end - begin));
}

std::string lower(std::string text)
{
	std::transform(text.begin(), text.end(), text.begin(),
	               [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
	return text;
}

std::vector<std::string> split_commas(std::string_view text)
{
	std::vector<std::string> items;
	size_t start = 0;
	while (start <= text.size()) {
		size_t comma = text.find(',', start);
		if (comma == std::string_view::npos)
			comma = text.size();
		items.push_back(trim(text.substr(start, comma - start)));
		start = comma + 1;
	}
	return items;
}

std::optional<int64_t> parse_integer(const std::string &text)
{
	if (text.empty())
		return std::nullopt;
	errno = 0;
	char *end = nullptr;
	long long value = std::strtoll(text.c_str(), &end, 10);
	if (errno != 0 || end == text.c_str() || *end != '\0')
		return std::nullopt;
	return static_cast<int64_t>(value);
}

std::optional<double> parse_real(const std::string &text)
{
	if (text.empty())
		return std::nullopt;
	errno = 0;
	char *end = nullptr;
	double value = std::strtod(text.c_str(), &end);
	if (errno != 0 || end == text.c_str() || *end != '\0' || !std::isfinite(value))
		return std::nullopt;
	return value;
}

std::optional<bool> parse_boolean(const std::string &text)
{
	const std::string word = lower(text);
	if (word == "yes" || word == "true" || word == "1" || word == "on")
		return true;
	if (word == "no" || word == "false" || word == "0" || word == "off")
		return false;
	return std::nullopt;
}

} // namespace

const ParameterValues::Entry &ParameterValues::entry(std::string_view key) const
{
	static const Entry absent; // empty text, 0, no: see covers()
	auto found = entries_.find(key);
	return found == entries_.end() ? absent : found->second;
}

int64_t ParameterValues::integer(std::string_view key) const
{
	return std::strtoll(entry(key).value.c_str(), nullptr, 10);
}

double ParameterValues::real(std::string_view key) const
{
	return std::strtod(entry(key).value.c_str(), nullptr);
}

bool ParameterValues::boolean(std::string_view key) const
{
	return parse_boolean(entry(key).value).value_or(false);
}

const std::string &ParameterValues::text(std::string_view key) const
{
	return entry(key).value;
}

bool ParameterValues::was_set(std::string_view key) const
{
	return entry(key).explicit_value;
}

void ParameterValues::set(const std::string &key, std::string value, bool explicit_value)
{
	entries_[key] = Entry{std::move(value), explicit_value};
}

std::string ParameterValues::describe() const
{
	std::string out;
	for (const auto &[key, item] : entries_) {
		if (!out.empty())
			out += ',';
		out += key + '=' + item.value;
	}
	return out;
}

std::string ParameterValues::describe(const ParameterSchema &schema) const
{
	std::string out;
	for (const auto &entry : entries_) {
		const std::string &key = entry.first;
		const bool ours =
		    std::any_of(schema.specs().begin(), schema.specs().end(),
		                [&](const ParameterSpec &spec) { return spec.key == key; });
		if (!ours)
			continue;
		if (!out.empty())
			out += ',';
		out += key + '=' + entry.second.value;
	}
	return out;
}

Status ParameterValues::covers(const ParameterSchema &schema) const
{
	for (const ParameterSpec &spec : schema.specs())
		if (!entries_.contains(spec.key))
			return Error{schema.owner() + ": parameter '" + spec.key + "' missing"};
	return ok_status();
}

ParameterSchema::ParameterSchema(std::string owner, std::string prefix,
                                 std::vector<ParameterSpec> specs)
    : owner_(std::move(owner)), prefix_(std::move(prefix)), specs_(std::move(specs))
{
}

const ParameterSpec *ParameterSchema::find(std::string_view key) const
{
	for (const auto &spec : specs_)
		if (spec.key == key)
			return &spec;
	return nullptr;
}

std::string ParameterSchema::allowed(const ParameterSpec &spec)
{
	std::ostringstream out;
	switch (spec.kind) {
	case ParameterKind::Integer:
		out << "an integer in [" << spec.min_integer << ", " << spec.max_integer << "]";
		break;
	case ParameterKind::Real:
		out << "a number in [" << spec.min_real << ", " << spec.max_real << "]";
		break;
	case ParameterKind::Boolean:
		out << "yes or no";
		break;
	case ParameterKind::Choice:
		out << "one of ";
		for (size_t i = 0; i < spec.choices.size(); i++)
			out << (i ? "|" : "") << spec.choices[i];
		break;
	case ParameterKind::Text:
		out << "a word without commas";
		break;
	}
	return out.str();
}

std::optional<std::string> ParameterSchema::check_value(const ParameterSpec &spec,
                                                        std::string_view raw) const
{
	const std::string value(raw);
	bool good = false;
	switch (spec.kind) {
	case ParameterKind::Integer: {
		auto number = parse_integer(value);
		good = number && *number >= spec.min_integer && *number <= spec.max_integer;
		break;
	}
	case ParameterKind::Real: {
		auto number = parse_real(value);
		good = number && *number >= spec.min_real && *number <= spec.max_real;
		break;
	}
	case ParameterKind::Boolean:
		good = parse_boolean(value).has_value();
		break;
	case ParameterKind::Choice:
		good = std::find(spec.choices.begin(), spec.choices.end(), lower(value)) !=
		       spec.choices.end();
		break;
	case ParameterKind::Text:
		good = !value.empty();
		break;
	}
	if (good)
		return std::nullopt;
	return owner_ + ": bad value '" + value + "' for " + spec.key + ": expected " +
	       allowed(spec);
}

Result<ParameterValues> ParameterSchema::parse(std::string_view text) const
{
	ParameterValues values;
	for (const auto &spec : specs_)
		values.set(spec.key, spec.default_value, false);

	for (const std::string &item : split_commas(text)) {
		if (item.empty())
			continue;
		const size_t equals = item.find('=');
		const std::string key = lower(trim(item.substr(0, equals)));
		if (!prefix_.empty() && key.rfind(prefix_, 0) != 0)
			continue; // a key of Slurm's own, not ours
		const ParameterSpec *spec = find(key);
		if (!spec) {
			std::string known;
			for (const auto &s : specs_)
				known += (known.empty() ? "" : ", ") + s.key;
			return Error{owner_ + ": unknown parameter '" + key + "' (known: " + known +
			             ")"};
		}
		if (equals == std::string::npos)
			return Error{owner_ + ": parameter " + key + " needs a value: " + key +
			             "=" + "<" + allowed(*spec) + ">"};
		std::string value = trim(item.substr(equals + 1));
		if (auto problem = check_value(*spec, value))
			return Error{*problem};
		if (spec->kind == ParameterKind::Choice)
			value = lower(value);
		if (spec->kind == ParameterKind::Boolean)
			value = *parse_boolean(value) ? "yes" : "no";
		if (values.was_set(key))
			return Error{owner_ + ": parameter " + key + " given twice"};
		values.set(key, std::move(value), true);
	}
	return values;
}

} // namespace campaign
