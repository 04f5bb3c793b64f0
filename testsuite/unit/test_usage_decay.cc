// The decay model of association usage (Slurm's PriorityDecayHalfLife): halves every half-life,
// usage accrued over an interval equals the integral of the decay, summing consistently when the
// interval is split, and a period's charge is decayed over the whole period as multifactor does.
#include "check_main.h"
#include "policy/usage_decay.h"
#include "policy/usage_reset.h"

#include <cmath>
#include <cstdlib>
#include <ctime>

using namespace campaign;

START_TEST(test_usage_halves_every_half_life)
{
	const UsageDecay decay(3600);
	ck_assert_double_eq_tol(decay.factor(3600), 0.5, 1e-12);
	ck_assert_double_eq_tol(decay.factor(7200), 0.25, 1e-12);
	ck_assert_double_eq_tol(decay.factor(0), 1, 1e-15);
	ck_assert_double_eq_tol(decay.factor(-5), 1, 1e-15);
}
END_TEST

// No half-life: no decay, and T seconds of running accrue T.
START_TEST(test_zero_half_life_never_decays)
{
	const UsageDecay decay(0);
	ck_assert_double_eq_tol(decay.factor(1e9), 1, 1e-15);
	ck_assert_double_eq_tol(decay.accrued(120), 120, 1e-12);
}
END_TEST

// Over one half-life, the integral of 2^(-(h - t)/h) dt is h / (2 ln 2).
START_TEST(test_accrued_is_the_integral_of_the_decay)
{
	const UsageDecay decay(1000);
	ck_assert_double_eq_tol(decay.accrued(1000), 1000 / (2 * std::log(2.0)), 1e-9);
	// Short intervals barely decay: 60 s at a 30-minute half-life lose about 1.2 %.
	const UsageDecay slow(1800);
	ck_assert_double_eq_tol(slow.accrued(60) / 60, 0.9885, 0.0005);
}
END_TEST

// multifactor's valuation of a period's run: all of it decayed over the whole period, below the
// integral by about half the period's decay (0.977 against 0.989 of a minute at 30 minutes).
START_TEST(test_period_charge_decays_the_whole_period)
{
	const UsageDecay slow(1800);
	ck_assert_double_eq_tol(slow.period_charge(60), 60 * std::exp2(-60.0 / 1800), 1e-12);
	ck_assert_double_eq_tol(slow.period_charge(60) / 60, 0.9772, 0.0005);
	ck_assert(slow.period_charge(60) < slow.accrued(60));
	ck_assert_double_eq_tol(slow.period_charge(0), 0, 1e-15);
	ck_assert_double_eq_tol(slow.period_charge(-3), 0, 1e-15);
	ck_assert_double_eq_tol(UsageDecay(0).period_charge(120), 120, 1e-12);
}
END_TEST

// Charging [0, a] then decaying it over b and adding [a, a + b] equals charging [0, a + b]: the
// per-period charges of the plugin add up to the same usage however often it runs.
START_TEST(test_split_intervals_add_up)
{
	const UsageDecay decay(900);
	const double whole = decay.accrued(500);
	const double split = decay.accrued(200) * decay.factor(300) + decay.accrued(300);
	ck_assert_double_eq_tol(split, whole, 1e-9);
}
END_TEST

// PriorityUsageResetPeriod's boundaries, in UTC here: Tuesday 2026-11-24 15:30:00 is 1795534200.
START_TEST(test_reset_boundaries_follow_the_calendar)
{
	setenv("TZ", "UTC", 1);
	tzset();
	const int64_t now = 1795534200;
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::none, now), 0);
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::now, now), 0);
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::daily, now),
	                 1795478400); // 11-24 00:00
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::weekly, now),
	                 1795305600); // Sun 11-22
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::monthly, now), 1793491200);   // 11-01
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::quarterly, now), 1790812800); // 10-01
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::yearly, now), 1767225600);    // 01-01
	// A boundary is its own latest reset; one second before it, the previous one is.
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::daily, 1795478400), 1795478400);
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::daily, 1795478399), 1795392000);
	// Weekly on a Sunday itself, and across a month boundary (Sunday 2026-11-01).
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::weekly, 1795305600 + 5), 1795305600);
	ck_assert_int_eq(latest_usage_reset(UsageResetPeriod::weekly, 1793491200 + 86400 * 3),
	                 1793491200);
}
END_TEST

int main()
{
	Suite *suite = suite_create("usage_decay");
	TCase *tc = tcase_create("decay");
	tcase_add_test(tc, test_usage_halves_every_half_life);
	tcase_add_test(tc, test_zero_half_life_never_decays);
	tcase_add_test(tc, test_accrued_is_the_integral_of_the_decay);
	tcase_add_test(tc, test_split_intervals_add_up);
	tcase_add_test(tc, test_period_charge_decays_the_whole_period);
	suite_add_tcase(suite, tc);
	TCase *reset = tcase_create("reset");
	tcase_add_test(reset, test_reset_boundaries_follow_the_calendar);
	suite_add_tcase(suite, reset);
	return run_suite(suite);
}
