// Online campaign detection (doc/design.md §3): per group (fairness unit x domain), jobs join the
// current campaign by the threshold or window rule as they become eligible. No Slurm types.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace campaign
{

inline constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

// The detection rule. Threshold: a job joins iff it becomes eligible strictly before T after
// the latest completion of the campaign's jobs (an unfinished job counts as never completed;
// T = 0 is the thesis's MAX rule), and, with max_span_s > 0, strictly before max_span_s after
// the campaign's first job. Window: iff eligible strictly before W after the campaign's first
// job.
struct DetectionRule {
	enum class Kind : uint8_t { Threshold, Window };
	Kind kind = Kind::Threshold;
	int64_t threshold_s = 0;
	int64_t window_s = 600;
	// Threshold rule: 0, no bound. A campaign whose job waits stays open under the threshold
	// rule and takes every later job of its user, so its completion in V recedes with each
	// and the waiting job ranks behind everyone who came since (doc/fairness-results.md,
	// "Stop 57"); bounded, the user's later jobs open campaigns of their own.
	int64_t max_span_s = 0;
};

// The detection state of a group's current (latest) campaign.
struct OpenCampaign {
	uint64_t campaign_id = 0; // 0: the group has no campaign yet
	int64_t first_eligible_s = kNoTime;
	int64_t latest_end_s = kNoTime;
	uint32_t unfinished = 0; // eligible, not held, not ended
};

// Whether a job eligible at `eligible_s` joins `current` under `rule`.
bool joins_campaign(const DetectionRule &rule, const OpenCampaign &current, int64_t eligible_s);

class CampaignDetector
{
public:
	explicit CampaignDetector(DetectionRule rule) : rule_(rule) {}

	struct Assignment {
		uint64_t campaign_id = 0;
		bool opened = false; // a new campaign was opened for this job
	};
	// A job of `group` becomes eligible (or is released from hold) at `eligible_s`.
	Assignment job_eligible(uint32_t group, int64_t eligible_s);
	// A job of `campaign_id` leaves it: ended or cancelled (`completed`, at `end_s`) or held.
	void job_left(uint32_t group, uint64_t campaign_id, int64_t end_s, bool completed);
	// Close the group's campaign `campaign_id` to new jobs (if it is still the current one):
	// the group's next job opens a new campaign.
	void close(uint32_t group, uint64_t campaign_id);
	// Whether a job eligible at `now_s` would join the group's campaign `campaign_id`.
	bool still_open(uint32_t group, uint64_t campaign_id, int64_t now_s) const;

	const DetectionRule &rule() const { return rule_; }
	// State access for save/restore.
	const std::vector<OpenCampaign> &groups() const { return groups_; }
	uint64_t next_campaign_id() const { return next_campaign_id_; }
	void restore(std::vector<OpenCampaign> groups, uint64_t next_campaign_id);

private:
	OpenCampaign &group(uint32_t index);

	DetectionRule rule_;
	std::vector<OpenCampaign> groups_;
	uint64_t next_campaign_id_ = 1;
};

} // namespace campaign
