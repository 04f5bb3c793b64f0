// campsim: command-line entry of the simulator (run, reproduce, help). Parses options and
// hands over; the simulation itself lives in engine/.
#include "cli/campsim_options.h"
#include "cli/rank_command.h"
#include "cli/replay_plan_command.h"
#include "cli/reproduce_command.h"
#include "cli/run_command.h"

#include <cstdio>
#include <exception>

int main(int argc, char **argv)
{
	using namespace campaign::sim;
	try {
		auto options =
		    parse_campsim_options(std::vector<std::string>(argv + 1, argv + argc));
		if (!options) {
			std::fprintf(stderr, "campsim: %s\n%s", options.error().c_str(),
			             campsim_usage());
			return 2;
		}
		if (options.value().command == "help") {
			std::fputs(campsim_usage(), stdout);
			return 0;
		}
		if (options.value().command == "rank")
			return rank_command(options.value());
		if (options.value().command == "replay-plan")
			return replay_plan_command(options.value());
		if (options.value().command == "reproduce")
			return reproduce_command(options.value());
		return run_command(options.value());
	} catch (const std::exception &error) {
		std::fprintf(stderr, "campsim: internal error: %s\n", error.what());
		return 1;
	}
}
