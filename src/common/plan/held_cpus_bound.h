// could_fit_giving_back: a cheap necessary test for a job to fit a window once a booking is given
// back, read on the profile as it stands (the planner gives back and books again only where it
// passes: each of those splits, shifts and merges slots and node changes).
#pragma once

#include "plan/plan_types.h"
#include "plan/resource_profile.h"

#include <cstdint>
#include <vector>

namespace campaign::plan
{

// False only if no choice of these candidates can hold `cpus` CPUs over the whole of
// [from_s, until_s), were `held` (booked over [held_start_s, held_end_s)) given back first: the
// candidates' least free CPUs over the window, the held ones added where they were booked,
// summed. An empty window passes.
bool could_fit_giving_back(const ResourceProfile &profile, const std::vector<NodeIndex> &candidates,
                           int64_t cpus, int64_t from_s, int64_t until_s,
                           const std::vector<NodeAllocation> &held, int64_t held_start_s,
                           int64_t held_end_s);

// False only if some slot of [from_s, until_s) holds more than long_cpus_limit - cpus CPUs of
// long jobs, were held_long_cpus (booked over [held_start_s, held_end_s)) given back first. A
// slot's amount holds over all of it, so where the window's part of a slot reaches outside the
// held booking the slot's whole amount counts there: a slot is joined across a booking's end
// when another long job's end or start cancels it, and counting such a slot as inside the
// booking passed every test of LPC-EGEE's conservative plan whose reservation starts as another
// long job ends (11 million give-backs in four months of the log, none of which could start).
bool long_cpus_could_allow(const ResourceProfile &profile, int64_t cpus, int64_t long_cpus_limit,
                           int64_t from_s, int64_t until_s, int64_t held_long_cpus,
                           int64_t held_start_s, int64_t held_end_s);

} // namespace campaign::plan
