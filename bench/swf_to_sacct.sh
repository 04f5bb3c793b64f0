#!/usr/bin/env bash
# An SWF trace (or a window of it) written as `sacct --parsable2 --duplicates` output, the form
# campsim run --sacct reads: for the worked example of doc/evaluate-your-cluster.md and the test
# that --sacct and --swf give the same schedule. Not a model of Slurm: one record per job.
#
#   bench/swf_to_sacct.sh TRACE.swf[.gz] [FROM_S TO_S] > month.txt
#
# Submit s of the log is 2026-10-01T00:00:00 UTC + s (Eligible = Submit); Start = Submit + wait;
# ElapsedRaw = run time; Timelimit = requested time as [D-]HH:MM:SS (-1: UNLIMITED);
# AllocCPUS / ReqCPUS = fields 5 / 8 (-1: 0); status 0 FAILED, 5 CANCELLED, else COMPLETED;
# users user<N>, accounts group<N>, partitions p<N> (-1: empty). Jobs with FROM_S <= submit <
# TO_S when given. Portable awk (no strftime).
set -euo pipefail
trace=${1:?usage: swf_to_sacct.sh TRACE.swf[.gz] [FROM_S TO_S]}
from=${2:-0}
to=${3:--1}
case $trace in
*.gz) read_trace() { gzip -dc "$trace"; } ;;
*) read_trace() { cat "$trace"; } ;;
esac
read_trace | awk -v from="$from" -v to="$to" -v origin=1790812800 '
function civil(t,    days, z, era, doe, yoe, y, doy, mp, d, m, s) {
	days = int(t / 86400); s = t - days * 86400
	z = days + 719468; era = int(z / 146097); doe = z - era * 146097
	yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
	y = yoe + era * 400; doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
	mp = int((5 * doy + 2) / 153); d = doy - int((153 * mp + 2) / 5) + 1
	m = mp < 10 ? mp + 3 : mp - 9; y += m <= 2
	return sprintf("%04d-%02d-%02dT%02d:%02d:%02d", y, m, d, int(s / 3600), int(s % 3600 / 60), s % 60)
}
function duration(s) {
	if (s < 0) return "UNLIMITED"
	if (s >= 86400) return sprintf("%d-%02d:%02d:%02d", int(s / 86400), int(s % 86400 / 3600), int(s % 3600 / 60), s % 60)
	return sprintf("%02d:%02d:%02d", int(s / 3600), int(s % 3600 / 60), s % 60)
}
function name(prefix, n) { return n < 0 ? "" : prefix n }
BEGIN { OFS = "|"; print "JobID", "JobIDRaw", "User", "Account", "Partition", "Submit", "Eligible", "Start", "End", "ElapsedRaw", "Timelimit", "AllocCPUS", "ReqCPUS", "State" }
/^[ \t]*;/ || NF < 18 { next }
$2 < from || (to >= 0 && $2 >= to) { next }
{
	submit = origin + $2
	started = $3 >= 0 && $4 >= 0
	start = started ? civil(submit + $3) : "Unknown"
	end = started ? civil(submit + $3 + $4) : "Unknown"
	state = $11 == 0 ? "FAILED" : $11 == 5 ? "CANCELLED by 0" : "COMPLETED"
	print $1, $1, name("user", $12), name("group", $13), name("p", $16), civil(submit), civil(submit), start, end, (started ? $4 : 0), duration($9), ($5 > 0 ? $5 : 0), ($8 > 0 ? $8 : 0), state
}'
