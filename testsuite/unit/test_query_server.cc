// The scampaign transport: answers one line per connection, and bounds size, clients and time.
#include "check_main.h"
#include "runtime/query_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace campaign;

namespace
{

int connect_to(uint16_t port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	sockaddr_in where = {};
	where.sin_family = AF_INET;
	where.sin_port = htons(port);
	inet_pton(AF_INET, "127.0.0.1", &where.sin_addr);
	ck_assert_int_eq(connect(fd, reinterpret_cast<sockaddr *>(&where), sizeof(where)), 0);
	return fd;
}

std::string read_all(int fd)
{
	std::string out;
	char buffer[1024];
	ssize_t got;
	while ((got = recv(fd, buffer, sizeof(buffer), 0)) > 0)
		out.append(buffer, static_cast<size_t>(got));
	return out;
}

std::string ask(uint16_t port, const std::string &text)
{
	int fd = connect_to(port);
	send(fd, text.data(), text.size(), MSG_NOSIGNAL);
	std::string reply = read_all(fd);
	close(fd);
	return reply;
}

} // namespace

START_TEST(test_answers_one_line_per_connection)
{
	QueryServer server;
	ck_assert(
	    server.start("127.0.0.1", 0, [](const std::string &line) { return "echo:" + line; })
	        .ok());
	ck_assert_string_eq(ask(server.port(), "hello\n"), "echo:hello\n");
	ck_assert_string_eq(ask(server.port(), "a\nb\n"), "echo:a\n");
	ck_assert_uint_eq(server.requests_served(), 2);
}
END_TEST

START_TEST(test_oversized_request_is_refused)
{
	QueryServer server;
	QueryServerLimits limits;
	limits.max_request_bytes = 100;
	ck_assert(server
	              .start(
	                  "127.0.0.1", 0, [](const std::string &) { return "x"; }, limits)
	              .ok());
	std::string reply = ask(server.port(), std::string(5000, 'z'));
	ck_assert_msg(reply.find("\"ok\":false") != std::string::npos, "%s", reply.c_str());
	ck_assert_msg(reply.find("larger than 100 bytes") != std::string::npos, "%s",
	              reply.c_str());
	ck_assert_uint_eq(server.requests_refused(), 1);
}
END_TEST

START_TEST(test_silent_client_times_out_and_others_are_served)
{
	QueryServer server;
	QueryServerLimits limits;
	limits.timeout_ms = 300;
	ck_assert(server
	              .start(
	                  "127.0.0.1", 0, [](const std::string &) { return "ok"; }, limits)
	              .ok());
	int silent = connect_to(server.port());
	ck_assert_string_eq(ask(server.port(), "q\n"), "ok\n"); // not blocked by the silent one
	std::string reply = read_all(silent);                   // the server closes it
	close(silent);
	ck_assert_msg(reply.find("timed out") != std::string::npos, "%s", reply.c_str());
}
END_TEST

START_TEST(test_client_limit_refuses_extra_clients)
{
	QueryServer server;
	QueryServerLimits limits;
	limits.max_clients = 2;
	limits.timeout_ms = 2000;
	ck_assert(server
	              .start(
	                  "127.0.0.1", 0, [](const std::string &) { return "ok"; }, limits)
	              .ok());
	int first = connect_to(server.port());
	int second = connect_to(server.port());
	usleep(300 * 1000); // let the server accept both
	std::string reply = ask(server.port(), "q\n");
	ck_assert_msg(reply.find("too many clients") != std::string::npos, "%s", reply.c_str());
	close(first);
	close(second);
}
END_TEST

START_TEST(test_bad_address_is_an_error)
{
	QueryServer server;
	auto started = server.start("not-an-ip", 0, [](const std::string &) { return ""; });
	ck_assert(!started.ok());
	ck_assert(started.error().find("not-an-ip") != std::string::npos);
}
END_TEST

// scampaign and query_address=controller resolve SlurmctldHost names: literals pass unchanged,
// names go through the resolver, and a failure names the host.
START_TEST(test_resolve_ipv4)
{
	ck_assert_string_eq(resolve_ipv4("127.0.0.2").value().c_str(), "127.0.0.2");
	auto local = resolve_ipv4("localhost");
	ck_assert_msg(local.ok(), "%s", local.ok() ? "" : local.error().c_str());
	ck_assert_msg(local.value().rfind("127.", 0) == 0, "%s", local.value().c_str());
	auto none = resolve_ipv4("");
	ck_assert(!none.ok());
	ck_assert_msg(none.error().find("host ''") != std::string::npos, "%s",
	              none.error().c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("query_server");
	TCase *tc = tcase_create("transport");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_answers_one_line_per_connection);
	tcase_add_test(tc, test_oversized_request_is_refused);
	tcase_add_test(tc, test_silent_client_times_out_and_others_are_served);
	tcase_add_test(tc, test_client_limit_refuses_extra_clients);
	tcase_add_test(tc, test_bad_address_is_an_error);
	tcase_add_test(tc, test_resolve_ipv4);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
