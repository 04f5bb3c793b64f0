// Reset boundaries of PriorityUsageResetPeriod, from the calendar in local time.
#include "policy/usage_reset.h"

#include <ctime>

namespace campaign
{

int64_t latest_usage_reset(UsageResetPeriod period, int64_t now_s)
{
	if (period == UsageResetPeriod::none || period == UsageResetPeriod::now)
		return 0;
	const time_t now = static_cast<time_t>(now_s);
	struct tm day {
	};
	if (!localtime_r(&now, &day))
		return 0;
	day.tm_hour = day.tm_min = day.tm_sec = 0;
	day.tm_isdst = -1; // midnight's own DST state
	switch (period) {
	case UsageResetPeriod::weekly:
		day.tm_mday -= day.tm_wday; // back to Sunday; mktime normalizes
		break;
	case UsageResetPeriod::monthly:
		day.tm_mday = 1;
		break;
	case UsageResetPeriod::quarterly:
		day.tm_mday = 1;
		day.tm_mon -= day.tm_mon % 3;
		break;
	case UsageResetPeriod::yearly:
		day.tm_mday = 1;
		day.tm_mon = 0;
		break;
	default: // daily
		break;
	}
	const time_t boundary = mktime(&day);
	return boundary == static_cast<time_t>(-1) ? 0 : static_cast<int64_t>(boundary);
}

} // namespace campaign
