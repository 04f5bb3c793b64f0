// Random event sequences for the core's property tests (save/restore, fuzz seeds).
#pragma once

#include "core_fixtures.h"

namespace campaign_test
{

// Applies `count` random events to `core` from time `now_s` on; returns the final time.
// Event errors (unknown jobs) are expected and ignored: they must just not corrupt the core.
inline int64_t random_events(CampaignCore &core, std::mt19937_64 &random, int count, int64_t now_s,
                             uint32_t &next_job_id)
{
	const char *partitions[] = {"a", "b", "c"};
	for (int event = 0; event < count; event++) {
		now_s += static_cast<int64_t>(random() % 7);
		const uint32_t some_job = 1 + static_cast<uint32_t>(random() % next_job_id);
		switch (random() % 12) {
		case 0:
			(void)core.capacity(
			    {partitions[random() % 3], random() % 64,
			     random() % 2 ? std::optional<int64_t>(50) : std::nullopt,
			     std::nullopt},
			    now_s);
			break;
		case 1:
		case 2:
		case 3: {
			JobFields fields =
			    job(next_job_id++, static_cast<uint32_t>(random() % 6), now_s,
			        1 + static_cast<uint32_t>(random() % 8),
			        static_cast<int64_t>(random() % 60), partitions[random() % 3]);
			if (random() % 5 == 0)
				fields.limit = TimeLimit::infinite();
			if (random() % 6 == 0)
				fields.eligible_s = now_s + static_cast<int64_t>(random() % 20);
			if (random() % 10 == 0)
				fields.eligible_s.reset();
			fields.held = random() % 15 == 0;
			fields.nice = static_cast<int32_t>(random() % 3);
			fields.array_tasks = 1 + static_cast<uint32_t>(random() % 3);
			(void)core.submit(fields, now_s);
			break;
		}
		case 4:
		case 5:
			(void)core.start(some_job, now_s);
			break;
		case 6:
		case 7:
			(void)core.end(some_job, now_s);
			break;
		case 8:
			(void)core.cancel(some_job, now_s);
			break;
		case 9:
			(void)(random() % 2 ? core.hold(some_job, now_s)
			                    : core.release(some_job, now_s));
			break;
		case 10: {
			JobUpdate update;
			update.job_id = some_job;
			if (random() % 2)
				update.limit =
				    TimeLimit::of_seconds(static_cast<int64_t>(random() % 90));
			if (random() % 3 == 0)
				update.partitions =
				    std::vector<std::string>{partitions[random() % 3]};
			if (random() % 3 == 0)
				update.cpus = 1 + static_cast<uint32_t>(random() % 4);
			(void)core.update(update, now_s);
			break;
		}
		default:
			(void)core.eligible(some_job, now_s);
			if (random() % 4 == 0)
				(void)core.set_user_weight(static_cast<uint32_t>(random() % 6),
				                           0.5 + static_cast<double>(random() % 4),
				                           now_s);
			break;
		}
	}
	return now_s;
}

} // namespace campaign_test
