// The credential scampaign seals its request in, of the type slurm.conf's AuthType names, as
// Slurm's own commands make theirs: a munge credential from munged (auth/munge, the default), or
// an auth/slurm token from a SACK socket (slurmd's, sackd's or slurmctld's).
#pragma once

#include "slurm_conf_reader.h"
#include "util/result.h"

#include <string>

namespace campaign
{

// `sack_socket_env`: $SLURM_SACK_SOCKET ("" when unset). The error names the culprit: an
// AuthType scampaign cannot speak, an unknown SlurmUser, or the munged / SACK that did not answer.
Result<std::string> seal_request(const std::string &payload, const SlurmConfKeys &conf,
                                 const std::string &sack_socket_env);

} // namespace campaign
