// The core state saved and restored as versioned JSON: a restored core ranks identically,
// now and after the same further events, for every policy; bad states are refused with an
// error naming the culprit.
#include "core_random.h"
#include "state/core_state_json.h"

using namespace campaign_test;

namespace
{

void expect_same_ranking(const Ranking &a, const Ranking &b, const std::string &context)
{
	ck_assert_msg(a.order == b.order, "%s: orders differ", context.c_str());
	for (size_t index = 0; index < a.explanations.size(); index++) {
		const JobExplanation &x = a.explanations[index];
		const JobExplanation &y = b.explanations[index];
		ck_assert_msg(x.campaign_id == y.campaign_id && x.key == y.key &&
		                  x.virtual_start_s == y.virtual_start_s &&
		                  x.remaining_work_cpu_s == y.remaining_work_cpu_s &&
		                  x.deadline_s == y.deadline_s && x.may_start == y.may_start,
		              "%s: explanation of job %u differs", context.c_str(), x.job_id);
	}
	ck_assert_msg(a.campaigns.size() == b.campaigns.size(), "%s: listings differ",
	              context.c_str());
}

void expect_same_text(const std::string &a, const std::string &b, const std::string &context)
{
	size_t first = 0;
	while (first < a.size() && first < b.size() && a[first] == b[first])
		first++;
	ck_assert_msg(a == b, "%s: saves differ at %zu: '%s' vs '%s'", context.c_str(), first,
	              a.substr(first, 80).c_str(), b.substr(first, 80).c_str());
}

} // namespace

START_TEST(test_state_roundtrip_gives_identical_order_random)
{
	const char *configurations[] = {
	    "policy=ostrich",
	    "policy=ostrich,work_estimate=recent,work_estimate_below=1",
	    "policy=ostrich,work_estimate=limit",
	    "policy=ostrich,mode=strict,resizing=yes,shares=weighted",
	    "policy=faircamp,rule=window,window_s=15",
	    "policy=faircamp,faircamp_mode=paper,unit=account,domain=cluster",
	    "policy=fifo,threshold_s=10"};
	std::mt19937_64 random(17);
	for (const char *parameters : configurations)
		for (int instance = 0; instance < 40; instance++) {
			CampaignCore original = make_core(parameters);
			uint32_t next_job_id = 1;
			int64_t now_s = random_events(original, random, 150, 0, next_job_id);
			auto restored = CoreStateCodec::load(CoreStateCodec::save(original));
			ck_assert_msg(restored.ok(), "%s: %s", parameters,
			              restored.ok() ? "" : restored.error().c_str());
			CampaignCore copy = std::move(restored).value();
			expect_same_text(CoreStateCodec::save(copy), CoreStateCodec::save(original),
			                 parameters);
			expect_same_ranking(original.rank(now_s), copy.rank(now_s), parameters);
			std::mt19937_64 fork = random;
			uint32_t copy_next_job_id = next_job_id;
			const int64_t later_s =
			    random_events(original, random, 100, now_s, next_job_id);
			random_events(copy, fork, 100, now_s, copy_next_job_id);
			expect_same_ranking(original.rank(later_s), copy.rank(later_s),
			                    std::string(parameters) + " after more events");
		}
}
END_TEST

START_TEST(test_state_bad_inputs_name_the_culprit)
{
	CampaignCore core = make_core("policy=ostrich");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 1, 10), 0));
	const std::string good = CoreStateCodec::save(core);
	ck_assert(CoreStateCodec::load(good).ok());
	const std::vector<std::pair<std::string, std::string>> cases = {
	    {"", "line"},
	    {"[]", "state"},
	    {"{\"version\":2}", "state.version"},
	    {good.substr(0, good.size() / 2), "line"},
	    {std::string(good).replace(good.find("\"parameters\":\"") + 14, 0, "bogus=1,"),
	     "bogus"},
	    {std::string(good).replace(good.find("\"cpus\":4"), 8, "\"cpus\":-4"),
	     "state.domains[0].cpus"},
	    {std::string(good).replace(good.find("\"billable\":1"), 12, "\"billable\":0"),
	     "state.jobs[0].billable"},
	    {std::string(good).replace(good.find("\"i\":[1,"), 7, "\"i\":[0,"), "state.jobs[0]"},
	};
	for (const auto &[text, culprit] : cases) {
		auto loaded = CoreStateCodec::load(text);
		ck_assert_msg(!loaded.ok(), "accepted: %s", text.c_str());
		ck_assert_msg(loaded.error().find(culprit) != std::string::npos,
		              "error '%s' does not name '%s'", loaded.error().c_str(),
		              culprit.c_str());
	}
}
END_TEST

// A state saved by an earlier release lacks the keys added since: loading it must give the same
// core identity (else the plugin would start clean after an upgrade). Each key of a default
// core's saved parameters is dropped in turn, as if it had not existed yet.
START_TEST(test_state_saved_before_a_key_keeps_identity)
{
	CampaignCore core = make_core("");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 1, 10), 0));
	const std::string good = CoreStateCodec::save(core);
	const std::string marker = "\"parameters\":\"";
	const size_t begin = good.find(marker) + marker.size();
	const size_t end = good.find('"', begin);
	const std::string saved = good.substr(begin, end - begin);
	size_t keys = 0;
	for (size_t start = 0; start < saved.size();) {
		size_t comma = saved.find(',', start);
		if (comma == std::string::npos)
			comma = saved.size();
		std::string without = saved;
		without.erase(start, comma - start + (comma < saved.size() ? 1 : 0));
		if (!without.empty() && without.back() == ',')
			without.pop_back();
		std::string older = good;
		older.replace(begin, end - begin, without);
		const std::string item = saved.substr(start, comma - start);
		auto loaded = CoreStateCodec::load(older);
		ck_assert_msg(loaded.ok(), "without %s: %s", item.c_str(),
		              loaded.ok() ? "" : loaded.error().c_str());
		ck_assert_msg(loaded.value().config().text == core.config().text,
		              "without %s: identity '%s' is not '%s'", item.c_str(),
		              loaded.value().config().text.c_str(), core.config().text.c_str());
		keys++;
		start = comma + 1;
	}
	ck_assert_msg(keys >= 10, "only %zu saved keys", keys);
}
END_TEST

int main()
{
	Suite *suite = suite_create("state_roundtrip");
	TCase *tc = tcase_create("json");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_state_roundtrip_gives_identical_order_random);
	tcase_add_test(tc, test_state_bad_inputs_name_the_culprit);
	tcase_add_test(tc, test_state_saved_before_a_key_keeps_identity);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
