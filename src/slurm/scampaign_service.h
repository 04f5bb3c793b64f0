// The plugin side of scampaign: opens each request's credential (munge or auth/slurm, through
// slurmctld's auth layer) to learn the caller's uid,
// enforces PrivateData=jobs as slurmctld does, and answers from the last published report.
// Never takes a slurmctld lock; the ranker thread publishes copies.
#pragma once

#include "caller_credential.h"
#include "policy/campaign_report.h"
#include "runtime/query_server.h"

#include <mutex>
#include <string>

namespace campaign::slurm
{

// This slurmctld's own address, for query_address=controller: its SlurmctldHost entry
// (slurmctld's backup_inx: 0 primary, 1.. backups) resolved to IPv4. Call only inside slurmctld.
Result<std::string> own_controller_address();

class ScampaignService
{
public:
	// `auth`: current_auth_settings(), read in init().
	Status start(const std::string &address, uint16_t port, AuthSettings auth);
	void stop() { server_.stop(); }
	uint16_t port() const { return server_.port(); }
	// `private_jobs`: PrivateData=jobs is set, so users see only their own campaigns.
	void publish(CampaignReport report, bool private_jobs);

private:
	std::string handle(const std::string &line);
	bool privileged(uid_t uid) const;

	QueryServer server_;
	AuthSettings auth_;
	std::mutex mutex_;
	CampaignReport report_;
	bool private_jobs_ = false;
};

} // namespace campaign::slurm
