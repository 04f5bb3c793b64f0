// The auth/slurm client of scampaign: SACK's request bytes, the sockets tried and their order, a
// token read from a SACK-like server, and the errors when none answers or one answers badly.
#include "check_main.h"
#include "runtime/sack_credential.h"

#include <arpa/inet.h>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

using namespace campaign;

namespace
{

std::string temp_dir()
{
	char pattern[] = "/tmp/test_sack_XXXXXX";
	const char *made = mkdtemp(pattern);
	ck_assert_ptr_nonnull(made);
	return made;
}

int listen_unix(const std::string &path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	sockaddr_un where = {};
	where.sun_family = AF_UNIX;
	std::strcpy(where.sun_path, path.c_str());
	ck_assert_int_eq(bind(fd, reinterpret_cast<sockaddr *>(&where), sizeof(where)), 0);
	ck_assert_int_eq(listen(fd, 4), 0);
	return fd;
}

uint32_t read32(const std::string &bytes, size_t at)
{
	uint32_t big;
	std::memcpy(&big, bytes.data() + at, sizeof(big));
	return ntohl(big);
}

// One connection: reads a whole SACK request into `request`, then writes `reply` and closes.
std::thread serve_once(int listener, std::string *request, std::string reply)
{
	return std::thread([listener, request, reply]() {
		int fd = accept(listener, nullptr, nullptr);
		char buffer[4096];
		while (request->size() < 6 || request->size() < 2 + read32(*request, 2)) {
			const ssize_t got = recv(fd, buffer, sizeof(buffer), 0);
			if (got <= 0)
				break;
			request->append(buffer, static_cast<size_t>(got));
		}
		(void)!write(fd, reply.data(), reply.size());
		close(fd);
	});
}

std::string packstr(const std::string &text)
{
	const uint32_t big = htonl(static_cast<uint32_t>(text.size() + 1));
	return std::string(reinterpret_cast<const char *>(&big), 4) + text + std::string(1, '\0');
}

} // namespace

START_TEST(test_request_is_sacks_create_rpc)
{
	const std::string request = sack_create_request("{\"op\":1}", 64030);
	// version 2 + length 4 + rpc 4 + r_uid 4 + payload length 4 + 8 payload bytes
	ck_assert_uint_eq(request.size(), 26);
	ck_assert_uint_eq(read32(request, 2), 24); // counts itself, not the version
	ck_assert_uint_eq(read32(request, 6), 64001);
	ck_assert_uint_eq(read32(request, 10), 64030);
	ck_assert_uint_eq(read32(request, 14), 8);
	ck_assert_string_eq(request.substr(18), "{\"op\":1}");
}
END_TEST

START_TEST(test_sockets_in_slurms_order)
{
	const auto named = sack_socket_candidates("", "campaigntest");
	ck_assert_uint_eq(named.size(), 4);
	ck_assert_string_eq(named[0], "/run/slurm-campaigntest/sack.socket");
	ck_assert_string_eq(named[1], "/run/slurm/sack.socket");
	ck_assert_string_eq(named[2], "/run/slurmctld/sack.socket");
	ck_assert_string_eq(named[3], "/run/slurmdbd/sack.socket");
	ck_assert_uint_eq(sack_socket_candidates("", "").size(), 3);
	const auto chosen = sack_socket_candidates("/x/sack.socket", "campaigntest");
	ck_assert_uint_eq(chosen.size(), 1);
	ck_assert_string_eq(chosen[0], "/x/sack.socket");
}
END_TEST

START_TEST(test_token_from_the_first_socket_that_answers)
{
	const std::string dir = temp_dir();
	const int listener = listen_unix(dir + "/sack.socket");
	std::string request;
	std::thread server = serve_once(listener, &request, packstr("eyJh.eyJi.c2ln"));
	auto token =
	    sack_create_token("payload", 0, {dir + "/absent.socket", dir + "/sack.socket"});
	server.join();
	close(listener);
	ck_assert_msg(token.ok(), "%s", token.ok() ? "" : token.error().c_str());
	ck_assert_string_eq(token.value(), "eyJh.eyJi.c2ln");
	ck_assert(request == sack_create_request("payload", 0));
	unlink((dir + "/sack.socket").c_str());
	rmdir(dir.c_str());
}
END_TEST

START_TEST(test_no_socket_names_every_path_tried)
{
	auto token =
	    sack_create_token("payload", 0, {"/nonexistent/a.socket", "/nonexistent/b.socket"});
	ck_assert(!token.ok());
	ck_assert_msg(token.error().find("no SACK socket answers") != std::string::npos, "%s",
	              token.error().c_str());
	ck_assert(token.error().find("/nonexistent/a.socket") != std::string::npos);
	ck_assert(token.error().find("/nonexistent/b.socket") != std::string::npos);
}
END_TEST

START_TEST(test_a_sack_that_refuses_is_named)
{
	const std::string dir = temp_dir();
	const int listener = listen_unix(dir + "/sack.socket");
	std::string request;
	std::thread server = serve_once(listener, &request, ""); // closes: Slurm's refusal
	auto token = sack_create_token("payload", 0, {dir + "/sack.socket"});
	server.join();
	close(listener);
	ck_assert(!token.ok());
	ck_assert_msg(token.error().find(dir + "/sack.socket") != std::string::npos &&
	                  token.error().find("without a token") != std::string::npos,
	              "%s", token.error().c_str());
	unlink((dir + "/sack.socket").c_str());
	rmdir(dir.c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("sack_credential");
	TCase *tc = tcase_create("sack");
	tcase_add_test(tc, test_request_is_sacks_create_rpc);
	tcase_add_test(tc, test_sockets_in_slurms_order);
	tcase_add_test(tc, test_token_from_the_first_socket_that_answers);
	tcase_add_test(tc, test_no_socket_names_every_path_tried);
	tcase_add_test(tc, test_a_sack_that_refuses_is_named);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
