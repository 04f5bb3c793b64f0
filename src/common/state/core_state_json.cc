// CoreState JSON: stub.
#include "state/core_state_json.h"

namespace campaign
{

std::string CoreStateCodec::save(const CampaignCore &)
{
	return "{}";
}
Result<CampaignCore> CoreStateCodec::load(const std::string &)
{
	return Error{"todo"};
}

std::string CampaignCore::save() const
{
	return CoreStateCodec::save(*this);
}
Result<CampaignCore> CampaignCore::load(const std::string &json)
{
	return CoreStateCodec::load(json);
}

} // namespace campaign
