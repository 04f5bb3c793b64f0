// Helpers for the core's unit tests: building cores, jobs and looking up explanations.
#pragma once

#include "check_main.h"
#include "policy/campaign_core.h"

#include <cmath>
#include <initializer_list>
#include <string>

namespace campaign_test
{

using namespace campaign;

inline CampaignCore make_core(const std::string &parameters)
{
	auto core = CampaignCore::create(parameters);
	ck_assert_msg(core.ok(), "%s", core.ok() ? "" : core.error().c_str());
	return std::move(core).value();
}

inline JobFields job(uint32_t job_id, uint32_t user_id, int64_t submit_s, uint32_t cpus,
                     int64_t limit_s, const std::string &partition = "p")
{
	JobFields fields;
	fields.job_id = job_id;
	fields.user_id = user_id;
	fields.account = "acct" + std::to_string(user_id % 3);
	fields.partitions = {partition};
	fields.submit_s = submit_s;
	fields.eligible_s = submit_s;
	fields.cpus = cpus;
	fields.limit = TimeLimit::of_seconds(limit_s);
	return fields;
}

inline void ok(const Status &status)
{
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
}

// A core on one partition "p" of `cpus` CPUs, nothing started, `jobs` submitted in turn, each at
// its own submit time (the guards' tests build their queues so).
inline CampaignCore core_with_queue(const std::string &parameters, uint32_t cpus,
                                    std::initializer_list<JobFields> jobs)
{
	CampaignCore core = make_core(parameters);
	ok(core.capacity({"p", cpus, std::nullopt, std::nullopt}, 0));
	for (const JobFields &fields : jobs)
		ok(core.submit(fields, fields.submit_s));
	return core;
}

inline const JobExplanation &explain(const Ranking &ranking, uint32_t job_id)
{
	for (const JobExplanation &explanation : ranking.explanations)
		if (explanation.job_id == job_id)
			return explanation;
	ck_abort_msg("job %u is not ranked", job_id);
	return ranking.explanations.front();
}

inline bool near(double a, double b, double tolerance = 1e-6)
{
	return std::fabs(a - b) <= tolerance;
}

inline void expect_near(double actual, double expected, const char *what)
{
	ck_assert_msg(near(actual, expected), "%s: got %.9f, expected %.9f", what, actual,
	              expected);
}

} // namespace campaign_test
