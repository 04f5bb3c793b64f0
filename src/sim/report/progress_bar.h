// A progress bar for long runs: one line on stderr redrawn with \r, only when stderr is a
// terminal (or when forced), at most 10 redraws a second. No simulation logic.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace campaign::sim
{

class ProgressBar
{
public:
	// `stream` defaults to stderr; drawing happens when force or the stream is a TTY.
	ProgressBar(std::string label, uint64_t total, bool force = false,
	            std::FILE *stream = stderr);
	~ProgressBar(); // finish()es if still open
	ProgressBar(const ProgressBar &) = delete;
	ProgressBar &operator=(const ProgressBar &) = delete;

	// `done` of `total`; redrawn if 100 ms passed since the last redraw (the first is drawn).
	void update(uint64_t done);
	// Draws the final state and ends the line (once).
	void finish();

	bool enabled() const { return enabled_; }
	uint64_t redraws() const { return redraws_; }
	// The line as drawn now (without \r), for tests.
	std::string line(uint64_t done) const;

private:
	using Clock = std::chrono::steady_clock;
	void draw(uint64_t done);

	std::string label_;
	uint64_t total_;
	std::FILE *stream_;
	bool enabled_;
	bool finished_ = false;
	uint64_t done_ = 0;
	uint64_t redraws_ = 0;
	Clock::time_point started_;
	Clock::time_point last_draw_;
};

} // namespace campaign::sim
