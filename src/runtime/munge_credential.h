// Munge credentials for the scampaign channel: the client seals its request in a credential, the
// plugin opens it and learns the caller's uid from munged. No Slurm types.
#pragma once

#include "util/result.h"

#include <string>
#include <sys/types.h>

namespace campaign
{

struct CredentialContents {
	uid_t uid = 0;
	gid_t gid = 0;
	std::string payload;
};

// `socket_path` empty means munge's default socket.
Result<std::string> munge_seal(const std::string &payload, const std::string &socket_path);
Result<CredentialContents> munge_open(const std::string &credential,
                                      const std::string &socket_path);

// The socket named by Slurm's AuthInfo ("socket=PATH,..."), or "" for the default.
std::string munge_socket_from_auth_info(const std::string &auth_info);

} // namespace campaign
