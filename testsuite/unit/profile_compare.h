// Two resource profiles compared slot by slot (start, usable free CPUs, long jobs' CPUs, every
// node's free amounts), for tests that build one profile two ways. Test code only.
#pragma once

#include "plan/resource_profile.h"

#include <check.h>

#include <string>

namespace profile_compare
{

// Fails the test, naming `context` and the first slot (and node) that differs.
inline void check_same_profiles(const campaign::plan::ResourceProfile &a,
                                const campaign::plan::ResourceProfile &b,
                                const std::string &context)
{
	using campaign::plan::NodeIndex;
	ck_assert_msg(a.slot_count() == b.slot_count(), "%s: %zu slots against %zu",
	              context.c_str(), a.slot_count(), b.slot_count());
	for (size_t slot = 0; slot < a.slot_count(); ++slot) {
		ck_assert_msg(a.slot_start_s(slot) == b.slot_start_s(slot) &&
		                  a.usable_free_cpus(slot) == b.usable_free_cpus(slot) &&
		                  a.long_cpus(slot) == b.long_cpus(slot),
		              "%s slot %zu: start %ld/%ld usable %ld/%ld long %ld/%ld",
		              context.c_str(), slot, static_cast<long>(a.slot_start_s(slot)),
		              static_cast<long>(b.slot_start_s(slot)),
		              static_cast<long>(a.usable_free_cpus(slot)),
		              static_cast<long>(b.usable_free_cpus(slot)),
		              static_cast<long>(a.long_cpus(slot)),
		              static_cast<long>(b.long_cpus(slot)));
		for (size_t node = 0; node < a.node_count(); ++node)
			ck_assert_msg(a.free(slot, static_cast<NodeIndex>(node)) ==
			                  b.free(slot, static_cast<NodeIndex>(node)),
			              "%s slot %zu node %zu: free amounts differ", context.c_str(),
			              slot, node);
	}
}

} // namespace profile_compare
