// The FairCamp paper's Zipf-ownership workload as a parameterization of the campaign stream.
#include "workload/faircamp_zipf.h"

#include "workload/campaign_stream.h"
#include "workload/seeded_draws.h"

#include <cmath>
#include <string>
#include <vector>

namespace campaign::sim
{

Status check_faircamp_zipf_options(const FairCampZipfOptions &options)
{
	if (options.users == 0)
		return Error{"faircamp zipf: users must be at least 1"};
	if (options.machine_cpus == 0)
		return Error{"faircamp zipf: machine_cpus must be at least 1"};
	if (!(options.new_campaign_probability >= 0 && options.new_campaign_probability <= 1))
		return Error{"faircamp zipf: new_campaign_probability must be in [0, 1]"};
	if (!std::isfinite(options.zipf_exponent) || options.zipf_exponent < 0)
		return Error{"faircamp zipf: zipf_exponent must be finite and >= 0"};
	if (options.runtime_min_s < 0 || options.runtime_max_s < options.runtime_min_s)
		return Error{"faircamp zipf: need 0 <= runtime_min_s <= runtime_max_s"};
	return ok_status();
}

double faircamp_owner_probability(uint32_t user, const FairCampZipfOptions &options)
{
	if (user >= options.users)
		return 0;
	return ZipfTable(options.users, options.zipf_exponent).probability(user);
}

static std::vector<std::string> faircamp_notes(const FairCampZipfOptions &options)
{
	return {
	    "generator: FairCamp Zipf-owned campaigns (Pinheiro et al. 2012, sec. VII)",
	    "jobs: single-CPU; run time integer seconds U[" +
	        std::to_string(options.runtime_min_s) + "," +
	        std::to_string(options.runtime_max_s) + "]; limit = run time (exact estimate)",
	    "campaigns: a job opens a new one with probability " +
	        std::to_string(options.new_campaign_probability) + ", else joins the previous one",
	    "owner: Zipf over k=" + std::to_string(options.users) + " users, P(rank r) ~ r^-" +
	        std::to_string(options.zipf_exponent) +
	        "; user u has rank u+1 (the paper's 'twice, three times' wording is exponent 1; "
	        "we use the stated exponent)",
	    "assumption: closed loop, zero think time (FairCamp sec. II): a user's next campaign "
	    "is released when the previous one completes",
	};
}

Workload generate_faircamp_zipf(const FairCampZipfOptions &options)
{
	const std::string name = "faircamp_zipf:seed=" + std::to_string(options.seed) +
	                         ",users=" + std::to_string(options.users);
	const Status valid = check_faircamp_zipf_options(options);
	if (!valid.ok())
		return closed_loop_workload(name, options.machine_cpus, {}, {valid.error()});
	SeededDraws draws(options.seed);
	const ZipfTable zipf(options.users, options.zipf_exponent);
	const auto draw_owner = [&] { return zipf.draw(draws); };
	const auto draw_runtime = [&](uint32_t) {
		return draws.integer(options.runtime_min_s, options.runtime_max_s);
	};
	std::vector<SimJob> jobs = draw_campaign_stream(
	    draws, {options.jobs, options.new_campaign_probability}, draw_owner, draw_runtime);
	return closed_loop_workload(name, options.machine_cpus, std::move(jobs),
	                            faircamp_notes(options));
}

} // namespace campaign::sim
