// Fair Tree as fair_tree.html documents it: Level Fairshare among siblings, the depth-first
// ranking of users by it, and its three tie rules.
#include "check_main.h"
#include "policy/fair_tree.h"

#include <cmath>

using namespace campaign;

namespace
{

constexpr uint32_t kRoot = FairTreeNode::kNoParent;

FairTreeNode account(uint32_t parent, double shares, double usage)
{
	return {shares, usage, false, parent};
}

FairTreeNode user(uint32_t parent, double shares, double usage)
{
	return {shares, usage, true, parent};
}

} // namespace

// root(0) -> A(1, 60 shares), B(2, 40 shares); A -> u1(3, usage 100), u2(4, none); B -> u3(5, 10).
// LF(A) = 0.6 / (100/110) = 0.66, LF(B) = 0.4 / (10/110) = 4.4: B's user first; then in A u2
// (no usage: infinite) before u1 (0.5 / 1).
START_TEST(test_level_fairshare_orders_the_walk)
{
	const std::vector<FairTreeNode> nodes = {account(kRoot, 1, 110), account(0, 60, 100),
	                                         account(0, 40, 10),     user(1, 1, 100),
	                                         user(1, 1, 0),          user(2, 1, 10)};
	const FairTreeValues values = fair_tree(nodes);
	ck_assert_double_eq_tol(values.level_fs[1], 0.6 / (100.0 / 110), 1e-12);
	ck_assert_double_eq_tol(values.level_fs[2], 0.4 / (10.0 / 110), 1e-12);
	ck_assert(std::isinf(values.level_fs[4]));
	ck_assert_double_eq_tol(values.level_fs[3], 0.5, 1e-12);
	ck_assert_double_eq_tol(values.effective_usage[1], 100.0 / 110, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[5], 1.0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[4], 2.0 / 3, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[3], 1.0 / 3, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[1], 0, 1e-12); // accounts have none
}
END_TEST

// Sibling users with the same LF share a rank; the next user comes after both.
START_TEST(test_tied_users_share_a_rank)
{
	const std::vector<FairTreeNode> nodes = {account(kRoot, 1, 10), user(0, 1, 0),
	                                         user(0, 1, 0), user(0, 1, 10)};
	const FairTreeValues values = fair_tree(nodes);
	ck_assert_double_eq_tol(values.fair_share[1], 1.0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[2], 1.0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[3], 1.0 / 3, 1e-12);
}
END_TEST

// A user tied with a sibling account gets the rank of that account's highest ranked user.
START_TEST(test_user_tied_with_an_account)
{
	// root -> X (account), y (user), z (user with usage); X -> x1, x2 (x2 with usage).
	const std::vector<FairTreeNode> nodes = {account(kRoot, 1, 20), account(0, 1, 0),
	                                         user(0, 1, 0),         user(0, 1, 20),
	                                         user(1, 1, 0),         user(1, 1, 0)};
	const FairTreeValues values = fair_tree(nodes);
	// X and y: no usage, infinite LF, tied. X's users first (both tied: rank 4 of 4), y takes
	// the same rank, then z.
	ck_assert_double_eq_tol(values.fair_share[4], 1.0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[5], 1.0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[2], 1.0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[3], 1.0 / 4, 1e-12);
}
END_TEST

// The rank after a tie counts every tied user: y and account X tie (LF 4/3); y ranks first (4 of
// 4), X's best user x1 shares that rank, and X's next user x2 gets the rank it would have without
// ties (2), as multifactor's Fair Tree gives it, not the next one down (3).
START_TEST(test_rank_after_a_tie_with_an_account)
{
	// root -> X (1 share, usage 10), y (1, 10), z (1, 20); X -> x1 (usage 2), x2 (8).
	const std::vector<FairTreeNode> nodes = {account(kRoot, 1, 40), account(0, 1, 10),
	                                         user(0, 1, 10),        user(0, 1, 20),
	                                         user(1, 1, 2),         user(1, 1, 8)};
	const FairTreeValues values = fair_tree(nodes);
	ck_assert_double_eq_tol(values.level_fs[1], values.level_fs[2], 1e-12);
	ck_assert_double_eq_tol(values.fair_share[2], 1.0, 1e-12);     // y
	ck_assert_double_eq_tol(values.fair_share[4], 1.0, 1e-12);     // x1, tied with y
	ck_assert_double_eq_tol(values.fair_share[5], 2.0 / 4, 1e-12); // x2
	ck_assert_double_eq_tol(values.fair_share[3], 1.0 / 4, 1e-12); // z
}
END_TEST

// Sibling accounts with equal LF have their children merged: A's a1 (LF 1) ranks between B's b1
// (LF 5) and b2 (LF 0.56), which a walk of A then B, or B then A, would not give.
START_TEST(test_tied_accounts_are_merged)
{
	const std::vector<FairTreeNode> nodes = {account(kRoot, 1, 20), account(0, 1, 10),
	                                         account(0, 1, 10),     user(1, 1, 10),
	                                         user(2, 1, 1),         user(2, 1, 9)};
	const FairTreeValues values = fair_tree(nodes);
	ck_assert_double_eq_tol(values.level_fs[1], values.level_fs[2], 1e-12);
	ck_assert_double_eq_tol(values.fair_share[4], 1.0, 1e-12);     // b1
	ck_assert_double_eq_tol(values.fair_share[3], 2.0 / 3, 1e-12); // a1
	ck_assert_double_eq_tol(values.fair_share[5], 1.0 / 3, 1e-12); // b2
}
END_TEST

// No shares: LF 0, last.
START_TEST(test_no_shares_ranks_last)
{
	const std::vector<FairTreeNode> nodes = {account(kRoot, 1, 5), user(0, 0, 0),
	                                         user(0, 1, 5)};
	const FairTreeValues values = fair_tree(nodes);
	ck_assert_double_eq_tol(values.level_fs[1], 0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[2], 1.0, 1e-12);
	ck_assert_double_eq_tol(values.fair_share[1], 0.5, 1e-12);
}
END_TEST

int main()
{
	Suite *suite = suite_create("fair_tree");
	TCase *tc = tcase_create("fair_tree");
	tcase_add_test(tc, test_level_fairshare_orders_the_walk);
	tcase_add_test(tc, test_tied_users_share_a_rank);
	tcase_add_test(tc, test_user_tied_with_an_account);
	tcase_add_test(tc, test_rank_after_a_tie_with_an_account);
	tcase_add_test(tc, test_tied_accounts_are_merged);
	tcase_add_test(tc, test_no_shares_ranks_last);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
