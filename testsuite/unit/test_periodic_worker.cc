// PeriodicWorker, each plugin's thread: a pass every period, one at once when woken, one at a
// wake_at time before the next period (priority/campaign's begin-time wake), the earliest of
// several wake_at times kept; a pass that throws is reported and the thread goes on; stop joins.
// Times are wide apart (a 30 s period against waits of at most 5 s) so a loaded machine cannot
// turn one case into another.
#include "check_main.h"
#include "runtime/periodic_worker.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

using campaign::PeriodicWorker;
using std::chrono::milliseconds;
using std::chrono::seconds;
using std::chrono::steady_clock;

namespace
{

constexpr milliseconds kLongPeriod{30000};
constexpr seconds kPatience{5}; // how long a pass that should come may take to come

// Counts passes and lets the test wait for the n-th.
class PassCounter
{
public:
	void pass()
	{
		std::lock_guard<std::mutex> hold(mutex_);
		++count_;
		last_ = steady_clock::now();
		changed_.notify_all();
	}
	bool wait_for(int count, steady_clock::duration patience)
	{
		std::unique_lock<std::mutex> hold(mutex_);
		return changed_.wait_for(hold, patience, [&] { return count_ >= count; });
	}
	int count()
	{
		std::lock_guard<std::mutex> hold(mutex_);
		return count_;
	}
	steady_clock::time_point last()
	{
		std::lock_guard<std::mutex> hold(mutex_);
		return last_;
	}

private:
	std::mutex mutex_;
	std::condition_variable changed_;
	int count_ = 0;
	steady_clock::time_point last_{};
};

PeriodicWorker::FailureReport no_report()
{
	return [](const std::string &, const std::string &) {};
}

} // namespace

START_TEST(test_passes_every_period)
{
	PassCounter passes;
	PeriodicWorker worker;
	worker.start(
	    "test", milliseconds(20), [&] { passes.pass(); }, no_report());
	ck_assert(passes.wait_for(3, kPatience));
	worker.stop();
	ck_assert(!worker.running());
}
END_TEST

START_TEST(test_wake_runs_a_pass_now)
{
	PassCounter passes;
	PeriodicWorker worker;
	worker.start(
	    "test", kLongPeriod, [&] { passes.pass(); }, no_report());
	std::this_thread::sleep_for(milliseconds(50));
	ck_assert_int_eq(passes.count(), 0); // the first pass waits a period
	worker.wake();
	ck_assert(passes.wait_for(1, kPatience));
	worker.stop();
}
END_TEST

// wake_at before the next period runs a pass at that time, not before it.
START_TEST(test_wake_at_runs_a_pass_at_its_time)
{
	PassCounter passes;
	PeriodicWorker worker;
	worker.start(
	    "test", kLongPeriod, [&] { passes.pass(); }, no_report());
	const auto when = steady_clock::now() + milliseconds(300);
	worker.wake_at(when);
	ck_assert(passes.wait_for(1, kPatience));
	ck_assert(passes.last() >= when);
	// Any pass forgets the wake time: no second pass follows until the period.
	std::this_thread::sleep_for(milliseconds(400));
	ck_assert_int_eq(passes.count(), 1);
	worker.stop();
}
END_TEST

// Of two wake_at times the earlier counts, whichever came first; a later one does not put it
// off.
START_TEST(test_wake_at_keeps_the_earliest)
{
	PassCounter passes;
	PeriodicWorker worker;
	worker.start(
	    "test", kLongPeriod, [&] { passes.pass(); }, no_report());
	const auto soon = steady_clock::now() + milliseconds(200);
	worker.wake_at(steady_clock::now() + seconds(20));
	worker.wake_at(soon);
	worker.wake_at(steady_clock::now() + seconds(25));
	ck_assert(passes.wait_for(1, kPatience));
	ck_assert(passes.last() >= soon);
	ck_assert(passes.last() < soon + seconds(4));
	worker.stop();
}
END_TEST

// A wake_at past the next period is not waited for: the period's pass comes first.
START_TEST(test_wake_at_after_the_period_does_not_delay_it)
{
	PassCounter passes;
	PeriodicWorker worker;
	const auto started = steady_clock::now();
	worker.start(
	    "test", milliseconds(200), [&] { passes.pass(); }, no_report());
	worker.wake_at(started + seconds(60));
	ck_assert(passes.wait_for(1, kPatience));
	ck_assert(passes.last() < started + seconds(4));
	worker.stop();
}
END_TEST

START_TEST(test_a_pass_that_throws_is_reported_and_the_thread_goes_on)
{
	PassCounter passes;
	std::mutex mutex;
	std::vector<std::string> reports;
	PeriodicWorker worker;
	worker.start(
	    "thrower", milliseconds(20),
	    [&] {
		    passes.pass();
		    if (passes.count() == 1)
			    throw std::runtime_error("bad pass");
		    if (passes.count() == 2)
			    throw 42; // not a std::exception
	    },
	    [&](const std::string &name, const std::string &what) {
		    std::lock_guard<std::mutex> hold(mutex);
		    reports.push_back(name + ": " + what);
	    });
	ck_assert(passes.wait_for(4, kPatience)); // passes after the two that threw
	worker.stop();
	std::lock_guard<std::mutex> hold(mutex);
	ck_assert_uint_eq(reports.size(), 2);
	ck_assert_string_eq(reports[0], "thrower: bad pass");
	ck_assert_string_eq(reports[1], "thrower: unknown exception");
}
END_TEST

// stop() ends a worker waiting out a long period at once (fini must not hang), and twice is
// harmless.
START_TEST(test_stop_ends_the_wait_and_is_idempotent)
{
	PassCounter passes;
	PeriodicWorker worker;
	worker.start(
	    "test", kLongPeriod, [&] { passes.pass(); }, no_report());
	ck_assert(worker.running());
	const auto asked = steady_clock::now();
	worker.stop();
	ck_assert(steady_clock::now() - asked < kPatience);
	ck_assert(!worker.running());
	worker.stop();
	ck_assert_int_eq(passes.count(), 0);
}
END_TEST

int main()
{
	Suite *suite = suite_create("periodic_worker");
	TCase *cases = tcase_create("periodic_worker");
	tcase_set_timeout(cases, 60);
	tcase_add_test(cases, test_passes_every_period);
	tcase_add_test(cases, test_wake_runs_a_pass_now);
	tcase_add_test(cases, test_wake_at_runs_a_pass_at_its_time);
	tcase_add_test(cases, test_wake_at_keeps_the_earliest);
	tcase_add_test(cases, test_wake_at_after_the_period_does_not_delay_it);
	tcase_add_test(cases, test_a_pass_that_throws_is_reported_and_the_thread_goes_on);
	tcase_add_test(cases, test_stop_ends_the_wait_and_is_idempotent);
	suite_add_tcase(suite, cases);
	return run_suite(suite);
}
