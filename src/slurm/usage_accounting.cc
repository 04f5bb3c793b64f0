// Association and QOS usage accounting for priority/campaign, written from Slurm's documented
// fair-share behaviour. The decay model is the core's (policy/usage_decay.h), shared with
// campsim's fair-share baselines.
#include "usage_accounting.h"

#include "ctld_lock.h"
#include "runtime/state_file.h"

#include "policy/fair_tree.h"
#include "policy/usage_decay.h"
#include "policy/usage_reset.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <unordered_map>
#include <vector>

namespace campaign::slurm
{
namespace
{

constexpr const char *kLastRanFile = "campaign_usage_last_ran";

template <typename Usage> void scale_usage(Usage *usage, double factor)
{
	if (!usage)
		return;
	usage->usage_raw *= factor;
	usage->grp_used_wall *= factor;
	if (usage->usage_tres_raw)
		for (uint32_t i = 0; i < usage->tres_cnt; i++)
			usage->usage_tres_raw[i] *= factor;
}

// Every association's and QOS's usage times `factor`: a decay, or 0 for
// PriorityUsageResetPeriod.
void scale_all(double factor)
{
	if (assoc_mgr_assoc_list) {
		list_itr_t *it = list_iterator_create(assoc_mgr_assoc_list);
		while (auto *assoc = static_cast<slurmdb_assoc_rec_t *>(list_next(it)))
			scale_usage(assoc->usage, factor);
		list_iterator_destroy(it);
	}
	if (assoc_mgr_qos_list) {
		list_itr_t *it = list_iterator_create(assoc_mgr_qos_list);
		while (auto *qos = static_cast<slurmdb_qos_rec_t *>(list_next(it)))
			scale_usage(qos->usage, factor);
		list_iterator_destroy(it);
	}
}

UsageResetPeriod reset_period_of(uint16_t value)
{
	switch (value) {
	case PRIORITY_RESET_NOW:
		return UsageResetPeriod::now;
	case PRIORITY_RESET_DAILY:
		return UsageResetPeriod::daily;
	case PRIORITY_RESET_WEEKLY:
		return UsageResetPeriod::weekly;
	case PRIORITY_RESET_MONTHLY:
		return UsageResetPeriod::monthly;
	case PRIORITY_RESET_QUARTERLY:
		return UsageResetPeriod::quarterly;
	case PRIORITY_RESET_YEARLY:
		return UsageResetPeriod::yearly;
	default:
		return UsageResetPeriod::none;
	}
}

// What a job is billed per second: its billable TRES (TRESBillingWeights), else its CPUs.
double billing_rate(const job_record_t *job)
{
	if (job->billable_tres > 0 && job->billable_tres != static_cast<double>(NO_VAL))
		return job->billable_tres;
	return static_cast<double>(job->total_cpus);
}

template <typename Usage>
void add_usage(Usage *usage, const job_record_t *job, double billed_s, double tres_s, double wall_s)
{
	if (!usage)
		return;
	usage->usage_raw += billed_s;
	usage->grp_used_wall += wall_s;
	if (!usage->usage_tres_raw || !job->tres_alloc_cnt)
		return;
	const uint32_t count = std::min<uint32_t>(usage->tres_cnt, slurmctld_tres_cnt);
	for (uint32_t i = 0; i < count; i++)
		if (job->tres_alloc_cnt[i] != NO_CONSUME_VAL64)
			usage->usage_tres_raw[i] +=
			    static_cast<long double>(job->tres_alloc_cnt[i]) * tres_s;
}

// Charges `charged_s` decayed seconds of the job's allocation (assoc and QOS locks held).
void charge(const job_record_t *job, double charged_s)
{
	if (charged_s <= 0)
		return;
	double factor = 1;
	if (job->qos_ptr && job->qos_ptr->usage_factor >= 0)
		factor = job->qos_ptr->usage_factor;
	const double tres_s = charged_s * factor;
	const double billed_s = billing_rate(job) * tres_s;
	for (slurmdb_assoc_rec_t *assoc = job->assoc_ptr; assoc && assoc->usage;
	     assoc = assoc->usage->parent_assoc_ptr)
		add_usage(assoc->usage, job, billed_s, tres_s, charged_s);
	if (job->qos_ptr)
		add_usage(job->qos_ptr->usage, job, billed_s, tres_s, charged_s);
}

// Seconds the job ran in (from, to], valued at `to` as multifactor values them: all decayed over
// the whole interval, so that sshare reads the same under both plugins.
double charged_between(const job_record_t *job, time_t from, time_t to, const UsageDecay &decay)
{
	const time_t begin = std::max(from, job->start_time);
	if (!job->start_time || to <= begin)
		return 0;
	return decay.period_charge(static_cast<double>(to - begin));
}

// sshare -l's LevelFS, FairShare and EffectvUsage as Fair Tree (Slurm's default, and what sshare
// shows unless PriorityFlags=NO_FAIR_TREE) gives them, from the usage just charged (assoc lock
// held). Fairshare=parent counts as one share.
void update_fair_tree()
{
	if (!assoc_mgr_assoc_list)
		return;
	std::vector<slurmdb_assoc_rec_t *> assocs;
	std::unordered_map<const slurmdb_assoc_rec_t *, uint32_t> index;
	list_itr_t *it = list_iterator_create(assoc_mgr_assoc_list);
	while (auto *assoc = static_cast<slurmdb_assoc_rec_t *>(list_next(it)))
		if (assoc->usage) {
			index.emplace(assoc, static_cast<uint32_t>(assocs.size()));
			assocs.push_back(assoc);
		}
	list_iterator_destroy(it);
	std::vector<FairTreeNode> nodes(assocs.size());
	uint32_t roots = 0;
	for (uint32_t i = 0; i < assocs.size(); i++) {
		const slurmdb_assoc_rec_t *assoc = assocs[i];
		nodes[i].shares = assoc->shares_raw == SLURMDB_FS_USE_PARENT
		                      ? 1.0
		                      : static_cast<double>(assoc->shares_raw);
		nodes[i].usage = static_cast<double>(assoc->usage->usage_raw);
		nodes[i].user = assoc->user != nullptr;
		const auto parent = index.find(assoc->usage->parent_assoc_ptr);
		if (parent != index.end())
			nodes[i].parent = parent->second;
		else
			roots++;
	}
	if (roots != 1)
		return; // not one tree (assoc_mgr still loading): leave the values as they are
	const FairTreeValues values = fair_tree(nodes);
	for (uint32_t i = 0; i < assocs.size(); i++) {
		slurmdb_assoc_usage_t *usage = assocs[i]->usage;
		usage->level_fs = static_cast<long double>(values.level_fs[i]);
		usage->usage_efctv = static_cast<long double>(values.effective_usage[i]);
		if (nodes[i].user)
			usage->fs_factor = values.fair_share[i];
	}
}

} // namespace

bool UsageAccounting::catch_up(time_t now)
{
	if (!restored_)
		return false; // restore() runs first, from the same thread
	const time_t last = last_ran_.load();
	const time_t period = std::max<time_t>(1, slurm_conf.priority_calc_period);
	if (last && now - last < period)
		return false;
	const UsageDecay decay(slurm_conf.priority_decay_hl);
	CtldLock jobs(kReadJobs);
	AssocLock usage(kWriteAssocQosUsage);
	if (last && now > last) {
		if (const double factor = decay.factor(static_cast<double>(now - last)); factor < 1)
			scale_all(factor);
		list_itr_t *it = list_iterator_create(job_list);
		while (auto *job = static_cast<job_record_t *>(list_next(it)))
			if (IS_JOB_RUNNING(job))
				charge(job, charged_between(job, last, now, decay));
		list_iterator_destroy(it);
	}
	// Reset after charging: the usage up to the boundary goes with the rest (at most one
	// PriorityCalcPeriod of it lies past the boundary).
	const UsageResetPeriod reset_period = reset_period_of(slurm_conf.priority_reset_period);
	const bool reset_now = reset_now_.exchange(false) && reset_period == UsageResetPeriod::now;
	const int64_t boundary = latest_usage_reset(reset_period, now);
	if (reset_now || (last && boundary > last)) {
		scale_all(0);
		info("priority/campaign: association and QOS usage reset "
		     "(PriorityUsageResetPeriod)");
	}
	update_fair_tree();
	last_ran_ = now;
	return true;
}

void UsageAccounting::charge_job_end(job_record_t *job)
{
	const time_t last = last_ran_.load();
	if (!job || !last || !job->start_time)
		return;
	const time_t end = job->end_time ? job->end_time : time(nullptr);
	const UsageDecay decay(slurm_conf.priority_decay_hl);
	AssocLock usage(kWriteAssocQosUsage);
	charge(job, charged_between(job, last, end, decay));
}

void UsageAccounting::restore(const std::string &state_dir)
{
	restored_ = true;
	std::ifstream in(state_dir + "/" + kLastRanFile);
	long long stamp = 0;
	if (in >> stamp && stamp > 0)
		last_ran_ = static_cast<time_t>(stamp);
}

void UsageAccounting::save(const std::string &state_dir) const
{
	const time_t last = last_ran_.load();
	if (state_dir.empty() || !last)
		return;
	Status saved = write_file_atomically(state_dir, kLastRanFile, std::to_string(last) + "\n");
	if (!saved.ok())
		error("priority/campaign: usage time not saved: %s", saved.error().c_str());
}

void set_association_usage(slurmdb_assoc_rec_t *assoc)
{
	if (!assoc || !assoc->usage)
		return;
	const slurmdb_assoc_rec_t *root = assoc_mgr_root_assoc;
	const long double total = root && root->usage ? root->usage->usage_raw : 0;
	assoc->usage->usage_norm = total > 0 ? assoc->usage->usage_raw / total : 0;
	// Fair Tree's effective usage: over the parent's (its children's sum), as update_fair_tree.
	const slurmdb_assoc_rec_t *parent = assoc->usage->parent_assoc_ptr;
	const long double siblings = parent && parent->usage ? parent->usage->usage_raw : total;
	assoc->usage->usage_efctv = siblings > 0 ? assoc->usage->usage_raw / siblings : 0;
}

} // namespace campaign::slurm
