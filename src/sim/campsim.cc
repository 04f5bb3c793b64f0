// campsim: command-line entry of the simulator (run, compare, reproduce). Parses options and
// hands over; the simulation itself lives in engine/.
#include <cstdio>

int main()
{
	std::fprintf(stderr, "campsim: not built yet\n");
	return 2;
}
