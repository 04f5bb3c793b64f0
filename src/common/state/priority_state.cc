// Wraps the core's and the feeder's JSON in one document with a format name and version.
#include "state/priority_state.h"

#include "state/core_state_json.h"
#include "state/feeder_state_json.h"

#include <jansson.h>
#include <memory>

namespace campaign
{
namespace
{

constexpr const char *kFormat = "slurm-campaign priority state";
using JsonPtr = std::unique_ptr<json_t, decltype(&json_decref)>;

std::string dump(const json_t *node)
{
	char *text = json_dumps(node, JSON_COMPACT);
	std::string out = text ? text : "";
	free(text);
	return out;
}

} // namespace

std::string save_priority_state(const CampaignCore &core, const CoreFeeder &feeder)
{
	return std::string("{\"format\":\"") + kFormat +
	       "\",\"version\":" + std::to_string(kPriorityStateVersion) +
	       ",\"core\":" + CoreStateCodec::save(core) +
	       ",\"feeder\":" + FeederStateCodec::save(feeder) + "}\n";
}

Result<PriorityState> load_priority_state(const std::string &json)
{
	json_error_t error;
	JsonPtr root(json_loadb(json.data(), json.size(), JSON_REJECT_DUPLICATES, &error),
	             json_decref);
	if (!root)
		return Error{"priority state: line " + std::to_string(error.line) + " column " +
		             std::to_string(error.column) + ": " + error.text};
	const json_t *format = json_object_get(root.get(), "format");
	if (!json_is_string(format) || std::string(json_string_value(format)) != kFormat)
		return Error{"priority state: format: not a slurm-campaign priority state"};
	const json_t *version = json_object_get(root.get(), "version");
	if (!json_is_integer(version) || json_integer_value(version) != kPriorityStateVersion)
		return Error{"priority state: version: this build reads version " +
		             std::to_string(kPriorityStateVersion)};
	const json_t *core_json = json_object_get(root.get(), "core");
	const json_t *feeder_json = json_object_get(root.get(), "feeder");
	if (!json_is_object(core_json) || !json_is_object(feeder_json))
		return Error{"priority state: core and feeder objects expected"};
	auto core = CoreStateCodec::load(dump(core_json));
	if (!core.ok())
		return Error{"priority state: core: " + core.error()};
	auto feeder = FeederStateCodec::load(dump(feeder_json));
	if (!feeder.ok())
		return Error{"priority state: feeder: " + feeder.error()};
	return PriorityState{std::move(core).value(), std::move(feeder).value()};
}

} // namespace campaign
