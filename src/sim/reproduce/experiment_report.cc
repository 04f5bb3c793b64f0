// Formatting of the reproduce reports.
#include "reproduce/experiment_report.h"

#include <cstdio>

namespace campaign::sim
{

bool ExperimentReport::passed() const
{
	for (const BandCheck &check : checks)
		if (!check.pass())
			return false;
	return !checks.empty();
}

std::string format_report(const ExperimentReport &report)
{
	std::string text = "== reproduce " + report.name + "\n";
	for (const std::string &line : report.setup)
		text += "setup: " + line + "\n";
	for (const std::string &line : report.figures)
		text += "  " + line + "\n";
	char line[512];
	std::snprintf(line, sizeof line, "%-58s %12s %14s %21s  %s\n", "figure", "ours", "paper",
	              "band", "result");
	text += line;
	for (const BandCheck &check : report.checks) {
		char band[64];
		std::snprintf(band, sizeof band, "[%g, %g]", check.low, check.high);
		std::snprintf(line, sizeof line, "%-58s %12.4g %14s %21s  %s\n",
		              check.figure.c_str(), check.ours, check.paper.c_str(), band,
		              check.pass() ? "PASS" : "FAIL");
		text += line;
	}
	for (const std::string &note : report.notes)
		text += "note: " + note + "\n";
	text += std::string("reproduce ") + report.name + ": " +
	        (report.passed() ? "PASS" : "FAIL") + "\n";
	return text;
}

} // namespace campaign::sim
