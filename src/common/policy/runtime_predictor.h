// RuntimePredictor: a job's expected run time from recent actual run times, as a fraction of the
// limit: the mean of its user's last two runs' fractions (run time / limit), or, for a user with
// no finished run yet, the fraction over every user's recent runs (a moving average), so that a
// newcomer is not counted at the full limit while known users are counted at their runs. Never
// above the limit, never below a floor (work_estimate_floor_s, default a minute; or the limit, if
// shorter). OStrich counts it as a job's virtual work with work_estimate=recent: users set limits
// far above their run times, and a burst of short jobs with long limits would otherwise be counted
// as hours of work. The work is corrected to the actual run time at the end, as the thesis
// corrects it. No Slurm types.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace campaign
{

class RuntimePredictor
{
public:
	// By default a prediction below a minute (Slurm's smallest limit) is raised to it: a run
	// that failed at once must not make its user's next jobs count as nothing.
	static constexpr int64_t kFloorS = 60;
	// Weight of one run in the all-users average: about the last 50 runs count.
	static constexpr double kAllUsersWeight = 0.02;

	struct Recent {
		double latest = 0, previous = 0; // run time / limit, in [0, 1]
		uint32_t runs = 0;               // finished runs seen, capped at 2
	};

	explicit RuntimePredictor(int64_t floor_s = kFloorS) : floor_s_(floor_s) {}

	int64_t predict(uint32_t user_id, int64_t limit_s) const
	{
		return of_limit(fraction(user_id), limit_s);
	}
	// The predicted part of its limit a job of this user runs, in [0, 1], before the floor.
	double fraction(uint32_t user_id) const;
	// That part of limit_s, between the floor and the limit: what predict gives for it.
	int64_t of_limit(double fraction, int64_t limit_s) const;
	void record(uint32_t user_id, int64_t runtime_s, int64_t limit_s);

	const std::unordered_map<uint32_t, Recent> &users() const { return users_; }
	double all_users_fraction() const { return all_users_; }
	void restore(uint32_t user_id, const Recent &recent) { users_[user_id] = recent; }
	void restore_all_users_fraction(double fraction) { all_users_ = fraction; }

private:
	int64_t floor_s_;
	std::unordered_map<uint32_t, Recent> users_;
	double all_users_ = 1; // no run seen yet: the limit
};

} // namespace campaign
