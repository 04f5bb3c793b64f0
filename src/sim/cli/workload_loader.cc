// Workload loading for the CLI: options -> reader or generator.
#include "cli/workload_loader.h"

#include "trace/job_list_reader.h"
#include "trace/limit_accuracy.h"
#include "trace/missing_limits.h"
#include "trace/sacct_reader.h"
#include "trace/swf_reader.h"
#include "workload/faircamp_zipf.h"
#include "workload/ostrich_profiles.h"

#include <cstdio>
#include <string>
#include <utility>

namespace campaign::sim
{

namespace
{

Result<LoadedWorkload> generated(const CampsimOptions &options)
{
	LoadedWorkload loaded;
	if (options.generator == "ostrich-profiles") {
		OstrichProfileOptions generator;
		generator.seed = options.seed;
		generator.users = options.users;
		generator.jobs = options.job_count;
		if (options.machine_cpus)
			generator.machine_cpus = *options.machine_cpus;
		if (Status valid = check_ostrich_profile_options(generator); !valid)
			return Error{"--generate ostrich-profiles: " + valid.error()};
		loaded.workload = generate_ostrich_profiles(generator);
		const auto profiles = ostrich_user_profiles(generator);
		for (uint32_t user = 0; user < profiles.size(); ++user)
			loaded.user_profiles[user] = profiles[user];
		return loaded;
	}
	FairCampZipfOptions generator;
	generator.seed = options.seed;
	generator.users = options.users;
	generator.jobs = options.job_count;
	if (options.machine_cpus)
		generator.machine_cpus = *options.machine_cpus;
	if (Status valid = check_faircamp_zipf_options(generator); !valid)
		return Error{"--generate faircamp-zipf: " + valid.error()};
	loaded.workload = generate_faircamp_zipf(generator);
	return loaded;
}

// A file that gives no job would print a table of zeros: say so on stderr, naming the file.
void warn_if_empty(const Workload &workload, const std::string &path)
{
	if (workload.counts.lines == 0)
		std::fprintf(stderr, "campsim: warning: %s: no data lines (empty or header only)\n",
		             path.c_str());
	else if (workload.jobs.empty())
		std::fprintf(stderr,
		             "campsim: warning: %s: none of its %llu data lines kept (see the "
		             "notes)\n",
		             path.c_str(), static_cast<unsigned long long>(workload.counts.lines));
}

Result<Workload> read_trace(const CampsimOptions &options)
{
	TraceOptions trace;
	trace.from_s = options.from_s;
	trace.to_s = options.to_s;
	trace.lenient = options.lenient;
	trace.machine_cpus = options.machine_cpus;
	trace.anonymise = options.anonymise; // only with --sacct (campsim_options checks)
	if (!options.swf_path.empty())
		return read_swf(options.swf_path, trace);
	if (!options.sacct_path.empty())
		return read_sacct(options.sacct_path, trace);
	return read_job_list(options.jobs_path, trace);
}

} // namespace

Result<LoadedWorkload> load_workload(const CampsimOptions &options)
{
	if (!options.generator.empty())
		return generated(options);
	Result<Workload> workload = read_trace(options);
	if (!workload)
		return Error{workload.error()};
	LoadedWorkload loaded;
	loaded.workload = std::move(workload).value();
	const std::string &path = !options.swf_path.empty()     ? options.swf_path
	                          : !options.sacct_path.empty() ? options.sacct_path
	                                                        : options.jobs_path;
	warn_if_empty(loaded.workload, path);
	if (options.missing_limit)
		loaded.workload.notes.push_back(missing_limits_note(
		    give_missing_limits(loaded.workload, *options.missing_limit)));
	else if (std::string unknown = unknown_limits_note(loaded.workload); !unknown.empty())
		loaded.workload.notes.push_back(std::move(unknown));
	loaded.workload.notes.push_back(limit_accuracy_note(limit_accuracy(loaded.workload)));
	if (loaded.workload.machine_cpus == 0)
		return Error{loaded.workload.name + ": machine size unknown: give --cpus N"};
	return loaded;
}

} // namespace campaign::sim
