// OStrich virtual schedule: the exact event-driven fluid fair-share model of one fairness domain
// (doc/design.md §3). Units share the rate equally or by weight, one campaign per unit runs in V.
// No Slurm types, no clock reads.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace campaign
{

// Where a campaign stands in V, as projected at `now` with the current shares held constant
// (thesis eq. 5.1: C~ = max(now, s~) + W~ / share).
struct VirtualView {
	bool known = false;
	bool started = false;  // running or finished in V (s~ <= now)
	bool finished = false; // virtual completion reached
	double start_s = 0;    // s~ (projected for a queued campaign)
	double finish_s = 0;   // C~ (actual once finished)
	double remaining_cpu_s = 0;
};

// Generalized-processor-sharing form: a global virtual clock `vtime` advances at
// rate / (sum of active weights); a running campaign finishes when vtime reaches its tag.
class VirtualSchedule
{
public:
	struct Campaign {
		uint32_t unit = 0;
		double work_cpu_s = 0; // remaining, valid while queued (running: from the tag)
		double finish_tag = 0; // running only
		double start_s = 0;    // running or finished
		double finish_s = 0;   // finished only
		enum class Status : uint8_t { Queued, Running, Finished } status = Status::Queued;
	};
	struct Unit {
		double weight = 1;
		std::deque<uint64_t> queue; // front runs in V; finished campaigns are not here
	};

	// Serve work in V from the last time up to `now_s` at `rate_cpus` (capacity, or busy CPUs
	// when resizing); virtual completions on the way are processed in time order.
	void advance_to(double now_s, double rate_cpus);
	// Add work to a campaign (created on first use, queued behind the unit's running one).
	// A finished campaign given more work is queued again: last, or with reopened_next after
	// the unit's running campaign (CoreConfig::reopened_next).
	void add_work(uint64_t campaign_id, uint32_t unit, double work_cpu_s,
	              bool reopened_next = false);
	// Take work away (actual-runtime correction, cancellation); never below zero.
	void remove_work(uint64_t campaign_id, double work_cpu_s);
	void set_weight(uint32_t unit, double weight);
	// Drop a finished campaign's record.
	void forget(uint64_t campaign_id);

	VirtualView view(uint64_t campaign_id, double projection_capacity_cpus) const;
	// Every campaign's view at once, O(campaigns in V).
	void project(double projection_capacity_cpus,
	             const std::function<void(uint64_t, const VirtualView &)> &visit) const;

	bool busy() const { return !running_.empty(); }
	double clock_s() const { return clock_s_; }
	double remaining_of_running(const Campaign &campaign) const;

	// State access for save/restore.
	const std::unordered_map<uint64_t, Campaign> &campaigns() const { return campaigns_; }
	const std::unordered_map<uint32_t, Unit> &units() const { return units_; }
	double vtime() const { return vtime_; }
	double active_weight() const { return active_weight_; }
	void restore(double clock_s, double vtime, double active_weight,
	             std::unordered_map<uint64_t, Campaign> campaigns,
	             std::unordered_map<uint32_t, Unit> units);

private:
	void complete_head(uint64_t campaign_id, double at_s);
	void start_campaign(uint64_t campaign_id, double at_s);
	void complete_due(double at_s);
	VirtualView finished_view(const Campaign &campaign) const;

	double clock_s_ = 0;
	double vtime_ = 0;
	double active_weight_ = 0;
	std::set<std::pair<double, uint64_t>> running_; // (finish tag, campaign id)
	// Finished campaigns not yet forgotten; with running_ (each busy unit's head) it lets a
	// projection visit only what is in V, not every unit and campaign ever seen.
	std::unordered_set<uint64_t> finished_;
	std::unordered_map<uint64_t, Campaign> campaigns_;
	std::unordered_map<uint32_t, Unit> units_;
};

} // namespace campaign
