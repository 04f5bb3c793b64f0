// Seeded draws for the synthetic generators: std::mt19937_64 (its output is fixed by the standard)
// mapped to integers, reals and Zipf ranks by our own arithmetic, so the same seed gives the same
// workload with any standard library. No workload or policy logic here.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace campaign::sim
{

class SeededDraws
{
public:
	explicit SeededDraws(uint64_t seed) : engine_(seed) {}
	// Uniform integer in [low, high] (inclusive; high >= low), without modulo bias.
	int64_t integer(int64_t low, int64_t high);
	// Uniform real in [0, 1), 53 random bits.
	double real();
	// True with probability `probability` (<= 0: never; >= 1: always).
	bool chance(double probability) { return real() < probability; }
	// Uniform index in [0, count) (count >= 1).
	uint64_t index(uint64_t count);

private:
	std::mt19937_64 engine_;
};

// Zipf over ranks 1..k: P(rank r) = r^-exponent / sum_i i^-exponent. draw() returns rank - 1.
class ZipfTable
{
public:
	ZipfTable(uint32_t ranks, double exponent);
	uint32_t draw(SeededDraws &draws) const;
	double probability(uint32_t rank_index) const; // of rank rank_index + 1
	uint32_t ranks() const { return static_cast<uint32_t>(cumulative_.size()); }

private:
	std::vector<double> cumulative_; // cumulative_[i] = P(rank <= i + 1); the last is 1
};

} // namespace campaign::sim
