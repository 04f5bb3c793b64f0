// The FairCamp paper's synthetic workload (Pinheiro et al. 2012, §VII; spec
// papers-ostrich-faircamp §6.2, §8 B.6): Zipf-owned campaigns on m = 10 CPUs. Generation only.
#pragma once

#include "trace/sim_job.h"
#include "util/result.h"

#include <cstdint>

namespace campaign::sim
{

// Defaults are the paper's; users (k) is swept over {2, 3, 5, 10, 20} there, 20 here.
struct FairCampZipfOptions {
	uint64_t seed = 1;
	uint32_t users = 20;        // k; user u has Zipf rank u + 1 (user 0 the most frequent)
	uint64_t jobs = 10000;      // 10^4 jobs per instance
	uint32_t machine_cpus = 10; // m
	double new_campaign_probability = 0.1;
	double zipf_exponent = 1.4267; // P(rank r) proportional to r^-1.4267, r = 1..k
	int64_t runtime_min_s = 1;     // integer run time U[1, 100] s
	int64_t runtime_max_s = 100;
};

// The problem with the options (naming the field), or ok.
Status check_faircamp_zipf_options(const FairCampZipfOptions &options);

// 10^4 single-CPU closed-loop jobs: campaigns open with probability 0.1 (the first job opens
// campaign 1), each owned by a Zipf-drawn user; run time uniform integer in [1, 100] s;
// limit_s = run time. Same options (seed included) -> the same jobs, byte for byte. Invalid
// options give an empty workload whose notes say why.
Workload generate_faircamp_zipf(const FairCampZipfOptions &options);

// P(a campaign is owned by `user`) under the options' Zipf law (0 outside [0, users)).
double faircamp_owner_probability(uint32_t user, const FairCampZipfOptions &options);

} // namespace campaign::sim
