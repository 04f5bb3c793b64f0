// The OStrich paper's short/long-user workload as a parameterization of the campaign stream.
#include "workload/ostrich_profiles.h"

#include "workload/campaign_stream.h"
#include "workload/seeded_draws.h"

namespace campaign::sim
{

Status check_ostrich_profile_options(const OstrichProfileOptions &options)
{
	if (options.users == 0)
		return Error{"ostrich profiles: users must be at least 1"};
	if (options.machine_cpus == 0)
		return Error{"ostrich profiles: machine_cpus must be at least 1"};
	if (!(options.new_campaign_probability >= 0 && options.new_campaign_probability <= 1))
		return Error{"ostrich profiles: new_campaign_probability must be in [0, 1]"};
	if (options.short_min_s < 0 || options.short_max_s < options.short_min_s)
		return Error{"ostrich profiles: need 0 <= short_min_s <= short_max_s"};
	if (options.long_min_s < 0 || options.long_max_s < options.long_min_s)
		return Error{"ostrich profiles: need 0 <= long_min_s <= long_max_s"};
	return ok_status();
}

bool ostrich_user_is_long(uint32_t user, const OstrichProfileOptions &options)
{
	return user >= options.users / 2;
}

std::vector<std::string> ostrich_user_profiles(const OstrichProfileOptions &options)
{
	std::vector<std::string> profiles;
	for (uint32_t user = 0; user < options.users; user++)
		profiles.push_back(ostrich_user_is_long(user, options) ? "long" : "short");
	return profiles;
}

// "users a..b" or "no users" for users [first, end).
static std::string user_range(uint32_t first, uint32_t end)
{
	if (first >= end)
		return "no users";
	return "users " + std::to_string(first) + ".." + std::to_string(end - 1);
}

static std::string runtime_range(int64_t min_s, int64_t max_s)
{
	return "U[" + std::to_string(min_s) + "," + std::to_string(max_s) + "] s";
}

static std::vector<std::string> ostrich_notes(const OstrichProfileOptions &options)
{
	const uint32_t short_users = options.users / 2;
	return {
	    "generator: OStrich short/long user profiles (Emeras et al. 2013, sec. 6)",
	    "jobs: single-CPU; run time integer seconds; limit = run time (exact estimate)",
	    "campaigns: a job opens a new one with probability " +
	        std::to_string(options.new_campaign_probability) +
	        ", else joins the previous one; owner uniform over " +
	        std::to_string(options.users) + " users",
	    "assumption: " + user_range(0, short_users) + " short (" +
	        runtime_range(options.short_min_s, options.short_max_s) + "), " +
	        user_range(short_users, options.users) + " long (" +
	        runtime_range(options.long_min_s, options.long_max_s) +
	        "); the paper gives neither the user count nor the split",
	    "assumption: closed loop, zero think time: a user's next campaign is released when "
	    "the previous one completes",
	};
}

Workload generate_ostrich_profiles(const OstrichProfileOptions &options)
{
	const std::string name = "ostrich_profiles:seed=" + std::to_string(options.seed) +
	                         ",users=" + std::to_string(options.users);
	const Status valid = check_ostrich_profile_options(options);
	if (!valid.ok())
		return closed_loop_workload(name, options.machine_cpus, {}, {valid.error()});
	SeededDraws draws(options.seed);
	const auto draw_owner = [&] { return static_cast<uint32_t>(draws.index(options.users)); };
	const auto draw_runtime = [&](uint32_t user) {
		return ostrich_user_is_long(user, options)
		           ? draws.integer(options.long_min_s, options.long_max_s)
		           : draws.integer(options.short_min_s, options.short_max_s);
	};
	std::vector<SimJob> jobs = draw_campaign_stream(
	    draws, {options.jobs, options.new_campaign_probability}, draw_owner, draw_runtime);
	return closed_loop_workload(name, options.machine_cpus, std::move(jobs),
	                            ostrich_notes(options));
}

} // namespace campaign::sim
