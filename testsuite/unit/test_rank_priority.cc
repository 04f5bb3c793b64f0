// Rank-to-priority mapping: strictly decreasing, never 0; nice moves the published value.
#include "check_main.h"
#include "util/rank_priority.h"

using namespace campaign;

START_TEST(test_priorities_fall_strictly_and_never_reach_zero)
{
	ck_assert_uint_eq(priority_for_rank(0), kTopPriority);
	for (size_t rank = 1; rank < 1000; rank++)
		ck_assert_uint_lt(priority_for_rank(rank), priority_for_rank(rank - 1));
	ck_assert_uint_eq(priority_for_rank(kTopPriority + 5), 1);
	ck_assert_uint_ge(priority_for_rank(kTopPriority - 2), 1);
}
END_TEST

// Slurm's nice: priority/basic and multifactor subtract (nice - NICE_OFFSET) from the value they
// compute (test17.23: --nice=100 and 200 lower by 100 and 200 on top of the submit order).
START_TEST(test_nice_lowers_and_negative_nice_raises_the_published_value)
{
	ck_assert_uint_eq(published_priority(kTopPriority, 0), kTopPriority);
	ck_assert_uint_eq(published_priority(kTopPriority - 1, 100), kTopPriority - 101);
	ck_assert_uint_eq(published_priority(kTopPriority - 2, 200), kTopPriority - 202);
	ck_assert_uint_eq(published_priority(kTopPriority, -1000), kTopPriority + 1000);
	ck_assert_int_eq(rank_priority_of(kTopPriority - 101, 100), kTopPriority - 1);
}
END_TEST

// Never 0 (held) however large the nice, never NO_VAL or INFINITE however negative.
START_TEST(test_nice_never_reaches_hold_or_slurm_sentinels)
{
	ck_assert_uint_eq(published_priority(500, 1000), 1);
	ck_assert_uint_eq(published_priority(1, 2147483645), 1);
	ck_assert_uint_eq(published_priority(kTopPriority, -2147483645LL * 2), kHighestPriority);
	ck_assert_uint_lt(kHighestPriority, 0xfffffffeU);
}
END_TEST

int main()
{
	Suite *suite = suite_create("rank_priority");
	TCase *tc = tcase_create("rank");
	tcase_add_test(tc, test_priorities_fall_strictly_and_never_reach_zero);
	tcase_add_test(tc, test_nice_lowers_and_negative_nice_raises_the_published_value);
	tcase_add_test(tc, test_nice_never_reaches_hold_or_slurm_sentinels);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
