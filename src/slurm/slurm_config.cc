#include "slurm_config.h"

#include "slurm_api.h"

namespace campaign::slurm
{
namespace
{

std::string text_of(const char *value)
{
	return value ? value : "";
}

} // namespace

std::string priority_parameters_text()
{
	return text_of(slurm_conf.priority_params);
}

std::string scheduler_parameters_text()
{
	return text_of(slurm_conf.sched_params);
}

std::string state_save_location()
{
	return text_of(slurm_conf.state_save_location);
}

} // namespace campaign::slurm
