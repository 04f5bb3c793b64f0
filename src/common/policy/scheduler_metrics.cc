// SchedulerMetricsWindow and the JSON form of SchedulerMetrics (jansson).
#include "policy/scheduler_metrics.h"

#include <algorithm>
#include <jansson.h>
#include <memory>

namespace campaign
{
namespace
{

using Json = std::unique_ptr<json_t, decltype(&json_decref)>;

void add_counts(ReasonCounts &into, const ReasonCounts &counts)
{
	for (const auto &[reason, count] : counts)
		into[reason] += count;
}

void subtract_counts(ReasonCounts &from, const ReasonCounts &counts)
{
	for (const auto &[reason, count] : counts) {
		auto found = from.find(reason);
		if (found == from.end())
			continue;
		found->second -= std::min(found->second, count);
		if (found->second == 0)
			from.erase(found);
	}
}

json_t *counts_to_json(const ReasonCounts &counts)
{
	json_t *object = json_object();
	for (const auto &[reason, count] : counts)
		json_object_set_new(object, reason.c_str(),
		                    json_integer(static_cast<json_int_t>(count)));
	return object;
}

Result<ReasonCounts> counts_from_json(json_t *root, const char *key)
{
	json_t *object = json_object_get(root, key);
	if (!json_is_object(object))
		return Error{std::string("scheduler metrics: '") + key + "' is not an object"};
	ReasonCounts counts;
	const char *reason;
	json_t *value;
	json_object_foreach(object, reason, value)
	{
		if (!json_is_integer(value) || json_integer_value(value) < 0)
			return Error{std::string("scheduler metrics: '") + key + "' of '" + reason +
			             "' is not a count"};
		counts[reason] = static_cast<uint64_t>(json_integer_value(value));
	}
	return counts;
}

constexpr const char *kNumbers[] = {"passes",       "jobs_started",      "last_pass_us",
                                    "max_pass_us",  "last_queue_length", "last_planned",
                                    "window_passes"};

} // namespace

void SchedulerMetricsWindow::add(const PassCounts &pass)
{
	metrics_.passes++;
	metrics_.jobs_started += pass.started;
	metrics_.last_pass_us = pass.took_us;
	metrics_.max_pass_us = std::max(metrics_.max_pass_us, pass.took_us);
	metrics_.last_queue_length = pass.queue_length;
	metrics_.last_planned = pass.started + pass.reserved;
	add_counts(metrics_.refused_total, pass.refused);
	add_counts(metrics_.refused_recent, pass.refused);
	add_counts(metrics_.left_out_recent, pass.left_out);
	metrics_.left_out_last = pass.left_out;
	recent_.push_back(pass);
	if (recent_.size() > window_) {
		subtract_counts(metrics_.refused_recent, recent_.front().refused);
		subtract_counts(metrics_.left_out_recent, recent_.front().left_out);
		recent_.pop_front();
	}
	metrics_.window_passes = static_cast<uint32_t>(recent_.size());
}

std::string scheduler_metrics_to_json(const SchedulerMetrics &metrics)
{
	Json root(json_object(), &json_decref);
	const uint64_t numbers[] = {
	    metrics.passes,       metrics.jobs_started,      metrics.last_pass_us,
	    metrics.max_pass_us,  metrics.last_queue_length, metrics.last_planned,
	    metrics.window_passes};
	for (size_t i = 0; i < std::size(kNumbers); i++)
		json_object_set_new(root.get(), kNumbers[i],
		                    json_integer(static_cast<json_int_t>(numbers[i])));
	json_object_set_new(root.get(), "refused_total", counts_to_json(metrics.refused_total));
	json_object_set_new(root.get(), "refused_recent", counts_to_json(metrics.refused_recent));
	json_object_set_new(root.get(), "left_out_last", counts_to_json(metrics.left_out_last));
	json_object_set_new(root.get(), "left_out_recent", counts_to_json(metrics.left_out_recent));
	char *text = json_dumps(root.get(), JSON_COMPACT);
	std::string out = text ? text : "";
	free(text);
	return out;
}

Result<SchedulerMetrics> scheduler_metrics_from_json(const std::string &text)
{
	json_error_t problem;
	Json root(json_loads(text.c_str(), 0, &problem), &json_decref);
	if (!root)
		return Error{std::string("scheduler metrics are not JSON: ") + problem.text};
	SchedulerMetrics metrics;
	uint64_t *numbers[] = {
	    &metrics.passes,      &metrics.jobs_started,      &metrics.last_pass_us,
	    &metrics.max_pass_us, &metrics.last_queue_length, &metrics.last_planned};
	for (size_t i = 0; i < std::size(kNumbers); i++) {
		json_t *value = json_object_get(root.get(), kNumbers[i]);
		if (!json_is_integer(value) || json_integer_value(value) < 0)
			return Error{std::string("scheduler metrics: '") + kNumbers[i] +
			             "' is not a count"};
		const auto number = static_cast<uint64_t>(json_integer_value(value));
		if (i < std::size(numbers))
			*numbers[i] = number;
		else
			metrics.window_passes = static_cast<uint32_t>(number);
	}
	struct Section {
		const char *key;
		ReasonCounts *counts;
	};
	for (const Section &section : {Section{"refused_total", &metrics.refused_total},
	                               Section{"refused_recent", &metrics.refused_recent},
	                               Section{"left_out_last", &metrics.left_out_last},
	                               Section{"left_out_recent", &metrics.left_out_recent}}) {
		auto counts = counts_from_json(root.get(), section.key);
		if (!counts.ok())
			return Error{counts.error()};
		*section.counts = std::move(counts).value();
	}
	return metrics;
}

} // namespace campaign
