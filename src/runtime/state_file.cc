// write_file_atomically: open with O_CLOEXEC (slurmctld forks), retry short writes and EINTR.
#include "runtime/state_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace campaign
{
namespace
{

Error failure(const std::string &what, const std::string &path)
{
	return Error{what + " " + path + ": " + std::strerror(errno)};
}

bool write_all(int fd, const std::string &content)
{
	size_t done = 0;
	while (done < content.size()) {
		ssize_t wrote = write(fd, content.data() + done, content.size() - done);
		if (wrote < 0 && errno == EINTR)
			continue;
		if (wrote <= 0)
			return false;
		done += static_cast<size_t>(wrote);
	}
	return true;
}

} // namespace

Status write_file_atomically(const std::string &directory, const std::string &name,
                             const std::string &content)
{
	if (directory.empty() || directory == "/dev/null")
		return Error{"no usable StateSaveLocation for " + name};
	const std::string path = directory + "/" + name;
	const std::string fresh = path + ".new";
	int fd = open(fresh.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return failure("cannot create", fresh);
	if (!write_all(fd, content) || fsync(fd) != 0) {
		Error problem = failure("cannot write", fresh);
		close(fd);
		unlink(fresh.c_str());
		return problem;
	}
	close(fd);
	if (rename(fresh.c_str(), path.c_str()) != 0) {
		Error problem = failure("cannot rename over", path);
		unlink(fresh.c_str());
		return problem;
	}
	int dir_fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd >= 0) {
		fsync(dir_fd);
		close(dir_fd);
	}
	return ok_status();
}

} // namespace campaign
