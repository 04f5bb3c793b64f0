#!/usr/bin/env bash
# campsim's --planner-pending and --planner-running: what the planner alone books, apart from the
# run's --estimate (doc/fairness-results.md, "Limits in the planner and in the order"). On 2 CPUs
# under fcfs/conservative: job 1 (1 CPU, limit 2000) runs 1000 s; job 2 (2 CPUs) is reserved at
# job 1's planned end; job 3 (1 CPU, limit 5000, runs 10 s) and job 4 (1 CPU, limit 1500, runs
# 10 s) arrive behind it. By limits job 4 fits before 2000 and starts at 3, job 3 waits for job
# 2 (1010). Pending jobs booked for their runs: job 3 fits at 2, and job 4 takes its CPU when it
# ends (12). Started jobs planned to their runs: job 2 is reserved at 1000, so job 4 no longer
# fits before it and both wait for job 2 (1010). --planner-pending similar, on a second workload
# (templates.csv): user u3 ran a job of limit 5000 for 10 s, then one of limit 280 for 280 s;
# its next job of limit 5000 has 107 s free before a reserved 2-CPU job. Tsafrir's prediction
# (the user's last two: 145 s) does not fit and waits for the reserved job (400); the same over
# the user's jobs of that limit and CPU count (10 s) fits and starts at once (293).
# --planner-pending exact --planner-factor F (limits F times the run): at 100, jobs 3 and 4 book
# 1000 s and fit as with their runs (2, 12); at 250 job 3 books 2500 s, past job 2's reservation,
# and the starts are those by limits. --planner-pending-for: light_cpu (u3 and u4, 10
# CPU-seconds each, the bottom half) books its runs as every user's would (2, 12); its complement
# (u1 and u2) leaves the schedule by limits. --estimate exact --estimate-for (the estimate itself,
# core and planner alike, for one group): light_cpu books jobs 3 and 4 for their runs (2, 12);
# not_light_cpu plans job 1 to its run, so job 2 is reserved at 1000 and neither job 3 nor job
# 4 fits before it (1010, 1010).
# --missing-limit (nolimit.csv): job 1 (1 CPU) gives no limit and runs 1000 s, job 2 (2 CPUs) waits
# for it, job 3 (1 CPU, limit 1500, runs 10 s) arrives behind. By default job 1 is planned by its
# run: job 2 is reserved at 1000 and job 3 does not fit before it (1010). A default limit of
# 5000 s plans job 1 to 5000, so job 3 fits before job 2's reservation and starts at once (2);
# one of 600 s, below job 1's run, gives it its run (1010), and 600,5000 (a MaxTime of 5000 s for
# jobs that ran longer than 600) plans it to 5000 again (1000, 2).
# Bad values: test_campsim_cli.sh. CAMPSIM is set by make check.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../cluster/lib.sh" # check, check_equal, finish

cat >"$work/jobs.csv" <<'JOBS'
id,user,submit,cpus,limit,runtime
1,u1,0,1,2000,1000
2,u2,1,2,10,10
3,u3,2,1,5000,10
4,u4,3,1,1500,10
JOBS

cat >"$work/templates.csv" <<'JOBS'
id,user,submit,cpus,limit,runtime
1,u1,0,1,400,390
2,u3,0,1,5000,10
3,u3,11,1,280,280
4,u2,292,2,10,10
5,u3,293,1,5000,10
JOBS

cat >"$work/nolimit.csv" <<'JOBS'
id,user,submit,cpus,limit,runtime
1,u1,0,1,-1,1000
2,u2,1,2,10,10
3,u3,2,1,1500,10
JOBS

starts() { # OUT [INDEX...]: the starts of those jobs (by index from 0; default 1 2 3) in that run
	local out=$1
	shift
	awk -F, -v wanted="${*:-1 2 3}" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
		{ start[$col["job_index"]] = $col["start_s"] }
		END { n = split(wanted, index_of, " "); line = ""
		      for (i = 1; i <= n; ++i) line = line (i > 1 ? "," : "") start[index_of[i]]
		      print line }' "$work/$out/fcfs_conservative.jobs.csv"
}
run() { # OUT OPTIONS...: one run of JOBS (default jobs.csv) on 2 CPUs
	local out=$1
	shift
	"$campsim" run --jobs "$work/${JOBS:-jobs.csv}" --cpus 2 --policy fcfs/conservative "$@" \
		--out "$work/$out" >"$work/$out.log" 2>&1
}

check "by limits (default) runs" run limits
check_equal "by limits: jobs 2, 3, 4 start at 1000, 1010, 3" 1000,1010,3 "$(starts limits)"
check "--planner-running limit changes nothing" run limit-ends --planner-running limit
check_equal "--planner-running limit: 1000, 1010, 3" 1000,1010,3 "$(starts limit-ends)"
check "--planner-pending exact runs" run pending --planner-pending exact
check_equal "pending jobs booked for their runs: 1000, 2, 12" 1000,2,12 "$(starts pending)"
check "--planner-running exact runs" run running --planner-running exact
check_equal "started jobs planned to their runs: 1000, 1010, 1010" 1000,1010,1010 "$(starts running)"
# fcfs has no ranking core: expected falls back to the limit, as a job with no guess does.
check "--planner-pending expected runs" run expected --planner-pending expected --planner-factor 0.5
check_equal "no core, no guess: by limits" 1000,1010,3 "$(starts expected)"
check "--planner-pending exact --planner-factor 100 runs" run exact-100 --planner-pending exact --planner-factor 100
check_equal "limits 100 times the runs: 1000, 2, 12" 1000,2,12 "$(starts exact-100)"
check "--planner-pending exact --planner-factor 250 runs" run exact-250 --planner-pending exact --planner-factor 250
check_equal "limits 250 times the runs: 1000, 1010, 3" 1000,1010,3 "$(starts exact-250)"
check "--planner-pending-for light_cpu runs" run light --planner-pending exact --planner-pending-for light_cpu
check_equal "light users' pending jobs booked for their runs: 1000, 2, 12" 1000,2,12 "$(starts light)"
check "--planner-pending-for not_light_cpu runs" run not-light --planner-pending exact \
	--planner-pending-for not_light_cpu
check_equal "the other users' only: by limits (1000, 1010, 3)" 1000,1010,3 "$(starts not-light)"
check "--estimate exact --estimate-for light_cpu runs" run est-light --estimate exact \
	--estimate-for light_cpu
check_equal "light users' estimates their runs: 1000, 2, 12" 1000,2,12 "$(starts est-light)"
check "--estimate exact --estimate-for not_light_cpu runs" run est-not-light --estimate exact \
	--estimate-for not_light_cpu
check_equal "the other users' estimates their runs: 1000, 1010, 1010" 1000,1010,1010 \
	"$(starts est-not-light)"

JOBS=templates.csv
check "templates: by limits runs" run t-limits
check_equal "templates: by limits, u3's last job waits for the reserved one (400)" 400 "$(starts t-limits 4)"
check "templates: --planner-pending predicted runs" run t-predicted --planner-pending predicted
check_equal "templates: Tsafrir's 145 s does not fit before it (400)" 400 "$(starts t-predicted 4)"
check "templates: --planner-pending similar runs" run t-similar --planner-pending similar
check_equal "templates: the same limit and CPUs' 10 s fits (293)" 293 "$(starts t-similar 4)"
check "templates: --planner-pending similar --planner-factor 12 runs" run t-similar-12 \
	--planner-pending similar --planner-factor 12
check_equal "templates: 120 s (10 s x 12) does not fit (400)" 400 "$(starts t-similar-12 4)"

JOBS=nolimit.csv
check "no limit: by default runs" run n-default
check_equal "no limit: planned by its run, job 3 waits for job 2 (1000, 1010)" 1000,1010 \
	"$(starts n-default 1 2)"
check "the notes say one job gives no limit and is planned by its run" \
	grep -q 'note: limits unknown: 1 of 3 jobs (33 %) give none and are planned by their runs' "$work/n-default.log"
check "no limit: --missing-limit 5000 runs" run n-5000 --missing-limit 5000
check_equal "no limit: planned to 5000 s, job 3 fits before job 2 (1000, 2)" 1000,2 "$(starts n-5000 1 2)"
check "the note counts the job given the default" \
	grep -q 'missing-limit: 1 jobs without a limit in the log given 5000 s; the 0 of them that ran longer' \
	"$work/n-5000.log"
check "no limit: --missing-limit 600 runs" run n-600 --missing-limit 600
check_equal "no limit: a default below its run gives it its run (1000, 1010)" 1000,1010 \
	"$(starts n-600 1 2)"
check "the note counts it as having run longer" grep -q 'the 1 of them that ran longer their run' \
	"$work/n-600.log"
check "no limit: --missing-limit 600,5000 runs" run n-600-5000 --missing-limit 600,5000
check_equal "no limit: it ran longer than 600 s and asked for 5000 (1000, 2)" 1000,2 \
	"$(starts n-600-5000 1 2)"

finish
