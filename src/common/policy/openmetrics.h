// The campaign report and the scheduler's metrics in the text exposition format, for
// node_exporter's textfile collector and Prometheus: names prefixed slurm_campaign_, label
// values escaped. Formatting only: no I/O.
#pragma once

#include "policy/campaign_report.h"

#include <string>

namespace campaign
{

enum class ExpositionFormat {
	openmetrics, // OpenMetrics 1.0: counter families named without _total, "# EOF" last
	prometheus,  // Prometheus text 0.0.4 (node_exporter's textfile collector parses this)
};

// A label value as both formats want it: backslash, double quote and newline escaped.
std::string escape_label_value(const std::string &value);

std::string exposition_text(const CampaignReport &report, ExpositionFormat format);

} // namespace campaign
