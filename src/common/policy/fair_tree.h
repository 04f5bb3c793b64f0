// Fair Tree (Slurm's default fair-share algorithm, fair_tree.html), written from its
// documentation: each association's Level Fairshare LF = S / U among its siblings (S its shares
// over theirs, U its usage over theirs; infinite without usage, 0 without shares); the tree
// sorted by LF, highest first, and walked depth first; users ranked in that order, each user's
// fair-share factor its rank over the number of users (the first 1.0). Ties: sibling users with
// equal LF share a rank, and the next user's rank counts them all; a user comes before a sibling
// account of equal LF, and that account's highest ranked user shares the user's rank; sibling
// accounts with equal LF have their children merged before the walk descends. What sshare -l
// shows as LevelFS and FairShare under priority/campaign, as multifactor's Fair Tree gives them.
// No Slurm types.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace campaign
{

struct FairTreeNode {
	double shares = 1; // raw shares (Fairshare=)
	double usage = 0;  // raw, decayed usage
	bool user = false;
	uint32_t parent = kNoParent; // the root has none
	static constexpr uint32_t kNoParent = std::numeric_limits<uint32_t>::max();
};

struct FairTreeValues {
	std::vector<double> level_fs;        // per node (root: 0); +infinity without usage
	std::vector<double> effective_usage; // usage over the parent's children's (root: 1)
	std::vector<double> fair_share;      // per node; users only, accounts 0
};

// Nodes in any order; exactly one node without a parent (the root).
FairTreeValues fair_tree(const std::vector<FairTreeNode> &nodes);

} // namespace campaign
