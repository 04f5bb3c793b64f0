// reproduce faircamp-zipf: FairCamp against FCFS on the FairCamp paper's Zipf workload, k in
// {2, 3, 5, 10, 20}. The checked reading keeps everything the paper states: closed loop, zero
// think time, all users at t = 0; FCFS job-level FIFO; FairCamp placing jobs one by one as soon as
// resources are free (its deadlines, EDF, LPT inside a campaign); the plotted value the max over
// users of the user's mean per-campaign stretch (the thesis's D_i = Delta_i / max(W_i/m, p_max)),
// averaged over instances. The printed-formula reading (sum of flows over sum of LPT makespans,
// whole-machine blocks) stays as labelled sensitivity lines.
#include "cli/run_command.h"
#include "reproduce/experiment_report.h"
#include "reproduce/run_instances.h"
#include "workload/faircamp_zipf.h"

#include <algorithm>
#include <cstdio>

namespace campaign::sim
{

namespace
{

struct ZipfInstance {
	std::string error;
	double fcfs_mean_stretch = 0;     // checked: max over users of the mean campaign stretch
	double faircamp_mean_stretch = 0; // checked: the same under FairCamp, job by job
	double fcfs_max_stretch = 0;
	double faircamp_max_stretch = 0;
	double faircamp_worst_user = 0;       // the largest user stretch under FairCamp
	double fcfs_blocks_max_stretch = 0;   // sensitivity: FCFS also in whole-machine blocks
	double faircamp_jobs_max_stretch = 0; // sensitivity: FairCamp deadlines, job-level dispatch
	double fcfs_in_order = 0, faircamp_in_order = 0; // sensitivity: generation-order release
};

// Seeds are fixed: instance i of k uses seed 1,000,000 * k + i.
ZipfInstance run_zipf_instance(uint32_t k, uint32_t instance)
{
	FairCampZipfOptions generator;
	generator.users = k;
	generator.seed = 1000000ULL * k + instance;
	const Workload workload = generate_faircamp_zipf(generator);
	SimulationOptions options;
	options.estimate.kind = EstimateKind::exact;
	options.calc_period_s = 0; // the paper's simulator ranks at every event
	options.core_parameters = "faircamp_k=" + std::to_string(k); // the paper's static k
	const std::vector<PolicyChoice> policies = {{"fifo", BackfillKind::no_backfill},
	                                            {"faircamp-paper", BackfillKind::no_backfill},
	                                            {"fifo-blocks", BackfillKind::no_backfill},
	                                            {"faircamp", BackfillKind::no_backfill}};
	auto runs = run_policies(workload, policies, options, MetricOptions{}, false);
	ZipfInstance result;
	if (!runs) {
		result.error = workload.name + ": " + runs.error();
		return result;
	}
	result.fcfs_mean_stretch = runs.value()[0].metrics.user_mean_campaign_stretch.max;
	result.faircamp_mean_stretch = runs.value()[3].metrics.user_mean_campaign_stretch.max;
	result.fcfs_max_stretch = runs.value()[0].metrics.max_user_cumulative_stretch_lpt;
	result.faircamp_max_stretch = runs.value()[1].metrics.max_user_cumulative_stretch_lpt;
	result.faircamp_worst_user = runs.value()[1].metrics.user_cumulative_stretch_lpt.max;
	result.fcfs_blocks_max_stretch = runs.value()[2].metrics.max_user_cumulative_stretch_lpt;
	result.faircamp_jobs_max_stretch = runs.value()[3].metrics.max_user_cumulative_stretch_lpt;
	options.release_in_generation_order = true;
	auto in_order =
	    run_policies(workload, {policies[0], policies[1]}, options, MetricOptions{}, false);
	if (!in_order) {
		result.error = workload.name + ": " + in_order.error();
		return result;
	}
	result.fcfs_in_order = in_order.value()[0].metrics.max_user_cumulative_stretch_lpt;
	result.faircamp_in_order = in_order.value()[1].metrics.max_user_cumulative_stretch_lpt;
	return result;
}

struct Band {
	uint32_t k;
	const char *paper;
	double low, high;
};

// The bands, fixed before any run: FCFS/FairCamp ratio of the plotted value.
const Band kBands[] = {{2, "irrelevant", 0, 1.15},
                       {3, "irrelevant", 0, 1.15},
                       {5, "1.35", 1.15, 1.55},
                       {10, "2.24", 1.9, 2.6},
                       {20, "~3.4", 2.9, 3.9}};

} // namespace

Result<ExperimentReport> reproduce_faircamp_zipf(const ReproduceOptions &options)
{
	const uint32_t instances = options.instances ? options.instances : 1000;
	ExperimentReport report;
	report.name = "faircamp-zipf";
	report.setup = {
	    "FairCamp paper Sec. VII: m = 10, 10^4 single-CPU jobs per instance, p ~ U[1,100] s, "
	    "new campaign with probability 0.1, owners Zipf(1.4267) over k users",
	    "closed loop, zero think time, every user's first campaign at t = 0",
	    std::to_string(instances) + " instances per k; instance i of k has seed 1000000*k + i",
	    "checked reading: FCFS job-level FIFO (fifo/no_backfill); FairCamp job by job as soon "
	    "as CPUs are free (faircamp/no_backfill, faircamp_k = k: deadlines, EDF, LPT inside a "
	    "campaign); value: max over users of the user's mean campaign stretch "
	    "D = Delta / max(W/m, p_max); ratio = mean FCFS value / mean FairCamp value",
	    "sensitivity (printed formula): FairCamp paper mode in whole-machine LPT blocks "
	    "(d_i = k*Delta_i + d_(i-1)); user stretch = sum of campaign flows / sum of LPT "
	    "makespans; FCFS job-level and in blocks; and generation-order release"};
	const uint32_t total = instances * 5;
	uint32_t finished = 0;
	for (const Band &band : kBands) {
		auto progress = [&](double done) {
			if (options.progress)
				options.progress((finished + done * instances) / total);
		};
		const auto results = run_instances<ZipfInstance>(
		    instances, [&](uint32_t i) { return run_zipf_instance(band.k, i); }, progress);
		finished += instances;
		double checked_fcfs = 0, checked_faircamp = 0;
		double fcfs = 0, faircamp = 0, worst = 0, fcfs_blocks = 0, faircamp_jobs = 0;
		double fcfs_in_order = 0, faircamp_in_order = 0;
		for (const ZipfInstance &result : results) {
			if (!result.error.empty())
				return Error{result.error};
			checked_fcfs += result.fcfs_mean_stretch;
			checked_faircamp += result.faircamp_mean_stretch;
			fcfs += result.fcfs_max_stretch;
			faircamp += result.faircamp_max_stretch;
			worst = std::max(worst, result.faircamp_worst_user);
			fcfs_blocks += result.fcfs_blocks_max_stretch;
			faircamp_jobs += result.faircamp_jobs_max_stretch;
			fcfs_in_order += result.fcfs_in_order;
			faircamp_in_order += result.faircamp_in_order;
		}
		for (double *mean :
		     {&checked_fcfs, &checked_faircamp, &fcfs, &faircamp, &fcfs_blocks,
		      &faircamp_jobs, &fcfs_in_order, &faircamp_in_order})
			*mean /= instances;
		char line[256];
		std::snprintf(line, sizeof line,
		              "k = %2u: max user mean campaign stretch FCFS %.3f, FairCamp %.3f "
		              "(ratio %.3f, checked)",
		              band.k, checked_fcfs, checked_faircamp,
		              checked_fcfs / checked_faircamp);
		report.figures.push_back(line);
		std::snprintf(
		    line, sizeof line,
		    "        sensitivity, printed formula: FCFS %.3f, FairCamp paper blocks %.3f "
		    "(ratio %.3f); largest FairCamp user stretch %.3f",
		    fcfs, faircamp, fcfs / faircamp, worst);
		report.figures.push_back(line);
		std::snprintf(
		    line, sizeof line,
		    "        sensitivity, printed formula: FCFS in blocks %.3f (ratio %.3f to "
		    "FairCamp blocks); FairCamp job by job %.3f (FCFS/that %.3f)",
		    fcfs_blocks, fcfs_blocks / faircamp, faircamp_jobs, fcfs / faircamp_jobs);
		report.figures.push_back(line);
		std::snprintf(
		    line, sizeof line,
		    "        sensitivity, printed formula, campaigns released in generation order: "
		    "FCFS %.3f, FairCamp %.3f (ratio %.3f)",
		    fcfs_in_order, faircamp_in_order, fcfs_in_order / faircamp_in_order);
		report.figures.push_back(line);
		report.checks.push_back({"k=" + std::to_string(band.k) +
		                             " FCFS/FairCamp max user mean campaign stretch",
		                         checked_fcfs / checked_faircamp, band.paper, band.low,
		                         band.high});
		report.checks.push_back({"k=" + std::to_string(band.k) +
		                             " FairCamp user stretch never above k (largest)",
		                         worst, "< k", 0, static_cast<double>(band.k)});
	}
	report.notes = {
	    "the paper does not say which rho-algorithm builds zeta; we use LPT (spec B.2)",
	    "the paper's instance count is 10^3 in the text and 10^4 in Fig. 4; we use 10^3 "
	    "(spec B.7)",
	    "the checked reading keeps every setting the paper states and reads its figure as "
	    "the thesis's per-campaign stretch D averaged per user; it gives the paper's ratios "
	    "within their bands for k = 5, 10 and 20 (paper 1.35, 2.24, ~3.4)",
	    "remaining differences: the absolute values are about 25-35 % above the paper's, "
	    "and at k = 3, where the paper calls the difference irrelevant, the ratio lands "
	    "slightly above its band (about 1.18 over 1000 instances against <= 1.15)",
	    "the printed-formula reading (sum of flows over sum of makespans, whole-machine "
	    "blocks) does not reproduce the ratios in this closed loop: all k users stay active "
	    "until their workflows end, so both schedules serve each user at about 1/k of the "
	    "machine; it stays above as sensitivity lines"};
	return report;
}

} // namespace campaign::sim
