// priority/campaign's own PriorityParameters keys and the full PriorityParameters schema.
#include "runtime/priority_plugin_parameters.h"

#include "config/priority_parameters.h"
#include "config/priority_plugin_defaults.h"

#include <string>

namespace campaign
{

ParameterSchema plugin_parameter_schema()
{
	return ParameterSchema(
	    "PriorityParameters", "",
	    {{.key = "calc_period",
	      .kind = ParameterKind::Integer,
	      .default_value = std::to_string(priority_plugin_defaults::calc_period_s),
	      .description = "seconds between full re-rank passes",
	      .min_integer = 1,
	      .max_integer = 86400},
	     {.key = "query_port",
	      .kind = ParameterKind::Integer,
	      .default_value = "6830",
	      .description = "TCP port of the scampaign channel (0: off)",
	      .min_integer = 0,
	      .max_integer = 65535},
	     {.key = "query_address",
	      .kind = ParameterKind::Text,
	      .default_value = "127.0.0.1",
	      .description = "IPv4 address the scampaign channel listens on, or 'controller': "
	                     "each slurmctld's own SlurmctldHost address (backup controllers)"},
	     {.key = "shadow",
	      .kind = ParameterKind::Boolean,
	      .default_value = "no",
	      .description = "compute and publish ranks without applying them"}});
}

ParameterSchema priority_parameter_schema()
{
	std::vector<ParameterSpec> specs = core_parameter_schema().specs();
	const ParameterSchema plugin = plugin_parameter_schema();
	specs.insert(specs.end(), plugin.specs().begin(), plugin.specs().end());
	return ParameterSchema("PriorityParameters", "", std::move(specs));
}

ChannelSettings channel_settings_from(const ParameterValues &values)
{
	return {values.text("query_address"), static_cast<uint16_t>(values.integer("query_port"))};
}

std::string slurmctld_host_address(std::string_view value)
{
	const size_t open = value.find('(');
	const size_t close = value.rfind(')');
	if (open != std::string_view::npos && close != std::string_view::npos && close > open + 1)
		return std::string(value.substr(open + 1, close - open - 1));
	return std::string(value.substr(0, open));
}

Result<ChannelSettings> channel_settings_of(std::string_view priority_parameters)
{
	auto values = priority_parameter_schema().parse(priority_parameters);
	if (!values.ok())
		return Error{values.error()};
	return channel_settings_from(values.value());
}

int64_t limit_cap_s_for(std::string_view priority_type, std::string_view priority_parameters)
{
	if (priority_type != "priority/campaign")
		return kDefaultLimitCapS;
	auto values = priority_parameter_schema().parse(priority_parameters);
	return values.ok() ? values.value().integer("limit_cap_s") : kDefaultLimitCapS;
}

} // namespace campaign
