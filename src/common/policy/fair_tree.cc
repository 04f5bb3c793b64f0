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
		rank_ = users_;
	}

	void run()
	{
		if (root_ == FairTreeNode::kNoParent)
			return;
		values_.effective_usage[root_] = 1;
		for (uint32_t i = 0; i < nodes_.size(); i++)
			level(children_[i]);
		descend(children_[root_]);
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

	// Visits `siblings` (possibly the merged children of tied accounts) highest LF first.
	void descend(std::vector<uint32_t> siblings)
	{
		std::stable_sort(siblings.begin(), siblings.end(), [&](uint32_t a, uint32_t b) {
			return values_.level_fs[a] > values_.level_fs[b];
		});
		for (size_t first = 0; first < siblings.size();) {
			size_t last = first;
			while (last < siblings.size() && values_.level_fs[siblings[last]] ==
			                                     values_.level_fs[siblings[first]])
				last++;
			// One group of equal LF: the accounts' children merged and walked first,
			// then the users, at the rank the group started with.
			const uint32_t group_rank = rank_;
			std::vector<uint32_t> merged;
			uint32_t tied_users = 0;
			for (size_t i = first; i < last; i++) {
				const uint32_t node = siblings[i];
				if (nodes_[node].user)
					tied_users++;
				else
					merged.insert(merged.end(), children_[node].begin(),
					              children_[node].end());
			}
			if (!merged.empty())
				descend(std::move(merged));
			for (size_t i = first; i < last; i++)
				if (nodes_[siblings[i]].user)
					values_.fair_share[siblings[i]] =
					    static_cast<double>(group_rank) /
					    static_cast<double>(users_);
			rank_ -= std::min(rank_, tied_users);
			first = last;
		}
	}

	const std::vector<FairTreeNode> &nodes_;
	FairTreeValues &values_;
	std::vector<std::vector<uint32_t>> children_;
	uint32_t root_ = FairTreeNode::kNoParent;
	uint32_t users_ = 0, rank_ = 0;
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
