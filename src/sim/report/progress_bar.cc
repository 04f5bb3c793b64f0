// A progress bar for long runs: one line on stderr redrawn with \r, only when stderr is a
// terminal (or when forced), at most 10 redraws a second. No simulation logic.
#include "report/progress_bar.h"

#include <algorithm>
#include <unistd.h>

namespace campaign::sim
{
namespace
{

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr size_t kBarWidth = 30;

} // namespace

ProgressBar::ProgressBar(std::string label, uint64_t total, bool force, std::FILE *stream)
    : label_(std::move(label)), total_(total), stream_(stream),
      enabled_(stream != nullptr && (force || isatty(fileno(stream)) == 1)), started_(Clock::now())
{
}

ProgressBar::~ProgressBar()
{
	finish();
}

std::string ProgressBar::line(uint64_t done) const
{
	const double fraction =
	    total_ == 0 ? 1.0 : std::min(1.0, static_cast<double>(done) / total_);
	const size_t filled = static_cast<size_t>(fraction * kBarWidth);
	const double elapsed_s = std::chrono::duration<double>(Clock::now() - started_).count();
	char numbers[96];
	std::snprintf(numbers, sizeof numbers, "] %5.1f%% %llu/%llu %.1f s", fraction * 100,
	              static_cast<unsigned long long>(done),
	              static_cast<unsigned long long>(total_), elapsed_s);
	return label_ + " [" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') +
	       numbers;
}

void ProgressBar::draw(uint64_t done)
{
	const std::string text = line(done);
	std::fprintf(stream_, "\r%s", text.c_str());
	std::fflush(stream_);
	redraws_++;
	last_draw_ = Clock::now();
}

void ProgressBar::update(uint64_t done)
{
	done_ = done;
	if (!enabled_ || finished_)
		return;
	if (redraws_ != 0 && Clock::now() - last_draw_ < kRedrawInterval)
		return;
	draw(done);
}

void ProgressBar::finish()
{
	if (finished_)
		return;
	finished_ = true;
	if (!enabled_)
		return;
	draw(done_);
	std::fputc('\n', stream_);
	std::fflush(stream_);
}

} // namespace campaign::sim
