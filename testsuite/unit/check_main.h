// Shared main for the Check unit test programs: runs one suite, exit status = failures.
#pragma once
// Standard headers first: check.h defines macros (e.g. `fail`) that break <ios> if it comes first.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <check.h>

inline int run_suite(Suite *suite)
{
	SRunner *runner = srunner_create(suite);
	srunner_run_all(runner, CK_NORMAL);
	const int failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

// ck_assert_str_eq keeps only the const char* of its argument, so `f().c_str()` dangles once the
// temporary string dies (ASan: stack-use-after-scope). This keeps the string alive.
#define ck_assert_string_eq(actual, expected)                                                      \
	do {                                                                                       \
		const std::string ck_actual_ = (actual);                                           \
		ck_assert_str_eq(ck_actual_.c_str(), (expected));                                  \
	} while (0)
