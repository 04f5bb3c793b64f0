// Checked reading of a jansson tree for the state loader: every accessor knows its path
// ("jobs[3].cpus") and throws JsonReadError naming it. Used only inside the loader, which
// turns the exception into a Result; nothing here escapes to callers. No Slurm types.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

typedef struct json_t json_t;

namespace campaign
{

struct JsonReadError : std::runtime_error {
	using std::runtime_error::runtime_error;
};

class JsonReader
{
public:
	JsonReader(const json_t *node, std::string path) : node_(node), path_(std::move(path)) {}

	JsonReader field(const char *key) const; // object member (must exist)
	bool has(const char *key) const;         // object member present (later releases' fields)
	JsonReader item(size_t index) const;     // array element
	size_t size() const;                     // array length (must be an array)
	int64_t integer(int64_t min, int64_t max) const;
	std::optional<int64_t> optional_integer(int64_t min, int64_t max) const; // null: empty
	double real() const; // finite number (integers accepted)
	bool boolean() const;
	std::string text() const;
	const std::string &path() const { return path_; }
	[[noreturn]] void fail(const std::string &what) const;

private:
	const json_t *node_;
	std::string path_;
};

} // namespace campaign
