#!/usr/bin/env bash
# test_preemption_plan.sh with preempt/qos (slurmdbd): QOS "high" preempts QOS "low".
PREEMPT_BY=qos exec bash "$(dirname "$0")/test_preemption_plan.sh"
