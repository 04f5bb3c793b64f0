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

// Where the scampaign channel listens; port 0: the channel is off.
struct ChannelSettings {
	std::string address;
	uint16_t port = 0;
	bool off() const { return port == 0; }
};

// The channel settings of parsed PriorityParameters (the plugin and scampaign read them alike).
ChannelSettings channel_settings_from(const ParameterValues &values);
// The same from slurm.conf's PriorityParameters text; an error names the bad key.
Result<ChannelSettings> channel_settings_of(std::string_view priority_parameters);

// The cap on unset or INFINITE limits (model/job.h) for a plan made beside `priority_type`:
// priority/campaign's limit_cap_s when it ranks the jobs, else the core's default.
int64_t limit_cap_s_for(std::string_view priority_type, std::string_view priority_parameters);

} // namespace campaign
