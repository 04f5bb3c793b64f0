// munge credentials are opened with libmunge directly (runtime/munge_credential), as before
// auth/slurm existed: munge's own message reaches the caller, and a replay is refused even where
// Slurm's munge plugin lets it through (--enable-multiple-slurmd builds accept replays). An
// auth/slurm token is packed as Slurm packs a message's credential (plugin id, then the token)
// and handed to auth_g_unpack and auth_g_verify: slurm.key (or slurm.jwks), expiry and the
// restricted uid are checked by Slurm's own code.
#include "slurm_api.h"

#include "caller_credential.h"

#include "runtime/munge_credential.h"

#include <vector>

namespace campaign::slurm
{
namespace
{

struct CredentialKind {
	int plugin_id;
	const char *type;
};

// munge credentials start "MUNGE:"; auth/slurm tokens are JWTs (three base64url parts).
Result<CredentialKind> kind_of(const std::string &line)
{
	if (line.empty())
		return Error{"no credential: scampaign sends the request sealed in a munge "
		             "credential or an auth/slurm token"};
	if (line.rfind("MUNGE:", 0) == 0)
		return CredentialKind{AUTH_PLUGIN_MUNGE, "auth/munge"};
	const size_t first = line.find('.');
	const bool jwt = first != std::string::npos && line.rfind("eyJ", 0) == 0 &&
	                 line.find('.', first + 1) != std::string::npos;
	if (!jwt)
		return Error{
		    "credential refused: neither a munge credential nor an auth/slurm token"};
	if (!kHasAuthSlurm)
		return Error{
		    "credential refused: an auth/slurm token, and this Slurm (" SLURM_VERSION_STRING
		    ") has no auth/slurm"};
	return CredentialKind{kAuthPluginSlurm, "auth/slurm"};
}

bool loads(const std::string &types, const char *type)
{
	size_t start = 0;
	while (start <= types.size()) {
		size_t comma = types.find(',', start);
		if (comma == std::string::npos)
			comma = types.size();
		if (types.compare(start, comma - start, type) == 0)
			return true;
		start = comma + 1;
	}
	return false;
}

} // namespace

AuthSettings current_auth_settings()
{
	AuthSettings settings;
	settings.auth_info = slurm_conf.authinfo ? slurm_conf.authinfo : "";
	settings.auth_types = slurm_conf.authtype ? slurm_conf.authtype : "auth/munge";
	if (slurm_conf.authalttypes && *slurm_conf.authalttypes)
		settings.auth_types += std::string(",") + slurm_conf.authalttypes;
	return settings;
}

Result<VerifiedCaller> verify_caller_credential(const std::string &line,
                                                const AuthSettings &settings)
{
	auto kind = kind_of(line);
	if (!kind.ok())
		return Error{kind.error()};
	const char *type = kind.value().type;
	if (!loads(settings.auth_types, type))
		return Error{std::string("credential refused: a ") + type +
		             " credential, and this slurmctld authenticates with " +
		             settings.auth_types + " (AuthType, AuthAltTypes)"};
	if (kind.value().plugin_id == AUTH_PLUGIN_MUNGE) {
		auto opened = munge_open(line, munge_socket_from_auth_info(settings.auth_info));
		if (!opened.ok())
			return Error{opened.error()};
		return VerifiedCaller{opened.value().uid, opened.value().gid,
		                      std::move(opened.value().payload)};
	}

	std::vector<char> text(line.begin(), line.end());
	text.push_back('\0');
	buf_t *packed = init_buf(static_cast<uint32_t>(text.size() + 16));
	pack32(static_cast<uint32_t>(kind.value().plugin_id), packed);
	packmem(text.data(), static_cast<uint32_t>(text.size()), packed);
	set_buf_offset(packed, 0);
	void *credential = auth_g_unpack(packed, SLURM_PROTOCOL_VERSION);
	FREE_NULL_BUFFER(packed);
	if (!credential)
		return Error{"credential refused: auth/slurm cannot read it"};

	std::vector<char> auth_info(settings.auth_info.begin(), settings.auth_info.end());
	auth_info.push_back('\0');
	if (auth_g_verify(credential, auth_info.data()) != SLURM_SUCCESS) {
		auth_g_destroy(credential);
		return Error{"credential refused by auth/slurm: not signed with this cluster's "
		             "slurm.key, expired, or for another user than SlurmUser (slurmctld's "
		             "log has the reason)"};
	}
	VerifiedCaller caller;
	credential_ids(credential, &caller.uid, &caller.gid);
	char *data = nullptr;
	uint32_t length = 0;
	if (auth_g_get_data(credential, &data, &length) == SLURM_SUCCESS && data)
		caller.payload.assign(data, length);
	xfree(data);
	auth_g_destroy(credential);
	return caller;
}

} // namespace campaign::slurm
