#!/usr/bin/env bash
# Instructions per request of a version-change walk (docs/performance.md,
# section 11): a request at the oldest of eleven versions, served by a head
# handler through ten version changes, against the same answer from that
# version's same-named variant, and the same at the head (1.10), where
# neither walks. `changes_count` (release) sends N requests in process to
# an axum router behind the negotiation; callgrind counts the whole run
# once with N1 and once with N2 requests, and (I(N2) - I(N1)) / (N2 - N1)
# is the cost of one request: negotiation, body read and parsed, the
# upgrades, the handler, the downgrades, the answer written. Not a CI gate.
#
#   scripts/changes_instructions.sh
#   N1=100 N2=600 scripts/changes_instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."

N1=${N1:-200}
N2=${N2:-1200}

command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }

echo "== building changes_count (release)" >&2
cargo build --release -q -p microversion-benches --bin changes_count
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
bin="$target_dir/release/changes_count"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Total instructions of one run (callgrind's summary line).
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "$bin" "$@" >/dev/null 2>"$out/log" \
        || { cat "$out/log" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log"
}
per_request() {
    local a b
    a=$(instructions "$1" "$2" "$N1")
    b=$(instructions "$1" "$2" "$N2")
    awk -v a="$a" -v b="$b" -v n=$((N2 - N1)) 'BEGIN { printf "%.0f", (b - a) / n }'
}

echo "== valgrind $(valgrind --version | sed 's/valgrind-//'); $N1 and $N2 requests; instructions per request"
printf "%-8s %14s %10s %7s\n" version ten_changes variants ratio
for minor in 0 10; do
    w=$(per_request walked "$minor")
    v=$(per_request variants "$minor")
    printf "%-8s %14s %10s %7s\n" "1.$minor" "$w" "$v" "$(awk -v w="$w" -v v="$v" 'BEGIN { printf "%.3f", w / v }')"
done
