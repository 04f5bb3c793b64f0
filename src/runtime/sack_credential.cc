// The SACK client: one connection per token, the request written whole, the reply read whole
// (a 4-byte length, then the token). Every fd O_CLOEXEC; SIGPIPE avoided (MSG_NOSIGNAL).
#include "runtime/sack_credential.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace campaign
{
namespace
{

// Slurm 24.11's SLURM_PROTOCOL_VERSION ((42 << 8) | 0). Neither 24.11's nor 26.05's SACK reads
// the version; it is sent because the header has the field.
constexpr uint16_t kSackProtocolVersion = (42 << 8) | 0;
constexpr int kReplyTimeoutMs = 10000;
constexpr uint32_t kMaxTokenBytes = 1 << 20;

void put16(std::string &out, uint16_t value)
{
	const uint16_t big = htons(value);
	out.append(reinterpret_cast<const char *>(&big), sizeof(big));
}

void put32(std::string &out, uint32_t value)
{
	const uint32_t big = htonl(value);
	out.append(reinterpret_cast<const char *>(&big), sizeof(big));
}

class Fd
{
public:
	explicit Fd(int fd) : fd_(fd) {}
	~Fd()
	{
		if (fd_ >= 0)
			close(fd_);
	}
	Fd(const Fd &) = delete;
	Fd &operator=(const Fd &) = delete;
	int get() const { return fd_; }

private:
	int fd_;
};

Result<int> connect_unix(const std::string &path)
{
	sockaddr_un where = {};
	where.sun_family = AF_UNIX;
	if (path.size() >= sizeof(where.sun_path))
		return Error{path + ": path too long for a unix socket"};
	std::memcpy(where.sun_path, path.c_str(), path.size() + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return Error{std::string("socket: ") + std::strerror(errno)};
	if (connect(fd, reinterpret_cast<sockaddr *>(&where), sizeof(where)) != 0) {
		const int problem = errno;
		close(fd);
		return Error{path + ": " + std::strerror(problem)};
	}
	return fd;
}

// Reads exactly `length` bytes within the deadline.
Status read_exactly(int fd, char *into, size_t length)
{
	size_t have = 0;
	while (have < length) {
		pollfd wait = {fd, POLLIN, 0};
		if (poll(&wait, 1, kReplyTimeoutMs) != 1)
			return Error{"no reply within " + std::to_string(kReplyTimeoutMs / 1000) +
			             " s"};
		const ssize_t got = recv(fd, into + have, length - have, 0);
		if (got == 0)
			return Error{"closed the connection without a token (see the daemon's log: "
			             "a wrong slurm.key, or no sack there)"};
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return Error{std::string("read: ") + std::strerror(errno)};
		}
		have += static_cast<size_t>(got);
	}
	return ok_status();
}

Result<std::string> token_from(int fd, const std::string &request)
{
	size_t sent = 0;
	while (sent < request.size()) {
		const ssize_t put =
		    send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
		if (put < 0) {
			if (errno == EINTR)
				continue;
			return Error{std::string("write: ") + std::strerror(errno)};
		}
		sent += static_cast<size_t>(put);
	}
	uint32_t big_length = 0;
	Status got = read_exactly(fd, reinterpret_cast<char *>(&big_length), sizeof(big_length));
	if (!got.ok())
		return Error{got.error()};
	const uint32_t length = ntohl(big_length);
	if (length == 0 || length > kMaxTokenBytes)
		return Error{"answered a token of " + std::to_string(length) + " bytes"};
	std::string token(length, '\0');
	got = read_exactly(fd, token.data(), length);
	if (!got.ok())
		return Error{got.error()};
	// Slurm's packstr counts the terminating NUL.
	while (!token.empty() && token.back() == '\0')
		token.pop_back();
	if (token.empty())
		return Error{"answered an empty token"};
	return token;
}

} // namespace

std::vector<std::string> sack_socket_candidates(const std::string &sack_socket_env,
                                                const std::string &cluster_name)
{
	if (!sack_socket_env.empty())
		return {sack_socket_env};
	std::vector<std::string> sockets;
	if (!cluster_name.empty())
		sockets.push_back("/run/slurm-" + cluster_name + "/sack.socket");
	for (const char *daemon : {"slurm", "slurmctld", "slurmdbd"})
		sockets.push_back(std::string("/run/") + daemon + "/sack.socket");
	return sockets;
}

std::string sack_create_request(const std::string &payload, uid_t restrict_uid)
{
	std::string body;
	put32(body, kSackCreate);
	put32(body, static_cast<uint32_t>(restrict_uid));
	put32(body, static_cast<uint32_t>(payload.size())); // packmem: length, then the bytes
	body += payload;
	std::string request;
	put16(request, kSackProtocolVersion);
	// The length counts itself and what follows, not the version (sack_api.c).
	put32(request, static_cast<uint32_t>(body.size() + sizeof(uint32_t)));
	return request + body;
}

Result<std::string> sack_create_token(const std::string &payload, uid_t restrict_uid,
                                      const std::vector<std::string> &sockets)
{
	std::string tried;
	for (const std::string &path : sockets) {
		auto connected = connect_unix(path);
		if (!connected.ok()) {
			tried += (tried.empty() ? "" : "; ") + connected.error();
			continue;
		}
		Fd fd(connected.value());
		auto token = token_from(fd.get(), sack_create_request(payload, restrict_uid));
		if (!token.ok())
			return Error{"auth/slurm: SACK at " + path + ": " + token.error()};
		return token;
	}
	return Error{"auth/slurm: no SACK socket answers (slurmd or sackd runs one on each node; "
	             "SLURM_SACK_SOCKET names another): " +
	             tried};
}

} // namespace campaign
