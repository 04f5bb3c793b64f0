// priority/campaign's own PriorityParameters keys (calc_period, shadow, the scampaign channel):
// how the plugin runs, never what the policy means, so they are not part of the core's identity.
#pragma once

#include "util/parameters.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace campaign
{

// The plugin's own keys only.
ParameterSchema plugin_parameter_schema();

// Every PriorityParameters key: the core's (config/priority_parameters.h) and the plugin's.
ParameterSchema priority_parameter_schema();

// query_address=controller: each slurmctld listens on the address of its own SlurmctldHost line
// (primary and backups alike), and scampaign tries those addresses in slurm.conf's order.
inline constexpr std::string_view kControllerAddress = "controller";

// Where the scampaign channel listens; port 0: the channel is off.
struct ChannelSettings {
	std::string address;
	uint16_t port = 0;
	bool off() const { return port == 0; }
	bool per_controller() const { return address == kControllerAddress; }
};

// The address of one SlurmctldHost value: "name(addr)" gives addr, "name" the name itself
// (resolved by the caller), as Slurm reads the line.
std::string slurmctld_host_address(std::string_view value);

// The channel settings of parsed PriorityParameters (the plugin and scampaign read them alike).
ChannelSettings channel_settings_from(const ParameterValues &values);
// The same from slurm.conf's PriorityParameters text; an error names the bad key.
Result<ChannelSettings> channel_settings_of(std::string_view priority_parameters);

// The cap on unset or INFINITE limits (model/job.h) for a plan made beside `priority_type`:
// priority/campaign's limit_cap_s when it ranks the jobs, else the core's default.
int64_t limit_cap_s_for(std::string_view priority_type, std::string_view priority_parameters);

} // namespace campaign
