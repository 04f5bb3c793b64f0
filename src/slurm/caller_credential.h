// Who asks on the scampaign channel: the request line is a credential of a type slurmctld
// authenticates with (AuthType, AuthAltTypes): a munge credential, opened with libmunge, or from
// 24.11 an auth/slurm token, opened through slurmctld's own auth layer (auth_g_verify), so the
// channel follows the site's AuthType without a copy of slurm.key's checks.
#pragma once

#include "util/result.h"

#include <string>
#include <sys/types.h>

namespace campaign::slurm
{

struct VerifiedCaller {
	uid_t uid = 0;
	gid_t gid = 0;
	std::string payload;
};

// What slurmctld's auth layer was configured with, read once when the channel starts (in
// init(), where slurm_conf needs no lock): AuthInfo, passed to the plugins' verify, and the
// loaded types ("auth/munge", "auth/slurm,auth/munge"), which decide what is accepted.
struct AuthSettings {
	std::string auth_info;
	std::string auth_types;
};
AuthSettings current_auth_settings();

// The caller's uid, gid and payload, or why the credential is refused: none given, of a type
// this slurmctld does not load, unreadable, or refused (munge's own reason; for auth/slurm,
// slurmctld's log has Slurm's). Thread-safe, takes no slurmctld lock.
Result<VerifiedCaller> verify_caller_credential(const std::string &line,
                                                const AuthSettings &settings);

} // namespace campaign::slurm
