// libFuzzer target over the state loader and the PriorityParameters parser (see
// fuzz_core_input.h). Built with clang++ -fsanitize=fuzzer by campaign.am; run by fuzz_core.sh.
#include "fuzz_core_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)campaign_fuzz::exercise_core_input(data, size);
	return 0;
}
