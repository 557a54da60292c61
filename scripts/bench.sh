#!/usr/bin/env bash
# Runs every criterion benchmark of microversion-benches with short settings
# and prints the Markdown tables of docs/performance.md (medians and the
# framework/baseline ratios of the same run).
#
#   scripts/bench.sh                      # all benches
#   scripts/bench.sh --bench dispatch     # one bench (any `cargo bench` target selection)
#
# Waits first (at most QUIET_WAIT seconds, 900 by default, polling every
# 60 s) for the 1-minute load average to fall below QUIET_LOAD (0.7), since
# other builds on a shared machine skew the figures; it runs anyway after
# the wait and says what the load was. Criterion settings: WARM_UP (1 s)
# and MEASURE (3 s) per benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."

QUIET_WAIT=${QUIET_WAIT:-900}
QUIET_LOAD=${QUIET_LOAD:-0.7}
WARM_UP=${WARM_UP:-1}
MEASURE=${MEASURE:-3}

load1() { cut -d' ' -f1 /proc/loadavg; }
quiet() { awk -v l="$(load1)" -v max="$QUIET_LOAD" 'BEGIN { exit !(l < max) }'; }

echo "== building the benches (bench profile)"
cargo bench -q -p microversion-benches --no-run "$@" 2>/dev/null || cargo bench -p microversion-benches --no-run "$@"

waited=0
until quiet || [ "$waited" -ge "$QUIET_WAIT" ]; do
    echo "load $(load1) >= $QUIET_LOAD, waiting ($waited s of at most $QUIET_WAIT s)"
    sleep 60
    waited=$((waited + 60))
done
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "$(rustc --version), load before: $(cut -d' ' -f1-3 /proc/loadavg)"

target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
export CRITERION_HOME=${CRITERION_HOME:-$target_dir/criterion}
if [ $# -eq 0 ]; then
    # A fresh directory, so the report shows this run only.
    rm -rf "$CRITERION_HOME"
fi
cargo bench -q -p microversion-benches "$@" -- --warm-up-time "$WARM_UP" --measurement-time "$MEASURE" --noplot \
    >"$target_dir/bench-output.txt" 2>&1 || { tail -n 40 "$target_dir/bench-output.txt"; exit 1; }
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg) (criterion output in $target_dir/bench-output.txt)"
cargo run -q --release -p microversion-benches --bin bench_report -- "$CRITERION_HOME"
