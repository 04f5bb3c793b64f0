// Result<T>: a value or an error message naming the culprit. Used instead of exceptions on every
// path that plugins call, so no exception needs to cross into Slurm's C frames.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace campaign
{

struct Error {
	std::string message;
};

template <typename T> class Result
{
public:
	Result(T value) : state_(std::move(value)) {}
	Result(Error error) : state_(std::move(error)) {}

	bool ok() const { return std::holds_alternative<T>(state_); }
	explicit operator bool() const { return ok(); }
	const T &value() const & { return std::get<T>(state_); }
	T &value() & { return std::get<T>(state_); }
	T &&value() && { return std::get<T>(std::move(state_)); }
	const std::string &error() const { return std::get<Error>(state_).message; }

private:
	std::variant<T, Error> state_;
};

// Result of an action with no value.
struct Done {
};
using Status = Result<Done>;
inline Status ok_status()
{
	return Status(Done{});
}

} // namespace campaign
