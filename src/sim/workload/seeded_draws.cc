// Seeded draws for the synthetic generators: our own mapping of mt19937_64 output to integers,
// reals and Zipf ranks (no std::*_distribution, whose output differs between libraries).
#include "workload/seeded_draws.h"

#include <algorithm>
#include <cmath>

namespace campaign::sim
{

uint64_t SeededDraws::index(uint64_t count)
{
	if (count <= 1)
		return 0;
	// Reject the lowest 2^64 mod count values so every residue is equally likely.
	const uint64_t rejected_below = (0 - count) % count;
	uint64_t value = engine_();
	while (value < rejected_below)
		value = engine_();
	return value % count;
}

int64_t SeededDraws::integer(int64_t low, int64_t high)
{
	if (high <= low)
		return low;
	const uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) + 1;
	const uint64_t offset = span == 0 ? engine_() : index(span); // span 0: the full 64 bits
	return static_cast<int64_t>(static_cast<uint64_t>(low) + offset);
}

double SeededDraws::real()
{
	return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

ZipfTable::ZipfTable(uint32_t ranks, double exponent)
{
	cumulative_.resize(std::max<uint32_t>(ranks, 1));
	double total = 0;
	for (size_t rank = 1; rank <= cumulative_.size(); rank++) {
		total += std::pow(static_cast<double>(rank), -exponent);
		cumulative_[rank - 1] = total;
	}
	for (double &value : cumulative_)
		value /= total;
	cumulative_.back() = 1.0;
}

uint32_t ZipfTable::draw(SeededDraws &draws) const
{
	const double u = draws.real();
	const auto found = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
	const size_t rank_index = static_cast<size_t>(found - cumulative_.begin());
	return static_cast<uint32_t>(std::min(rank_index, cumulative_.size() - 1));
}

double ZipfTable::probability(uint32_t rank_index) const
{
	if (rank_index >= cumulative_.size())
		return 0;
	return cumulative_[rank_index] - (rank_index == 0 ? 0.0 : cumulative_[rank_index - 1]);
}

} // namespace campaign::sim
