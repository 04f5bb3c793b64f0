// CoreFeeder's memory as JSON: one row per tracked job and partition, every value range-checked
// on load so a bad file gives an error naming the row. No Slurm types.
#include "state/feeder_state_json.h"
#include "state/json_reader.h"

#include <jansson.h>
#include <limits>
#include <memory>

namespace campaign
{
namespace
{

constexpr int64_t kFeederStateVersion = 1;
constexpr int64_t kU32 = std::numeric_limits<uint32_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
using JsonPtr = std::unique_ptr<json_t, decltype(&json_decref)>;

json_t *optional_integer(const std::optional<int64_t> &value)
{
	return value ? json_integer(*value) : json_null();
}

} // namespace

struct FeederStateCodec::Rows {
	static json_t *job(uint32_t id, const CoreFeeder::Tracked &t)
	{
		return json_pack("[I,i,b,b,b,i,I,I,I,I,i,I,I]", (json_int_t)id, (int)t.told,
		                 t.eligible, t.held, t.admin_priority, (int)t.limit.kind,
		                 (json_int_t)t.limit.seconds, (json_int_t)t.cpus,
		                 (json_int_t)t.nodes, (json_int_t)t.array_tasks, (int)t.nice,
		                 (json_int_t)t.start_s, (json_int_t)t.gone_s);
	}

	static std::pair<uint32_t, CoreFeeder::Tracked> job(const JsonReader &in)
	{
		if (in.size() != 13)
			in.fail("expected 13 values");
		auto integer = [&](size_t i, int64_t min, int64_t max) {
			return in.item(i).integer(min, max);
		};
		CoreFeeder::Tracked t;
		const auto id = static_cast<uint32_t>(integer(0, 1, kU32));
		t.told = static_cast<CoreFeeder::Told>(integer(1, 0, 2));
		t.eligible = in.item(2).boolean();
		t.held = in.item(3).boolean();
		t.admin_priority = in.item(4).boolean();
		t.limit.kind = static_cast<TimeLimit::Kind>(integer(5, 0, 2));
		t.limit.seconds = integer(6, 0, kI64Max);
		t.cpus = static_cast<uint32_t>(integer(7, 1, kU32));
		t.nodes = static_cast<uint32_t>(integer(8, 1, kU32));
		t.array_tasks = static_cast<uint32_t>(integer(9, 1, kU32));
		t.nice = static_cast<int32_t>(integer(10, INT32_MIN, INT32_MAX));
		t.start_s = integer(11, kI64Min, kI64Max);
		t.gone_s = integer(12, kI64Min, kI64Max);
		return {id, t};
	}

	static std::string save(const CoreFeeder &feeder)
	{
		JsonPtr root(json_object(), json_decref);
		json_object_set_new(root.get(), "version", json_integer(kFeederStateVersion));
		json_t *jobs = json_array();
		for (const auto &[id, tracked] : feeder.tracked_)
			json_array_append_new(jobs, job(id, tracked));
		json_object_set_new(root.get(), "jobs", jobs);
		json_t *partitions = json_array();
		for (const auto &[name, p] : feeder.capacities_)
			json_array_append_new(
			    partitions, json_pack("[s,I,o,o]", name.c_str(), (json_int_t)p.cpus_up,
			                          optional_integer(p.max_time_s),
			                          optional_integer(p.default_time_s)));
		json_object_set_new(root.get(), "partitions", partitions);
		char *text = json_dumps(root.get(), JSON_COMPACT);
		std::string out = text ? text : "";
		free(text);
		return out;
	}

	static Result<CoreFeeder> load(const std::string &json)
	{
		json_error_t error;
		JsonPtr root(json_loadb(json.data(), json.size(), JSON_REJECT_DUPLICATES, &error),
		             json_decref);
		if (!root)
			return Error{"feeder: line " + std::to_string(error.line) + ": " +
			             error.text};
		try {
			const JsonReader in(root.get(), "feeder");
			const int64_t version = in.field("version").integer(kI64Min, kI64Max);
			if (version != kFeederStateVersion)
				in.field("version").fail("unsupported version " +
				                         std::to_string(version));
			CoreFeeder feeder;
			const JsonReader jobs = in.field("jobs");
			for (size_t i = 0; i < jobs.size(); i++)
				if (!feeder.tracked_.insert(job(jobs.item(i))).second)
					jobs.item(i).fail("duplicate job id");
			const JsonReader partitions = in.field("partitions");
			for (size_t i = 0; i < partitions.size(); i++) {
				const JsonReader row = partitions.item(i);
				if (row.size() != 4)
					row.fail("expected 4 values");
				PartitionCapacity p{
				    .partition = row.item(0).text(),
				    .cpus_up =
				        static_cast<uint64_t>(row.item(1).integer(0, kI64Max)),
				    .max_time_s = row.item(2).optional_integer(0, kI64Max),
				    .default_time_s = row.item(3).optional_integer(0, kI64Max)};
				feeder.capacities_[p.partition] = p;
			}
			return feeder;
		} catch (const JsonReadError &failure) {
			return Error{failure.what()};
		}
	}
};

std::string FeederStateCodec::save(const CoreFeeder &feeder)
{
	return Rows::save(feeder);
}

Result<CoreFeeder> FeederStateCodec::load(const std::string &json)
{
	return Rows::load(json);
}

} // namespace campaign
