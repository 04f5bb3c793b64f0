// The words of PlannerConfig::short_room_demand, shared by sched/campaign's
// campaign_short_room_demand and campsim's --short-room-demand.
#pragma once

#include "plan/plan_types.h"

#include <optional>
#include <string>
#include <string_view>

namespace campaign::plan
{

inline const char *short_room_demand_name(ShortRoomDemand demand)
{
	switch (demand) {
	case ShortRoomDemand::pending:
		return "pending";
	case ShortRoomDemand::blocked:
		return "blocked";
	case ShortRoomDemand::fitting:
		return "fitting";
	}
	return "pending";
}

inline std::optional<ShortRoomDemand> short_room_demand_named(std::string_view name)
{
	for (ShortRoomDemand demand :
	     {ShortRoomDemand::pending, ShortRoomDemand::blocked, ShortRoomDemand::fitting})
		if (name == short_room_demand_name(demand))
			return demand;
	return std::nullopt;
}

} // namespace campaign::plan
