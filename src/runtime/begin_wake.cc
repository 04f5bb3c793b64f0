// begin_wake_delay: the horizon check in seconds, then the sub-second arithmetic.
#include "runtime/begin_wake.h"

namespace campaign
{

std::optional<std::chrono::milliseconds> begin_wake_delay(std::chrono::system_clock::time_point now,
                                                          int64_t begin_s, int64_t period_s)
{
	using std::chrono::duration_cast;
	using std::chrono::milliseconds;
	using std::chrono::seconds;
	const int64_t now_s = duration_cast<seconds>(now.time_since_epoch()).count();
	if (begin_s - now_s > period_s)
		return std::nullopt;
	const auto target =
	    std::chrono::system_clock::time_point(seconds(begin_s)) + kBeginWakeOffset;
	if (target <= now)
		return milliseconds(0);
	return duration_cast<milliseconds>(target - now);
}

} // namespace campaign
