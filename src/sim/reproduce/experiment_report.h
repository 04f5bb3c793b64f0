// What a `campsim reproduce` experiment prints: its fixed setup, our figures beside the
// paper's, and PASS/FAIL against bands written in the code before any result was seen.
#pragma once

#include "util/result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace campaign::sim
{

struct BandCheck {
	std::string figure; // what is compared
	double ours = 0;
	std::string paper; // the paper's figure, as printed
	double low = 0;    // PASS iff low <= ours <= high
	double high = 0;
	bool pass() const { return ours >= low && ours <= high; }
};

struct ExperimentReport {
	std::string name;
	std::vector<std::string> setup;   // seeds, counts, policies: fixed in the code
	std::vector<std::string> figures; // more of our figures, one line each (not checked)
	std::vector<BandCheck> checks;
	std::vector<std::string> notes; // where and why we differ
	bool passed() const;
};

struct ReproduceOptions {
	uint32_t instances = 0; // 0: the experiment's own count
	std::string trace_path; // lpc-egee: the SWF file
	std::function<void(double)> progress;
};

std::string format_report(const ExperimentReport &report);

Result<ExperimentReport> reproduce_faircamp_zipf(const ReproduceOptions &options);
Result<ExperimentReport> reproduce_ostrich_profiles(const ReproduceOptions &options);
Result<ExperimentReport> reproduce_lpc_egee(const ReproduceOptions &options);

} // namespace campaign::sim
