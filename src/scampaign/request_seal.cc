// AuthType decides; auth/slurm tokens are restricted to SlurmUser's uid, the user slurmctld (and
// so the plugin's verify) runs as, as Slurm's commands restrict theirs to slurmctld.
#include "request_seal.h"

#include "runtime/munge_credential.h"
#include "runtime/sack_credential.h"

#include <algorithm>
#include <cctype>
#include <pwd.h>

namespace campaign
{
namespace
{

std::string lower(std::string text)
{
	std::transform(text.begin(), text.end(), text.begin(),
	               [](unsigned char c) { return std::tolower(c); });
	return text;
}

Result<uid_t> slurm_user_uid(const SlurmConfKeys &conf)
{
	std::string name = conf.value("slurmuser");
	if (name.empty())
		name = "root"; // Slurm's default
	const passwd *entry = getpwnam(name.c_str());
	if (!entry)
		return Error{"slurm.conf SlurmUser=" + name + ": no such user on this machine"};
	return entry->pw_uid;
}

} // namespace

Result<std::string> seal_request(const std::string &payload, const SlurmConfKeys &conf,
                                 const std::string &sack_socket_env)
{
	std::string auth_type = conf.value("authtype");
	if (auth_type.empty())
		auth_type = "auth/munge"; // Slurm's default
	if (auth_type == "auth/munge")
		return munge_seal(payload, munge_socket_from_auth_info(conf.value("authinfo")));
	if (auth_type == "auth/slurm") {
		auto restrict_uid = slurm_user_uid(conf);
		if (!restrict_uid.ok())
			return Error{restrict_uid.error()};
		// Slurm keeps ClusterName in lower case; sackd's per-cluster socket is named so.
		return sack_create_token(
		    payload, restrict_uid.value(),
		    sack_socket_candidates(sack_socket_env, lower(conf.value("clustername"))));
	}
	return Error{"slurm.conf AuthType=" + auth_type +
	             ": scampaign authenticates with auth/munge or auth/slurm only"};
}

} // namespace campaign
