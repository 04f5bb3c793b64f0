// The OStrich paper's synthetic workload (Emeras et al. 2013, §6; spec papers-ostrich-faircamp
// §6.1, §8 A.9): short-job and long-job users on m = 64 CPUs. Generation only; no policy.
#pragma once

#include "trace/sim_job.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace campaign::sim
{

// Defaults are the paper's where it gives them; users, the profile split and the arrival
// process are ours (the paper states none; thesis-pinheiro §7 item 7 suggests a 50/50 split,
// 10 or 20 users, closed loop with zero think time).
struct OstrichProfileOptions {
	uint64_t seed = 1;
	uint32_t users = 20;        // assumption; users 0..users/2-1 short, users/2.. long
	uint64_t jobs = 10000;      // 10^4 jobs per instance
	uint32_t machine_cpus = 64; // m
	double new_campaign_probability = 0.02;
	int64_t short_min_s = 1; // short users: integer run time U[1, 3600] s
	int64_t short_max_s = 3600;
	int64_t long_min_s = 3600; // long users: integer run time U[3600, 36000] s
	int64_t long_max_s = 36000;
};

// The problem with the options (naming the field), or ok.
Status check_ostrich_profile_options(const OstrichProfileOptions &options);

// 10^4 single-CPU closed-loop jobs: campaigns open with probability 0.02 (the first job opens
// campaign 1), each owned by a user drawn uniformly in [0, users); a job's run time follows its
// owner's profile; limit_s = run time. Same options (seed included) -> the same jobs, byte for
// byte. Invalid options give an empty workload whose notes say why.
Workload generate_ostrich_profiles(const OstrichProfileOptions &options);

// The profile of each user, indexed by user number: "short" or "long".
std::vector<std::string> ostrich_user_profiles(const OstrichProfileOptions &options);
bool ostrich_user_is_long(uint32_t user, const OstrichProfileOptions &options);

} // namespace campaign::sim
