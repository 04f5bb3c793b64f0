// Thin RAII wrapper over libmunge's encode/decode; errors carry munge's own message.
#include "runtime/munge_credential.h"

#include <cstdlib>
#include <memory>
#include <munge.h>

namespace campaign
{
namespace
{

using Context = std::unique_ptr<std::remove_pointer_t<munge_ctx_t>, decltype(&munge_ctx_destroy)>;

Result<Context> make_context(const std::string &socket_path)
{
	Context context(munge_ctx_create(), &munge_ctx_destroy);
	if (!context)
		return Error{"munge: cannot create a context"};
	if (!socket_path.empty() &&
	    munge_ctx_set(context.get(), MUNGE_OPT_SOCKET, socket_path.c_str()) != EMUNGE_SUCCESS)
		return Error{"munge: bad socket " + socket_path};
	return context;
}

} // namespace

Result<std::string> munge_seal(const std::string &payload, const std::string &socket_path)
{
	auto context = make_context(socket_path);
	if (!context.ok())
		return Error{context.error()};
	char *credential = nullptr;
	munge_err_t rc = munge_encode(&credential, context.value().get(), payload.data(),
	                              static_cast<int>(payload.size()));
	if (rc != EMUNGE_SUCCESS)
		return Error{std::string("munge: cannot create a credential: ") +
		             munge_ctx_strerror(context.value().get())};
	std::string sealed(credential);
	std::free(credential);
	return sealed;
}

Result<CredentialContents> munge_open(const std::string &credential, const std::string &socket_path)
{
	auto context = make_context(socket_path);
	if (!context.ok())
		return Error{context.error()};
	void *data = nullptr;
	int length = 0;
	CredentialContents contents;
	munge_err_t rc = munge_decode(credential.c_str(), context.value().get(), &data, &length,
	                              &contents.uid, &contents.gid);
	std::unique_ptr<void, decltype(&std::free)> owned(data, &std::free);
	if (rc != EMUNGE_SUCCESS)
		return Error{std::string("credential refused: ") + munge_strerror(rc)};
	if (data && length > 0)
		contents.payload.assign(static_cast<const char *>(data),
		                        static_cast<size_t>(length));
	return contents;
}

std::string munge_socket_from_auth_info(const std::string &auth_info)
{
	size_t start = 0;
	while (start < auth_info.size()) {
		size_t comma = auth_info.find(',', start);
		if (comma == std::string::npos)
			comma = auth_info.size();
		std::string item = auth_info.substr(start, comma - start);
		if (item.rfind("socket=", 0) == 0)
			return item.substr(7);
		start = comma + 1;
	}
	return "";
}

} // namespace campaign
