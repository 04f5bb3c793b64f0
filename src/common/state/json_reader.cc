// Checked jansson reading with culprit paths. No Slurm types.
#include "state/json_reader.h"

#include <cmath>
#include <jansson.h>

namespace campaign
{

void JsonReader::fail(const std::string &what) const
{
	throw JsonReadError("state: " + path_ + ": " + what);
}

bool JsonReader::has(const char *key) const
{
	return json_is_object(node_) && json_object_get(node_, key) != nullptr;
}

JsonReader JsonReader::field(const char *key) const
{
	if (!json_is_object(node_))
		fail("expected an object");
	const json_t *child = json_object_get(node_, key);
	if (!child)
		throw JsonReadError("state: " + path_ + "." + key + ": missing");
	return JsonReader(child, path_ + "." + key);
}

size_t JsonReader::size() const
{
	if (!json_is_array(node_))
		fail("expected an array");
	return json_array_size(node_);
}

JsonReader JsonReader::item(size_t index) const
{
	if (index >= size())
		fail("index " + std::to_string(index) + " out of range");
	return JsonReader(json_array_get(node_, index), path_ + "[" + std::to_string(index) + "]");
}

int64_t JsonReader::integer(int64_t min, int64_t max) const
{
	if (!json_is_integer(node_))
		fail("expected an integer");
	const int64_t value = json_integer_value(node_);
	if (value < min || value > max)
		fail("value " + std::to_string(value) + " out of range [" + std::to_string(min) +
		     ", " + std::to_string(max) + "]");
	return value;
}

std::optional<int64_t> JsonReader::optional_integer(int64_t min, int64_t max) const
{
	if (json_is_null(node_))
		return std::nullopt;
	return integer(min, max);
}

double JsonReader::real() const
{
	if (!json_is_number(node_))
		fail("expected a number");
	const double value = json_number_value(node_);
	if (!std::isfinite(value))
		fail("expected a finite number");
	return value;
}

bool JsonReader::boolean() const
{
	if (!json_is_boolean(node_))
		fail("expected true or false");
	return json_is_true(node_);
}

std::string JsonReader::text() const
{
	if (!json_is_string(node_))
		fail("expected a string");
	return std::string(json_string_value(node_), json_string_length(node_));
}

} // namespace campaign
