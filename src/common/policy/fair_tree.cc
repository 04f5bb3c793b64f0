// Fair Tree: level fairshare and the depth-first ranking of users (fair_tree.h). No Slurm types.
#include "policy/fair_tree.h"

#include <algorithm>
#include <numeric>

namespace campaign
{
namespace
{

class FairTreeWalk
{
public:
	FairTreeWalk(const std::vector<FairTreeNode> &nodes, FairTreeValues &values)
	    : nodes_(nodes), values_(values), children_(nodes.size())
	{
		for (uint32_t i = 0; i < nodes.size(); i++)
			if (nodes[i].parent != FairTreeNode::kNoParent)
				children_[nodes[i].parent].push_back(i);
			else
				root_ = i;
		users_ = static_cast<uint32_t>(std::count_if(nodes.begin(), nodes.end(),
		                                             [](const auto &n) { return n.user; }));
		rank_ = next_ = users_;
	}

	void run()
	{
		if (root_ == FairTreeNode::kNoParent)
			return;
		values_.effective_usage[root_] = 1;
		for (uint32_t i = 0; i < nodes_.size(); i++)
			level(children_[i]);
		descend(children_[root_], false);
	}

private:
	// LF and effective usage of one set of siblings.
	void level(const std::vector<uint32_t> &siblings)
	{
		double shares = 0, usage = 0;
		for (const uint32_t node : siblings) {
			shares += nodes_[node].shares;
			usage += nodes_[node].usage;
		}
		for (const uint32_t node : siblings) {
			const double s = shares > 0 ? nodes_[node].shares / shares : 0;
			const double u = usage > 0 ? nodes_[node].usage / usage : 0;
			values_.effective_usage[node] = u;
			values_.level_fs[node] = s <= 0   ? 0
			                         : u <= 0 ? std::numeric_limits<double>::infinity()
			                                  : s / u;
		}
	}

	// Visits `siblings` (possibly the merged children of tied accounts) highest LF first, users
	// before accounts of equal LF. A user ranks below the previous user unless tied with the
	// sibling before it, or (first of its level) with the account it descends from; `next_` is
	// the rank it would have without ties.
	void descend(std::vector<uint32_t> siblings, bool account_tied)
	{
		std::stable_sort(siblings.begin(), siblings.end(), [&](uint32_t a, uint32_t b) {
			if (values_.level_fs[a] != values_.level_fs[b])
				return values_.level_fs[a] > values_.level_fs[b];
			return nodes_[a].user && !nodes_[b].user;
		});
		for (size_t i = 0; i < siblings.size(); i++) {
			const uint32_t node = siblings[i];
			const double lf = values_.level_fs[node];
			const bool tied =
			    i == 0 ? account_tied : values_.level_fs[siblings[i - 1]] == lf;
			if (nodes_[node].user) {
				if (!tied)
					rank_ = next_;
				values_.fair_share[node] =
				    static_cast<double>(rank_) / static_cast<double>(users_);
				if (next_ > 0)
					next_--;
				continue;
			}
			// Sibling accounts of equal LF are walked as one: their children merged.
			std::vector<uint32_t> merged(children_[node]);
			while (i + 1 < siblings.size() && !nodes_[siblings[i + 1]].user &&
			       values_.level_fs[siblings[i + 1]] == lf) {
				i++;
				merged.insert(merged.end(), children_[siblings[i]].begin(),
				              children_[siblings[i]].end());
			}
			descend(std::move(merged), tied);
		}
	}

	const std::vector<FairTreeNode> &nodes_;
	FairTreeValues &values_;
	std::vector<std::vector<uint32_t>> children_;
	uint32_t root_ = FairTreeNode::kNoParent;
	uint32_t users_ = 0, rank_ = 0, next_ = 0;
};

} // namespace

FairTreeValues fair_tree(const std::vector<FairTreeNode> &nodes)
{
	FairTreeValues values;
	values.level_fs.assign(nodes.size(), 0);
	values.effective_usage.assign(nodes.size(), 0);
	values.fair_share.assign(nodes.size(), 0);
	FairTreeWalk(nodes, values).run();
	return values;
}

} // namespace campaign
