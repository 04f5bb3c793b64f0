// Strict parser for "key=value,key=value" parameter strings (PriorityParameters,
// SchedulerParameters). Unknown keys and bad values are errors naming the key. No Slurm types.
#pragma once

#include "util/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace campaign
{

enum class ParameterKind { Integer, Real, Boolean, Choice, Text };

// One accepted key: its type, bounds or allowed words, default, and a one-line description
// (the man page and error messages use it).
struct ParameterSpec {
	std::string key;
	ParameterKind kind = ParameterKind::Integer;
	std::string default_value;
	std::string description;
	int64_t min_integer = INT64_MIN;
	int64_t max_integer = INT64_MAX;
	double min_real = -1e300;
	double max_real = 1e300;
	std::vector<std::string> choices; // Choice only
};

class ParameterSchema;

// The parsed values, every key of their schema present (defaults filled in). A key the values do
// not hold reads as empty text, 0 and no: values of unknown origin are checked with covers()
// first.
class ParameterValues
{
public:
	int64_t integer(std::string_view key) const;
	double real(std::string_view key) const;
	bool boolean(std::string_view key) const;
	const std::string &text(std::string_view key) const; // Choice and Text
	bool was_set(std::string_view key) const;            // given explicitly, not defaulted
	std::string describe() const;                        // "k=v,k=v" of every key, sorted
	// "k=v,k=v" of the keys of `schema` only, sorted (e.g. the core's identity).
	std::string describe(const ParameterSchema &schema) const;
	// Every key of `schema` is held; else an error naming the first missing key.
	Status covers(const ParameterSchema &schema) const;

	void set(const std::string &key, std::string value, bool explicit_value);

private:
	struct Entry {
		std::string value;
		bool explicit_value = false;
	};
	const Entry &entry(std::string_view key) const;
	std::map<std::string, Entry, std::less<>> entries_;
};

// A set of accepted keys. `prefix` restricts which keys of the string are ours: with prefix
// "campaign_" (SchedulerParameters), keys without it belong to Slurm and are ignored; with an
// empty prefix (PriorityParameters) every key must be ours.
class ParameterSchema
{
public:
	ParameterSchema(std::string owner, std::string prefix, std::vector<ParameterSpec> specs);

	Result<ParameterValues> parse(std::string_view text) const;
	const std::vector<ParameterSpec> &specs() const { return specs_; }
	const std::string &owner() const { return owner_; }
	// The allowed values of a key in words, e.g. "an integer in [1, 3600]" or "one of a|b".
	static std::string allowed(const ParameterSpec &spec);

private:
	const ParameterSpec *find(std::string_view key) const;
	std::optional<std::string> check_value(const ParameterSpec &spec,
	                                       std::string_view value) const;

	std::string owner_;
	std::string prefix_;
	std::vector<ParameterSpec> specs_;
};

} // namespace campaign
