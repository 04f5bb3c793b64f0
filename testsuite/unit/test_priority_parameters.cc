// PriorityParameters split in two: the core's keys (what the policy means, the core's identity)
// and the plugin's own (calc_period, shadow, the scampaign channel), which keep the state.
#include "core_random.h"
#include "runtime/priority_plugin_parameters.h"
#include "state/core_state_json.h"

using namespace campaign_test;

namespace
{

ParameterValues parsed(const std::string &text)
{
	auto values = priority_parameter_schema().parse(text);
	ck_assert_msg(values.ok(), "%s", values.ok() ? "" : values.error().c_str());
	return std::move(values).value();
}

CampaignCore core_of(const std::string &text)
{
	auto core = CampaignCore::create(parsed(text));
	ck_assert_msg(core.ok(), "%s", core.ok() ? "" : core.error().c_str());
	return std::move(core).value();
}

// The schema refuses text, with an error naming key.
void expect_refused(const std::string &text, const std::string &key)
{
	auto refused = priority_parameter_schema().parse(text);
	ck_assert_msg(!refused.ok(), "%s was accepted", text.c_str());
	ck_assert_msg(refused.error().find(key) != std::string::npos, "%s",
	              refused.error().c_str());
}

// What the first release wrote as a state's "parameters": every key, plugin keys included.
std::string first_release_text(const std::string &core_text, const std::string &plugin_text)
{
	std::map<std::string, std::string> keys;
	for (const std::string &text : {core_text, plugin_text}) {
		std::stringstream items(text);
		std::string item;
		while (std::getline(items, item, ','))
			keys[item.substr(0, item.find('='))] = item.substr(item.find('=') + 1);
	}
	std::string out;
	for (const auto &[key, value] : keys)
		out += (out.empty() ? "" : ",") + key + "=" + value;
	return out;
}

} // namespace

// Issue 13: changing calc_period, the channel or shadow (the trial workflow) must not rebuild
// the campaign state: the plugin compares core_identity() and the state's config text.
START_TEST(test_plugin_keys_are_not_part_of_core_identity)
{
	const std::string plain = "policy=ostrich";
	const std::string tuned =
	    "policy=ostrich,calc_period=60,shadow=yes,query_port=0,query_address=10.0.0.1";
	const std::string tuned_identity = core_identity(parsed(tuned));
	ck_assert_string_eq(core_identity(parsed(plain)), tuned_identity.c_str());
	const CampaignCore tuned_core = core_of(tuned);
	ck_assert_string_eq(core_of(plain).config().text, tuned_core.config().text.c_str());
	for (const char *key : {"calc_period", "shadow", "query_port", "query_address"})
		ck_assert_msg(tuned_core.config().text.find(key) == std::string::npos,
		              "%s in the core's identity", key);
	ck_assert(core_identity(parsed(plain)) != core_identity(parsed("policy=faircamp")));
	ck_assert(core_identity(parsed(plain)) != core_identity(parsed("limit_cap_s=3600")));
}
END_TEST

// priority/campaign reads its PriorityParameters through the same schema as campsim: the fair
// guard's keys reach the core beside plugin keys, count in its identity, and a bad value is
// refused naming the key.
START_TEST(test_plugin_reads_the_fair_guard_keys)
{
	const CampaignCore core = core_of(
	    "calc_period=60,starve_fair_factor=30,starve_fair_floor_s=60,starve_fair_width=0.1");
	ck_assert(core.config().starve_fair_factor == 30);
	ck_assert_int_eq(core.config().starve_fair_floor_s, 60);
	ck_assert(core.config().starve_fair_width == 0.1);
	ck_assert(core_identity(parsed("starve_fair_factor=30")) !=
	          core_identity(parsed("policy=ostrich")));
	expect_refused("calc_period=60,starve_fair_width=2", "starve_fair_width");
}
END_TEST

// The stretch guard's keys likewise.
START_TEST(test_plugin_reads_the_stretch_guard_keys)
{
	const CampaignCore core =
	    core_of("calc_period=60,starve_stretch=10,starve_stretch_scale=queue_median");
	ck_assert(core.config().starve_stretch == 10);
	ck_assert(core.config().starve_stretch_of_median);
	ck_assert(core_identity(parsed("starve_stretch=10")) !=
	          core_identity(parsed("policy=ostrich")));
	expect_refused("calc_period=60,starve_stretch_scale=mean", "starve_stretch_scale");
}
END_TEST

// The recent-runs prediction's floor and threshold likewise; a floor of 0 is refused (a job
// would count no work), a threshold of 0 or above 1 too.
START_TEST(test_plugin_reads_the_work_estimate_floor)
{
	const CampaignCore core =
	    core_of("calc_period=60,work_estimate=recent,work_estimate_floor_s=10");
	ck_assert_int_eq(core.config().work_estimate_floor_s, 10);
	ck_assert_int_eq(core_of("calc_period=60").config().work_estimate_floor_s, 60);
	ck_assert(core_identity(parsed("work_estimate_floor_s=10")) !=
	          core_identity(parsed("policy=ostrich")));
	expect_refused("calc_period=60,work_estimate_floor_s=0", "work_estimate_floor_s");
	ck_assert(core_of("calc_period=60,work_estimate_below=0.1").config().work_estimate_below ==
	          0.1);
	expect_refused("calc_period=60,work_estimate_below=0", "work_estimate_below");
	expect_refused("calc_period=60,work_estimate_below=1.5", "work_estimate_below");
}
END_TEST

// Where a campaign queued in V behind its unit's earlier one ranks: last by default.
START_TEST(test_plugin_reads_queued_campaigns)
{
	ck_assert(core_of("calc_period=60").config().queued_last);
	ck_assert(!core_of("calc_period=60,queued_campaigns=by_completion").config().queued_last);
	ck_assert(core_identity(parsed("queued_campaigns=by_completion")) !=
	          core_identity(parsed("policy=ostrich")));
	expect_refused("calc_period=60,queued_campaigns=first", "queued_campaigns");
}
END_TEST

START_TEST(test_core_rejects_plugin_keys_alone)
{
	ck_assert(!CampaignCore::create("calc_period=5").ok()); // the core's schema: core keys
	auto plugin_only = plugin_parameter_schema().parse("shadow=yes");
	ck_assert(plugin_only.ok());
	auto config = core_config_from(plugin_only.value());
	ck_assert(!config.ok());
	ck_assert_msg(config.error().find("policy") != std::string::npos, "%s",
	              config.error().c_str());
}
END_TEST

// A state file saved by the first release (its parameters include calc_period, query_*, shadow)
// restores under today's parameters, whatever their plugin keys, and ranks the same.
START_TEST(test_state_of_first_release_restores_with_other_plugin_keys)
{
	std::mt19937_64 random(13);
	CampaignCore saved = core_of("policy=ostrich,calc_period=5");
	uint32_t next_job_id = 1;
	const int64_t now_s = random_events(saved, random, 200, 0, next_job_id);
	std::string json = CoreStateCodec::save(saved);
	const std::string core_text = saved.config().text;
	const std::string old_text = first_release_text(
	    core_text, "calc_period=5,query_address=127.0.0.1,query_port=6830,shadow=yes");
	const std::string field = "\"parameters\":\"" + core_text + "\"";
	const size_t at = json.find(field);
	ck_assert_msg(at != std::string::npos, "no parameters field in the state");
	json.replace(at, field.size(), "\"parameters\":\"" + old_text + "\"");

	auto loaded = CoreStateCodec::load(json);
	ck_assert_msg(loaded.ok(), "%s", loaded.ok() ? "" : loaded.error().c_str());
	const CampaignCore now = core_of("policy=ostrich,calc_period=1,shadow=no,query_port=0");
	ck_assert_string_eq(loaded.value().config().text, now.config().text.c_str());
	ck_assert(loaded.value().rank(now_s).order == saved.rank(now_s).order);
}
END_TEST

START_TEST(test_saved_core_parameters_drops_plugin_keys_only)
{
	ck_assert_string_eq(
	    saved_core_parameters("calc_period=5,domain=cluster,query_address=1.2.3."
	                          "4,query_port=0,shadow=yes,unit=account"),
	    "domain=cluster,unit=account");
	ck_assert_string_eq(saved_core_parameters("policy=fifo"), "policy=fifo");
	ck_assert_string_eq(saved_core_parameters(""), "");
}
END_TEST

// scampaign and the plugin read the channel through this one schema; query_port=0 is off.
START_TEST(test_channel_settings_read_through_the_schema)
{
	auto defaults = channel_settings_of("policy=faircamp");
	ck_assert(defaults.ok());
	ck_assert_string_eq(defaults.value().address, "127.0.0.1");
	ck_assert_int_eq(defaults.value().port, 6830);
	ck_assert(!defaults.value().off());

	auto off = channel_settings_of("query_port=0");
	ck_assert(off.ok());
	ck_assert(off.value().off());

	auto set = channel_settings_of("query_address=10.1.2.3,query_port=7001");
	ck_assert(set.ok());
	ck_assert_string_eq(set.value().address, "10.1.2.3");
	ck_assert_int_eq(set.value().port, 7001);

	auto bad = channel_settings_of("query_port=99999");
	ck_assert(!bad.ok());
	ck_assert_msg(bad.error().find("query_port") != std::string::npos, "%s",
	              bad.error().c_str());
	ck_assert(!set.value().per_controller());
	ck_assert(!defaults.value().per_controller());
}
END_TEST

// query_address=controller (backup controllers): each slurmctld its own SlurmctldHost address,
// which scampaign reads from the lines as Slurm does: "name(addr)" is addr, "name" the name.
START_TEST(test_channel_per_controller_and_slurmctld_host_addresses)
{
	auto each = channel_settings_of("query_address=controller,query_port=7001");
	ck_assert(each.ok());
	ck_assert(each.value().per_controller());
	ck_assert_string_eq(slurmctld_host_address("ctl1(10.0.0.5)"), "10.0.0.5");
	ck_assert_string_eq(slurmctld_host_address("vm-backup(127.0.0.2)"), "127.0.0.2");
	ck_assert_string_eq(slurmctld_host_address("ctl2"), "ctl2");
	ck_assert_string_eq(slurmctld_host_address("ctl3()"), "ctl3");
}
END_TEST

int main()
{
	Suite *suite = suite_create("priority_parameters");
	TCase *tc = tcase_create("keys");
	tcase_add_test(tc, test_plugin_keys_are_not_part_of_core_identity);
	tcase_add_test(tc, test_channel_per_controller_and_slurmctld_host_addresses);
	tcase_add_test(tc, test_plugin_reads_queued_campaigns);
	tcase_add_test(tc, test_core_rejects_plugin_keys_alone);
	tcase_add_test(tc, test_plugin_reads_the_fair_guard_keys);
	tcase_add_test(tc, test_plugin_reads_the_stretch_guard_keys);
	tcase_add_test(tc, test_plugin_reads_the_work_estimate_floor);
	tcase_add_test(tc, test_state_of_first_release_restores_with_other_plugin_keys);
	tcase_add_test(tc, test_saved_core_parameters_drops_plugin_keys_only);
	tcase_add_test(tc, test_channel_settings_read_through_the_schema);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
