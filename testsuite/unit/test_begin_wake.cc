// begin_wake_delay: priority/campaign's worker wakes 20 ms into a begin time's second, never
// beyond its period, and a begin time centuries ahead neither overflows nor wakes it at once.
#include "check_main.h"
#include "runtime/begin_wake.h"

using campaign::begin_wake_delay;
using std::chrono::milliseconds;
using std::chrono::seconds;
using std::chrono::system_clock;

namespace
{

system_clock::time_point at(int64_t s, int64_t ms = 0)
{
	return system_clock::time_point(seconds(s)) + milliseconds(ms);
}

} // namespace

START_TEST(test_wake_aims_into_the_begin_second)
{
	auto delay = begin_wake_delay(at(1000, 300), 1003, 60);
	ck_assert(delay.has_value());
	ck_assert_int_eq(delay->count(), 2720); // 1003.020 - 1000.300
	delay = begin_wake_delay(at(1002, 990), 1003, 60);
	ck_assert(delay.has_value());
	ck_assert_int_eq(delay->count(), 30);
}
END_TEST

// Within its second, before the offset: the rest of the offset; after it (or a begin time
// already past): at once.
START_TEST(test_wake_for_a_begin_time_now_or_past)
{
	auto delay = begin_wake_delay(at(1003, 5), 1003, 60);
	ck_assert(delay.has_value());
	ck_assert_int_eq(delay->count(), 15);
	delay = begin_wake_delay(at(1003, 500), 1003, 60);
	ck_assert(delay.has_value());
	ck_assert_int_eq(delay->count(), 0);
	delay = begin_wake_delay(at(1003), 900, 60);
	ck_assert(delay.has_value());
	ck_assert_int_eq(delay->count(), 0);
}
END_TEST

// Beyond the period, the worker's own pass comes first and computes the delay again.
START_TEST(test_no_wake_beyond_the_period)
{
	ck_assert(begin_wake_delay(at(1000, 300), 1060, 60).has_value());
	ck_assert(!begin_wake_delay(at(1000, 300), 1061, 60).has_value());
	ck_assert(!begin_wake_delay(at(1000), 1002, 1).has_value());
}
END_TEST

// sbatch --begin=3000-01-01 (a typo for 2030): past system_clock's nanosecond range (2262), so
// made into a time_point it would wrap, read as long past, and wake the worker pass after pass.
START_TEST(test_far_begin_time_does_not_overflow)
{
	const int64_t now_s = 1'795'000'000;        // 2026
	const int64_t year_3000_s = 32'503'680'000; // 3000-01-01
	ck_assert(!begin_wake_delay(at(now_s), year_3000_s, 60).has_value());
	ck_assert(!begin_wake_delay(at(now_s), INT64_MAX, 60).has_value());
	ck_assert(!begin_wake_delay(at(now_s), year_3000_s, 1'000'000'000).has_value());
}
END_TEST

int main()
{
	Suite *suite = suite_create("begin_wake");
	TCase *tc = tcase_create("delay");
	tcase_add_test(tc, test_wake_aims_into_the_begin_second);
	tcase_add_test(tc, test_wake_for_a_begin_time_now_or_past);
	tcase_add_test(tc, test_no_wake_beyond_the_period);
	tcase_add_test(tc, test_far_begin_time_does_not_overflow);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
