// scampaign: shows each user's campaigns as priority/campaign sees them (pending, running and
// done jobs, virtual start/finish or deadline, remaining work, stretch). Asks slurmctld's plugin
// over its channel, the request sealed in a credential of slurm.conf's AuthType (munge or
// auth/slurm); never reads the plugin's files.
#include "request_seal.h"
#include "slurm_conf_reader.h"

#include "policy/campaign_report.h"
#include "policy/openmetrics.h"
#include "runtime/priority_plugin_parameters.h"
#include "runtime/query_server.h"
#include "util/parameters.h"

#include <arpa/inet.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace campaign;

namespace
{

struct Options {
	std::string user;
	bool json = false;
	std::optional<ExpositionFormat> exposition; // --openmetrics, --prometheus
	std::string host;
	int port = 0;
};

void usage(FILE *out)
{
	std::fprintf(out,
	             "Usage: scampaign [-u USER] [--json | --openmetrics | --prometheus]\n"
	             "                 [--host ADDR] [--port PORT]\n"
	             "Shows campaigns as slurmctld's priority/campaign plugin ranks them, and\n"
	             "sched/campaign's refused starts and left-out jobs by reason.\n"
	             "  -u, --user USER  only this user's campaigns\n"
	             "  --json           print the plugin's JSON reply\n"
	             "  --openmetrics    print metrics in the OpenMetrics 1.0 text format\n"
	             "  --prometheus     the same in Prometheus text format 0.0.4 (for\n"
	             "                   node_exporter's textfile collector)\n"
	             "  --host, --port   the plugin's query channel (default: from slurm.conf's\n"
	             "                   PriorityParameters query_address/query_port; with\n"
	             "                   query_address=controller each SlurmctldHost in turn,\n"
	             "                   the first that answers)\n");
}

Result<Options> parse_options(int argc, char **argv)
{
	static const option longs[] = {
	    {"user", required_argument, nullptr, 'u'},  {"json", no_argument, nullptr, 'j'},
	    {"host", required_argument, nullptr, 'H'},  {"port", required_argument, nullptr, 'p'},
	    {"openmetrics", no_argument, nullptr, 'O'}, {"prometheus", no_argument, nullptr, 'P'},
	    {"help", no_argument, nullptr, 'h'},        {nullptr, 0, nullptr, 0}};
	Options options;
	int c;
	while ((c = getopt_long(argc, argv, "u:h", longs, nullptr)) != -1) {
		switch (c) {
		case 'u':
			options.user = optarg;
			break;
		case 'j':
			options.json = true;
			break;
		case 'O':
			options.exposition = ExpositionFormat::openmetrics;
			break;
		case 'P':
			options.exposition = ExpositionFormat::prometheus;
			break;
		case 'H':
			options.host = optarg;
			break;
		case 'p':
			options.port = std::atoi(optarg);
			break;
		case 'h':
			usage(stdout);
			std::exit(0);
		default:
			return Error{"bad option (see scampaign --help)"};
		}
	}
	if (optind < argc)
		return Error{std::string("unexpected argument '") + argv[optind] + "'"};
	if (options.json && options.exposition)
		return Error{"--json and --openmetrics/--prometheus exclude each other"};
	return options;
}

// Where to ask: the options, else slurm.conf's PriorityParameters read through the plugin's own
// schema (same keys, defaults and checks as priority/campaign; query_port=0: the channel is off).
Result<ChannelSettings> channel_of(const Options &options, const std::string &priority_params)
{
	auto configured = channel_settings_of(priority_params);
	if (!configured.ok() && options.port == 0)
		return Error{"slurm.conf: " + configured.error()};
	ChannelSettings channel =
	    configured.ok() ? configured.value() : ChannelSettings{"127.0.0.1"};
	if (!options.host.empty())
		channel.address = options.host;
	if (options.port != 0)
		channel.port = static_cast<uint16_t>(options.port);
	if (channel.off())
		return Error{
		    "the scampaign channel is off (PriorityParameters query_port=0); ask the "
		    "administrator, or give --port"};
	return channel;
}

// The addresses to try, in order: --host; with query_address=controller each SlurmctldHost
// (primary first, as Slurm's clients try them), since only the controller in charge runs the
// plugin; else query_address.
Result<std::vector<std::string>> targets_of(const Options &options, const ChannelSettings &channel,
                                            const std::vector<std::string> &controllers)
{
	if (!options.host.empty())
		return std::vector<std::string>{options.host};
	if (!channel.per_controller())
		return std::vector<std::string>{channel.address};
	if (controllers.empty())
		return Error{"PriorityParameters query_address=controller, but slurm.conf has no "
		             "SlurmctldHost line"};
	std::vector<std::string> targets;
	for (const std::string &controller : controllers)
		targets.push_back(slurmctld_host_address(controller));
	return targets;
}

constexpr int kConnectTimeoutMs = 5000;

// Connected: the reply, whatever it says. Not connected: an error, and the caller tries the
// next address.
Result<std::string> exchange(const std::string &host, int port, const std::string &line)
{
	auto address = resolve_ipv4(host);
	if (!address.ok())
		return Error{address.error()};
	sockaddr_in where = {};
	where.sin_family = AF_INET;
	where.sin_port = htons(static_cast<uint16_t>(port));
	inet_pton(AF_INET, address.value().c_str(), &where.sin_addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return Error{std::string("socket: ") + std::strerror(errno)};
	// A controller host that is down does not refuse, it stays silent: give up after
	// kConnectTimeoutMs and let the caller try the next SlurmctldHost.
	const int flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	int problem = 0;
	if (connect(fd, reinterpret_cast<sockaddr *>(&where), sizeof(where)) != 0) {
		problem = errno;
		if (problem == EINPROGRESS) {
			pollfd wait = {fd, POLLOUT, 0};
			socklen_t length = sizeof(problem);
			if (poll(&wait, 1, kConnectTimeoutMs) != 1)
				problem = ETIMEDOUT;
			else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length) != 0)
				problem = errno;
		}
	}
	if (problem != 0) {
		close(fd);
		return Error{host + ":" + std::to_string(port) + ": " + std::strerror(problem)};
	}
	fcntl(fd, F_SETFL, flags);
	const std::string request = line + "\n";
	(void)!send(fd, request.data(), request.size(), MSG_NOSIGNAL);
	std::string reply;
	char buffer[8192];
	ssize_t got;
	while ((got = recv(fd, buffer, sizeof(buffer), 0)) > 0)
		reply.append(buffer, static_cast<size_t>(got));
	close(fd);
	return reply;
}

std::string clock_time(std::optional<int64_t> when)
{
	if (!when)
		return "-";
	char text[32];
	const time_t t = static_cast<time_t>(*when);
	std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
	return text;
}

void print_table(const CampaignReport &report)
{
	std::printf("%-10s %-8s %8s %5s %5s %5s %-19s %-19s %-19s %12s %8s\n", "USER", "CAMPAIGN",
	            "DOMAIN", "PEND", "RUN", "DONE", "SUBMIT", "VSTART",
	            report.policy == "faircamp" ? "DEADLINE" : "VFINISH", "REMAIN_CPU_S",
	            "STRETCH");
	for (const CampaignRow &row : report.rows)
		std::printf(
		    "%-10s %-8llu %8s %5u %5u %5u %-19s %-19s %-19s %12.0f %8.2f\n",
		    row.user.c_str(), static_cast<unsigned long long>(row.campaign_id),
		    row.domain.c_str(), row.jobs_pending, row.jobs_running, row.jobs_done,
		    clock_time(row.submit_s).c_str(), clock_time(row.virtual_start_s).c_str(),
		    clock_time(report.policy == "faircamp" ? row.deadline_s : row.virtual_finish_s)
		        .c_str(),
		    row.remaining_work_cpu_s, row.stretch);
}

void print_reasons(const char *title, const ReasonCounts &counts)
{
	std::printf("%s:%s\n", title, counts.empty() ? " none" : "");
	for (const auto &[reason, count] : counts)
		std::printf("  %8llu  %s\n", static_cast<unsigned long long>(count),
		            reason.c_str());
}

// Below the table: what sched/campaign's passes refused and left out, by reason.
void print_scheduler(const std::optional<SchedulerMetrics> &scheduler)
{
	if (!scheduler) {
		std::printf("\nsched/campaign: no pass reported (not the scheduler, or not passed "
		            "yet)\n");
		return;
	}
	const SchedulerMetrics &metrics = *scheduler;
	std::printf("\nsched/campaign: %llu passes, last %.3f s (max %.3f s), %llu queued, %llu "
	            "planned, %llu started in total\n",
	            static_cast<unsigned long long>(metrics.passes), metrics.last_pass_us / 1e6,
	            metrics.max_pass_us / 1e6,
	            static_cast<unsigned long long>(metrics.last_queue_length),
	            static_cast<unsigned long long>(metrics.last_planned),
	            static_cast<unsigned long long>(metrics.jobs_started));
	const std::string recent =
	    "Starts refused, last " + std::to_string(metrics.window_passes) + " passes";
	print_reasons(recent.c_str(), metrics.refused_recent);
	print_reasons("Starts refused since start", metrics.refused_total);
	print_reasons("Jobs left out of the last plan", metrics.left_out_last);
}

int fail(const std::string &message)
{
	std::fprintf(stderr, "scampaign: %s\n", message.c_str());
	return 1;
}

} // namespace

int main(int argc, char **argv)
{
	auto options = parse_options(argc, argv);
	if (!options.ok())
		return fail(options.error());
	const char *conf_path = std::getenv("SLURM_CONF");
	auto conf = read_slurm_conf(conf_path ? conf_path : "/etc/slurm/slurm.conf");
	if (!conf.ok())
		return fail(conf.error());
	auto channel = channel_of(options.value(), conf.value().value("priorityparameters"));
	if (!channel.ok())
		return fail(channel.error());
	auto targets = targets_of(options.value(), channel.value(), conf.value().controllers);
	if (!targets.ok())
		return fail(targets.error());

	json_t *request = json_pack("{s:s}", "op", "campaigns");
	if (!options.value().user.empty())
		json_object_set_new(request, "user", json_string(options.value().user.c_str()));
	char *payload = json_dumps(request, JSON_COMPACT);
	json_decref(request);
	const char *sack_socket = std::getenv("SLURM_SACK_SOCKET");
	auto sealed = seal_request(payload, conf.value(), sack_socket ? sack_socket : "");
	free(payload);
	if (!sealed.ok())
		return fail(sealed.error());
	Result<std::string> reply = Error{"no address to try"};
	std::string unreachable;
	for (const std::string &target : targets.value()) {
		reply = exchange(target, channel.value().port, sealed.value());
		if (reply.ok())
			break;
		unreachable += (unreachable.empty() ? "" : "; ") + reply.error();
	}
	if (!reply.ok())
		return fail("cannot reach priority/campaign at " + unreachable);
	auto report = report_from_json(reply.value());
	if (!report.ok())
		return fail(report.error());
	if (options.value().json) {
		std::fputs(reply.value().c_str(), stdout);
	} else if (options.value().exposition) {
		std::fputs(exposition_text(report.value(), *options.value().exposition).c_str(),
		           stdout);
	} else {
		print_table(report.value());
		print_scheduler(report.value().scheduler);
	}
	return 0;
}
