// The fuzz seed corpus as a specification: every bad seed is refused with an error naming its
// culprit (fuzz_seeds/MANIFEST), every good seed is accepted and behaves.
#include "check_main.h"
#include "fuzz_core_input.h"

namespace
{

std::string read_seed(const std::string &name)
{
	std::ifstream file(std::string(SRCDIR) + "/fuzz_seeds/" + name, std::ios::binary);
	ck_assert_msg(file.good(), "cannot read seed %s", name.c_str());
	std::stringstream text;
	text << file.rdbuf();
	return text.str();
}

std::string run(const std::string &input)
{
	return campaign_fuzz::exercise_core_input(reinterpret_cast<const uint8_t *>(input.data()),
	                                          input.size());
}

} // namespace

START_TEST(test_state_bad_seeds_name_their_culprit)
{
	std::ifstream manifest(std::string(SRCDIR) + "/fuzz_seeds/MANIFEST");
	std::string line;
	int checked = 0;
	while (std::getline(manifest, line)) {
		if (line.empty() || line[0] == '#')
			continue;
		const std::string name = line.substr(0, line.find(' '));
		const std::string culprit = line.substr(line.find(' ') + 1);
		const std::string error = run(read_seed(name));
		ck_assert_msg(!error.empty(), "%s was accepted", name.c_str());
		ck_assert_msg(error.find(culprit) != std::string::npos,
		              "%s: error '%s' does not name '%s'", name.c_str(), error.c_str(),
		              culprit.c_str());
		checked++;
	}
	ck_assert_int_ge(checked, 20);
}
END_TEST

START_TEST(test_state_good_seeds_are_accepted)
{
	for (const char *name : {"good_state_ostrich", "good_state_faircamp", "good_parameters",
	                         "good_events", "good_events_faircamp"})
		ck_assert_msg(run(read_seed(name)).empty(), "%s refused: %s", name,
		              run(read_seed(name)).c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("fuzz_seeds");
	TCase *tc = tcase_create("seeds");
	tcase_add_test(tc, test_state_bad_seeds_name_their_culprit);
	tcase_add_test(tc, test_state_good_seeds_are_accepted);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
