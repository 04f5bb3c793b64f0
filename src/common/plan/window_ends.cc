// end_with_windows: see window_ends.h.
#include "plan/window_ends.h"

#include <algorithm>
#include <unordered_map>

namespace campaign::plan
{

void end_with_windows(std::vector<RunningJob> &running,
                      const std::vector<UnavailableWindow> &windows, int64_t now_s)
{
	std::unordered_map<uint32_t, int64_t> ends; // window id: when Slurm ends its jobs
	for (const UnavailableWindow &window : windows)
		if (window.id)
			ends[window.id] = std::max(window.end_s + window.overrun_s, now_s + 1);
	if (ends.empty())
		return;
	for (RunningJob &job : running)
		if (auto found = ends.find(job.window_id); job.window_id && found != ends.end())
			job.expected_end_s = std::min(job.expected_end_s, found->second);
}

} // namespace campaign::plan
