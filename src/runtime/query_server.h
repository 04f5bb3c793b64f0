// A small bounded line server for scampaign requests: one thread, poll(), at most N clients,
// a size cap and a deadline per request. Transport only; the handler authenticates. No Slurm types.
#pragma once

#include "util/result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace campaign
{

struct QueryServerLimits {
	size_t max_request_bytes = 64 * 1024;
	size_t max_clients = 8;
	int timeout_ms = 5000;
};

// Gets one request line (without the newline) and returns one response line.
using QueryHandler = std::function<std::string(const std::string &request)>;

class QueryServer
{
public:
	~QueryServer() { stop(); }

	// Binds address:port (port 0 picks one) and starts the thread.
	Status start(const std::string &address, uint16_t port, QueryHandler handler,
	             QueryServerLimits limits = {});
	void stop(); // idempotent; joins the thread
	uint16_t port() const { return port_; }
	uint64_t requests_served() const { return served_; }
	uint64_t requests_refused() const { return refused_; }

private:
	using Clock = std::chrono::steady_clock;
	struct Client {
		int fd = -1;
		std::string input;
		Clock::time_point deadline;
	};
	void loop();
	bool serve(Client &client, short events, Clock::time_point now);
	void accept_clients(std::vector<Client> &clients);

	QueryHandler handler_;
	QueryServerLimits limits_;
	int listen_fd_ = -1;
	int wake_pipe_[2] = {-1, -1};
	uint16_t port_ = 0;
	std::thread thread_;
	std::atomic<uint64_t> served_{0};
	std::atomic<uint64_t> refused_{0};
};

// An IPv4 address in dotted form for a host: the address itself, or the first IPv4 address the
// resolver (/etc/hosts, DNS) gives for a name; the error names the host.
Result<std::string> resolve_ipv4(const std::string &host);

// One JSON error line, {"ok":false,"error":"..."}, with the message escaped.
std::string query_error_line(const std::string &message);

} // namespace campaign
