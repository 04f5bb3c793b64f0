// PriorityParameters of priority/campaign: the schema (keys, defaults, bounds) and the typed
// configuration the core reads from it. No Slurm types.
#pragma once

#include "campaign/campaign_detector.h"
#include "policy/faircamp_deadlines.h"
#include "util/parameters.h"

#include <cstdint>
#include <string>

namespace campaign
{

// Every PriorityParameters key: the core's policy keys and the plugin's own (calc_period,
// query_port, query_address, shadow).
ParameterSchema priority_parameter_schema();

enum class PolicyKind : uint8_t { Fifo, Ostrich, FairCamp };
enum class IntraOrder : uint8_t { Lpt, Spt, Fifo };

struct CoreConfig {
	PolicyKind policy = PolicyKind::Ostrich;
	DetectionRule rule;
	bool unit_is_account = false;   // unit=account
	bool domain_is_cluster = false; // domain=cluster
	bool strict = false;            // mode=strict
	IntraOrder intra = IntraOrder::Lpt;
	bool weighted_shares = false; // shares=weighted: set_unit_weight() values count
	bool resizing = false;
	uint32_t faircamp_k = 0; // 0: active units when the campaign opens
	FairCampDeadlines::Mode faircamp_mode = FairCampDeadlines::Mode::Anchored;
	int64_t limit_cap_s = 7 * 86400;
	std::string text; // the parameters as given back by describe(), for save()
};

CoreConfig core_config_from(const ParameterValues &values);

} // namespace campaign
