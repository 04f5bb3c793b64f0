// campsim's run-time predictors for the planner's pending jobs (--planner-pending predicted,
// similar, consistent): Tsafrir's mean of the user's last two runs, the same over the user's jobs
// of the same limit and CPUs (a template), and the longer of a template's last two runs when
// they agree within 1.5x. Each guess stays within [1, limit]; each falls back as documented,
// and the templates are kept only when asked for.
#include "check_main.h"

#include "engine/estimates.h"

using namespace campaign::sim;

START_TEST(test_tsafrir_mean_of_the_last_two)
{
	RuntimePredictor predictor;
	ck_assert_int_eq(predictor.predict(3, 500), 500); // no history: the limit
	predictor.finished(3, 100, 1000, 4);
	ck_assert_int_eq(predictor.predict(3, 500), 100);
	predictor.finished(3, 201, 200, 1); // another template: Tsafrir counts every job
	ck_assert_int_eq(predictor.predict(3, 500), 151);
	predictor.finished(3, 40, 1000, 4); // the oldest leaves the pair
	ck_assert_int_eq(predictor.predict(3, 500), 121);
	ck_assert_int_eq(predictor.predict(3, 50), 50); // never above the limit
	predictor.finished(3, 0, 1000, 4);
	predictor.finished(3, 0, 1000, 4);
	ck_assert_int_eq(predictor.predict(3, 500), 1); // never below 1 s
	ck_assert_int_eq(predictor.predict(7, 0), 1);   // a limit of 0 is read as 1 s
}
END_TEST

START_TEST(test_similar_counts_the_template_only)
{
	RuntimePredictor predictor(/*keeps_templates=*/true);
	predictor.finished(3, 10, 5000, 1);
	predictor.finished(3, 280, 280, 1);
	ck_assert_int_eq(predictor.predict(3, 5000), 145);             // both jobs
	ck_assert_int_eq(predictor.predict_similar(3, 5000, 1), 10);   // the same limit and CPUs
	ck_assert_int_eq(predictor.predict_similar(3, 5000, 2), 145);  // other CPUs: Tsafrir's
	ck_assert_int_eq(predictor.predict_similar(3, 4000, 1), 145);  // another limit: the same
	ck_assert_int_eq(predictor.predict_similar(9, 5000, 1), 5000); // no history: the limit
	predictor.finished(3, 31, 5000, 1);
	ck_assert_int_eq(predictor.predict_similar(3, 5000, 1), 21); // (10 + 31 + 1) / 2
	// Without templates kept, the same history gives Tsafrir's and the limit.
	RuntimePredictor without;
	without.finished(3, 10, 5000, 1);
	without.finished(3, 280, 280, 1);
	ck_assert_int_eq(without.predict_similar(3, 5000, 1), 145);
	without.finished(3, 10, 5000, 1);
	without.finished(3, 10, 5000, 1);
	ck_assert_int_eq(without.predict_consistent(3, 5000, 1), 5000); // kept: 10
}
END_TEST

START_TEST(test_consistent_books_only_runs_that_agree)
{
	RuntimePredictor predictor(/*keeps_templates=*/true);
	predictor.finished(3, 100, 5000, 2);
	ck_assert_int_eq(predictor.predict_consistent(3, 5000, 2), 5000); // one run: the limit
	predictor.finished(3, 150, 5000, 2);
	ck_assert_int_eq(predictor.predict_consistent(3, 5000, 2), 150); // 1.5x: the longer
	predictor.finished(3, 226, 5000, 2);
	ck_assert_int_eq(predictor.predict_consistent(3, 5000, 2), 5000); // 150 and 226 disagree
	predictor.finished(3, 200, 5000, 2);
	ck_assert_int_eq(predictor.predict_consistent(3, 5000, 2), 226);
	ck_assert_int_eq(predictor.predict_consistent(3, 5000, 4), 5000); // another template
	predictor.finished(4, 0, 60, 1);
	predictor.finished(4, 0, 60, 1);
	ck_assert_int_eq(predictor.predict_consistent(4, 60, 1), 1); // at least 1 s
}
END_TEST

START_TEST(test_planner_estimate_names)
{
	ck_assert(parse_planner_estimate("similar").value() == PlannerEstimate::similar);
	ck_assert(parse_planner_estimate("consistent").value() == PlannerEstimate::consistent);
	auto refused = parse_planner_estimate("soon");
	ck_assert(!refused.ok());
	ck_assert(refused.error().find("'soon'") != std::string::npos);
	ck_assert(refused.error().find("consistent") != std::string::npos);
}
END_TEST

int main()
{
	Suite *suite = suite_create("runtime_predictor");
	TCase *tc = tcase_create("predictors");
	tcase_add_test(tc, test_tsafrir_mean_of_the_last_two);
	tcase_add_test(tc, test_similar_counts_the_template_only);
	tcase_add_test(tc, test_consistent_books_only_runs_that_agree);
	tcase_add_test(tc, test_planner_estimate_names);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
