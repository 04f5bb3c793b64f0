// Input files for the trace reader tests: each test writes its own small inputs into a fresh
// temporary directory, removed when the test ends. No reader logic here.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "check_main.h"

namespace trace_test
{

class TempDir
{
public:
	TempDir()
	{
		const char *tmp = std::getenv("TMPDIR");
		std::string pattern =
		    std::string(tmp && *tmp ? tmp : "/tmp") + "/campsim-trace-XXXXXX";
		ck_assert_msg(mkdtemp(pattern.data()) != nullptr, "mkdtemp %s", pattern.c_str());
		path_ = pattern;
	}
	~TempDir() { std::filesystem::remove_all(path_); }
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;

	std::string path(const std::string &name) const { return path_ + "/" + name; }
	std::string write(const std::string &name, const std::string &text) const
	{
		std::ofstream out(path(name), std::ios::binary);
		out << text;
		ck_assert_msg(out.good(), "writing %s", path(name).c_str());
		return path(name);
	}

private:
	std::string path_;
};

// Lines joined with '\n' (and a final one).
inline std::string lines(const std::vector<std::string> &all)
{
	std::string text;
	for (const std::string &line : all)
		text += line + "\n";
	return text;
}

// True when some note contains `part`.
template <typename Notes> bool noted(const Notes &notes, const std::string &part)
{
	for (const std::string &note : notes) {
		if (note.find(part) != std::string::npos)
			return true;
	}
	return false;
}

} // namespace trace_test
