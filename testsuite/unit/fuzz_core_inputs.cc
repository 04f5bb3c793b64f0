// libFuzzer target over the state loader and the PriorityParameters parser (see
// fuzz_core_input.h). Built with clang++ -fsanitize=fuzzer by campaign.am; run by fuzz_core.sh.
#include "fuzz_core_input.h"

#include <cstdlib>

namespace
{
// FUZZ_EVENTS=0: the state loader and the parameter parser only (fuzz_core.sh's fixed-count run).
const bool events_on = [] {
	const char *value = std::getenv("FUZZ_EVENTS");
	return !value || std::string(value) != "0";
}();
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)campaign_fuzz::exercise_core_input(data, size, events_on);
	return 0;
}
