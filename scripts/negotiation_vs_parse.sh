#!/usr/bin/env bash
# Negotiation against microversion-parse (docs/reference.md §11: at least 30x
# faster). One run, one header set for both: the framework's
# `Api::negotiate` (benches/src/bin/negotiation_timing.rs, release) and what
# Nova does with microversion-parse from PyPI (`get_version` with the legacy
# header, then Nova's version regex and range check;
# scripts/negotiation_vs_parse.py) in a venv of this script's own under
# target/negotiation-venv. The sides alternate for ROUNDS rounds; each
# prints its median time per request; the ratio is the median of the
# per-round ratios. The outcomes of both sides are compared first.
#
#   scripts/negotiation_vs_parse.sh
#   ROUNDS=5 scripts/negotiation_vs_parse.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
venv="$target_dir/negotiation-venv"

if [ ! -x "$venv/bin/python" ]; then
    echo "== creating $venv with microversion-parse (PyPI)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q microversion-parse
fi
echo "== building negotiation_timing (release)" >&2
cargo build --release -q -p microversion-benches --bin negotiation_timing

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The header set: what python-novaclient and other clients send.
cat >"$work/headers.json" <<'JSON'
[
  [["OpenStack-API-Version", "compute 2.27"], ["User-Agent", "python-novaclient"], ["Accept", "application/json"]],
  [["OpenStack-API-Version", "identity 3.10, compute 2.53, image 2.9, volume 3.59"], ["Accept", "application/json"]],
  [["X-OpenStack-Nova-API-Version", "2.27"], ["User-Agent", "python-novaclient"], ["Accept", "application/json"]],
  [["OpenStack-API-Version", "compute latest"], ["Accept", "application/json"]],
  [["User-Agent", "curl/8.0"], ["Accept", "application/json"]],
  [["OpenStack-API-Version", "compute 2.96"], ["X-OpenStack-Nova-API-Version", "2.96"], ["Accept", "application/json"]]
]
JSON

"$target_dir/release/negotiation_timing" "$work/headers.json" 1 1 2>"$work/rust.outcomes" >/dev/null
"$venv/bin/python" scripts/negotiation_vs_parse.py "$work/headers.json" 1 1 2>"$work/python.outcomes" >/dev/null
if ! cmp -s "$work/rust.outcomes" "$work/python.outcomes"; then
    echo "the two sides disagree on the header set:" >&2
    paste "$work/rust.outcomes" "$work/python.outcomes" >&2
    exit 1
fi

echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $("$venv/bin/python" --version)," \
    "microversion-parse $("$venv/bin/pip" show microversion-parse | sed -n 's/^Version: //p');" \
    "$(wc -l <"$work/rust.outcomes") requests in the set, outcomes agree: $(paste -sd' ' "$work/rust.outcomes")"
printf "%-6s %22s %24s %8s\n" round "framework (ns/request)" "microversion-parse (ns)" ratio
for round in $(seq 1 "$ROUNDS"); do
    rust=$("$target_dir/release/negotiation_timing" "$work/headers.json" 20000 7 2>/dev/null)
    python=$("$venv/bin/python" scripts/negotiation_vs_parse.py "$work/headers.json" 2000 7 2>/dev/null)
    ratio=$(awk -v r="$rust" -v p="$python" 'BEGIN { printf "%.1f", p / r }')
    printf "%-6s %22s %24s %8s\n" "$round" "$rust" "$python" "$ratio"
    echo "$ratio" >>"$work/ratios"
done
sort -n "$work/ratios" | awk '{ r[NR] = $1 } END {
    m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
    printf "microversion-parse / framework: %.1fx (median of %d rounds; target >= 30x: %s)\n", m, NR, (m >= 30 ? "met" : "MISSED")
}'
