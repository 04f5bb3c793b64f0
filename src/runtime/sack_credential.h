// auth/slurm credentials for the scampaign channel, made as Slurm's own clients make them: the
// caller asks a SACK socket (slurmctld's, slurmd's or sackd's; Slurm 23.11 and later) for a token
// signed with slurm.key, and the daemon vouches for the caller's uid from the kernel
// (SO_PEERCRED). The plugin verifies the token through slurmctld's auth layer. No Slurm types:
// the wire format is SACK's own (src/common/sack_api.c of Slurm 24.11 and 26.05, the same in both).
#pragma once

#include "util/result.h"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

namespace campaign
{

// The SACK sockets to try, in the order Slurm 26.05's clients try them: $SLURM_SACK_SOCKET alone
// when it is set (`sack_socket_env`, "" when unset), else /run/slurm-CLUSTER/sack.socket (sackd
// per cluster) when the cluster has a name, then /run/slurm, /run/slurmctld, /run/slurmdbd.
std::vector<std::string> sack_socket_candidates(const std::string &sack_socket_env,
                                                const std::string &cluster_name);

// A token carrying `payload`, valid only for a verifier running as `restrict_uid` (SlurmUser: the
// uid slurmctld runs as), from the first candidate socket that accepts a connection. The error
// names every socket tried, or the one that answered badly.
Result<std::string> sack_create_token(const std::string &payload, uid_t restrict_uid,
                                      const std::vector<std::string> &sockets);

// SACK's request: version (2 bytes), length of what follows it (4), rpc (4), then the rpc's
// body, all big-endian as Slurm's pack functions write them. Exposed for the unit test.
inline constexpr uint32_t kSackCreate = 64001;
std::string sack_create_request(const std::string &payload, uid_t restrict_uid);

} // namespace campaign
