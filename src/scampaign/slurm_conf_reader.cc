// slurm.conf reading for scampaign: only top-level "Key=Value" lines matter to us.
#include "slurm_conf_reader.h"

#include <algorithm>
#include <cctype>
#include <fstream>

namespace campaign
{

Result<SlurmConfKeys> read_slurm_conf(const std::string &path)
{
	std::ifstream in(path);
	if (!in)
		return Error{"cannot read " + path + " (set SLURM_CONF to your slurm.conf)"};
	SlurmConfKeys keys;
	std::string line;
	while (std::getline(in, line)) {
		line = line.substr(0, line.find('#'));
		const size_t equals = line.find('=');
		if (equals == std::string::npos)
			continue;
		std::string key = line.substr(0, equals);
		key.erase(std::remove_if(key.begin(), key.end(),
		                         [](unsigned char c) { return std::isspace(c); }),
		          key.end());
		std::transform(key.begin(), key.end(), key.begin(),
		               [](unsigned char c) { return std::tolower(c); });
		std::string value = line.substr(equals + 1);
		while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
			value.pop_back();
		while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())))
			value.erase(value.begin());
		if (key == "slurmctldhost")
			keys.controllers.push_back(value);
		keys.last[key] = value;
	}
	return keys;
}

} // namespace campaign
