// QueryServer: non-blocking sockets, every fd O_CLOEXEC (slurmctld forks), SIGPIPE avoided
// with MSG_NOSIGNAL, every client bounded in bytes and time.
#include "runtime/query_server.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <jansson.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace campaign
{
namespace
{

// Best-effort write of the whole response before the deadline, then the caller closes.
void send_line(int fd, std::string line, std::chrono::steady_clock::time_point deadline)
{
	line += '\n';
	size_t done = 0;
	while (done < line.size() && std::chrono::steady_clock::now() < deadline) {
		ssize_t sent = send(fd, line.data() + done, line.size() - done, MSG_NOSIGNAL);
		if (sent > 0) {
			done += static_cast<size_t>(sent);
			continue;
		}
		if (sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return;
		pollfd out = {fd, POLLOUT, 0};
		poll(&out, 1, 100);
	}
}

Result<int> listen_on(const std::string &address, uint16_t port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return Error{std::string("socket: ") + std::strerror(errno)};
	int yes = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
	sockaddr_in where = {};
	where.sin_family = AF_INET;
	where.sin_port = htons(port);
	if (inet_pton(AF_INET, address.c_str(), &where.sin_addr) != 1) {
		close(fd);
		return Error{"query address '" + address + "' is not an IPv4 address"};
	}
	if (bind(fd, reinterpret_cast<sockaddr *>(&where), sizeof(where)) != 0 ||
	    listen(fd, 16) != 0) {
		Error problem{"cannot listen on " + address + ":" + std::to_string(port) + ": " +
		              std::strerror(errno)};
		close(fd);
		return problem;
	}
	return fd;
}

} // namespace

Result<std::string> resolve_ipv4(const std::string &host)
{
	in_addr literal = {};
	if (inet_pton(AF_INET, host.c_str(), &literal) == 1)
		return host;
	addrinfo hints = {};
	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	addrinfo *found = nullptr;
	const int failure =
	    host.empty() ? EAI_NONAME : getaddrinfo(host.c_str(), nullptr, &hints, &found);
	if (failure != 0 || !found)
		return Error{"host '" + host + "' has no IPv4 address: " + gai_strerror(failure)};
	char text[INET_ADDRSTRLEN] = {};
	inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in *>(found->ai_addr)->sin_addr, text,
	          sizeof(text));
	freeaddrinfo(found);
	return std::string(text);
}

std::string query_error_line(const std::string &message)
{
	json_t *reply = json_pack("{s:b, s:s}", "ok", 0, "error", message.c_str());
	char *text = json_dumps(reply, JSON_COMPACT);
	std::string line = text ? text : "{\"ok\":false}";
	free(text);
	json_decref(reply);
	return line;
}

Status QueryServer::start(const std::string &address, uint16_t port, QueryHandler handler,
                          QueryServerLimits limits)
{
	stop();
	auto fd = listen_on(address, port);
	if (!fd.ok())
		return Error{fd.error()};
	if (pipe2(wake_pipe_, O_CLOEXEC | O_NONBLOCK) != 0) {
		close(fd.value());
		return Error{std::string("pipe: ") + std::strerror(errno)};
	}
	listen_fd_ = fd.value();
	sockaddr_in bound = {};
	socklen_t length = sizeof(bound);
	getsockname(listen_fd_, reinterpret_cast<sockaddr *>(&bound), &length);
	port_ = ntohs(bound.sin_port);
	handler_ = std::move(handler);
	limits_ = limits;
	thread_ = std::thread([this] { loop(); });
	return ok_status();
}

void QueryServer::stop()
{
	if (thread_.joinable()) {
		char byte = 1;
		(void)!write(wake_pipe_[1], &byte, 1);
		thread_.join();
	}
	for (int *fd : {&listen_fd_, &wake_pipe_[0], &wake_pipe_[1]})
		if (*fd >= 0) {
			close(*fd);
			*fd = -1;
		}
}

// Reads what a client sent; answers once a full line is in. True when the client is finished.
bool QueryServer::serve(Client &client, short events, Clock::time_point now)
{
	if (now < client.deadline && (events & (POLLIN | POLLHUP | POLLERR))) {
		char buffer[4096];
		ssize_t got = recv(client.fd, buffer, sizeof(buffer), 0);
		if (got > 0)
			client.input.append(buffer, static_cast<size_t>(got));
		else if (got == 0 || (errno != EAGAIN && errno != EINTR))
			return true; // closed before sending a whole line
	}
	const auto reply_by = now + std::chrono::milliseconds(limits_.timeout_ms);
	const size_t newline = client.input.find('\n');
	if (newline != std::string::npos) {
		send_line(client.fd, handler_(client.input.substr(0, newline)), reply_by);
		served_++;
		return true;
	}
	std::string refusal;
	if (client.input.size() > limits_.max_request_bytes)
		refusal =
		    "request larger than " + std::to_string(limits_.max_request_bytes) + " bytes";
	else if (now >= client.deadline)
		refusal = "request timed out";
	if (refusal.empty())
		return false;
	send_line(client.fd, query_error_line(refusal), now + std::chrono::milliseconds(500));
	refused_++;
	return true;
}

void QueryServer::accept_clients(std::vector<Client> &clients)
{
	for (;;) {
		int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		if (clients.size() >= limits_.max_clients) {
			send_line(fd, query_error_line("too many clients, try again"),
			          Clock::now() + std::chrono::milliseconds(200));
			refused_++;
			close(fd);
			continue;
		}
		clients.push_back(
		    {fd, {}, Clock::now() + std::chrono::milliseconds(limits_.timeout_ms)});
	}
}

void QueryServer::loop()
{
	std::vector<Client> clients;
	for (;;) {
		std::vector<pollfd> watched = {{wake_pipe_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}};
		for (const Client &client : clients)
			watched.push_back({client.fd, POLLIN, 0});
		poll(watched.data(), watched.size(), 200);
		if (watched[0].revents)
			break;
		const auto now = Clock::now();
		std::vector<Client> still_open;
		for (size_t i = 0; i < clients.size(); i++) {
			if (serve(clients[i], watched[i + 2].revents, now))
				close(clients[i].fd);
			else
				still_open.push_back(std::move(clients[i]));
		}
		clients = std::move(still_open);
		if (watched[1].revents & POLLIN)
			accept_clients(clients);
	}
	for (Client &client : clients)
		close(client.fd);
}

} // namespace campaign
