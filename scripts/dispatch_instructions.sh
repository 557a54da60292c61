#!/usr/bin/env bash
# Instructions per dispatch (docs/performance.md, section 2): the generated
# dispatch of the dispatch bench's operations against the hand-written
# `match`, counted by callgrind instead of timed, so the comparison does not
# move with the machine's load or with where the linker places the code.
# `dispatch_count` (release) runs 1 024 dispatches per pass, once with P1
# and once with P2 passes; (I(P2) - I(P1)) / ((P2 - P1) * 1024) is the cost
# of one call: the loop, the call, the dispatch and the variant's work.
# Not a CI gate.
#
#   scripts/dispatch_instructions.sh
#   SIZES="8 512" scripts/dispatch_instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."

P1=${P1:-2}
P2=${P2:-12}
SIZES=${SIZES:-2 8 32 128 512}

command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }

echo "== building dispatch_count (release)" >&2
cargo build --release -q -p microversion-benches --bin dispatch_count
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
bin="$target_dir/release/dispatch_count"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Total instructions of one run (callgrind's summary line).
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "$bin" "$@" >/dev/null 2>"$out/log"
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log"
}
per_call() {
    local a b
    a=$(instructions "$1" "$2" "$3" "$P1")
    b=$(instructions "$1" "$2" "$3" "$P2")
    awk -v a="$a" -v b="$b" -v n=$(((P2 - P1) * 1024)) 'BEGIN { printf "%.2f", (b - a) / n }'
}

echo "== valgrind $(valgrind --version | sed 's/valgrind-//'); $P1 and $P2 passes of 1 024 calls; instructions per call"
printf "%-6s %8s %10s %10s %7s\n" shape variants generated hand_match ratio
for shape in fixed mixed; do
    for n in $SIZES; do
        g=$(per_call "$n" "$shape" generated)
        h=$(per_call "$n" "$shape" hand_match)
        printf "%-6s %8s %10s %10s %7s\n" "$shape" "$n" "$g" "$h" "$(awk -v g="$g" -v h="$h" 'BEGIN { printf "%.3f", g / h }')"
    done
done
