#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for SECONDS each (default 60) on the
# stable toolchain, then prints executions, corpus size and findings per
# target. Exits non-zero if a target finds a crash or a broken property.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Stable Rust cannot build with -Zsanitizer, so the targets are built with
# `--sanitizer none`: libFuzzer's coverage instrumentation (-Cpasses=sancov-module
# and -Cllvm-args, both stable flags), optimized, with debug assertions and
# overflow checks on (cargo-fuzz's default profile), so panics, bounds and
# overflows are what a run finds. The code under test forbids unsafe, so
# AddressSanitizer (-Zsanitizer, nightly only) would add little.
#
# The growing corpus is kept in fuzz/corpus/TARGET (not committed); the
# checked-in seeds are fuzz/seeds/TARGET; crashes land in fuzz/artifacts/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(negotiate schema_body compute_service)
fi
case "$seconds" in
  '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2; exit 2 ;;
esac

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz from crates.io"
  cargo install cargo-fuzz --locked
fi

sanitizer=none
build_flags=(--sanitizer "$sanitizer")

echo "== cargo fuzz build ${build_flags[*]} (stable: $(rustc --version))"
cargo fuzz build "${build_flags[@]}" "${targets[@]:0:1}" >/dev/null
for target in "${targets[@]:1}"; do
  cargo fuzz build "${build_flags[@]}" "$target" >/dev/null
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
summary=()
failed=0
for target in "${targets[@]}"; do
  corpus="$PWD/fuzz/corpus/$target"
  seeds="$PWD/fuzz/seeds/$target"
  mkdir -p "$corpus"
  max_len=65536
  [ "$target" = negotiate ] && max_len=4096
  echo "== $target for ${seconds}s (corpus $corpus, seeds $seeds)"
  status=ok
  if ! cargo fuzz run "${build_flags[@]}" "$target" "$corpus" "$seeds" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
      -dict="$PWD/fuzz/dict/$target.dict" -print_final_stats=1 \
      >"$logs/$target.log" 2>&1; then
    status=FAILED
    failed=1
    grep -E "panicked|ERROR|SUMMARY|Test unit written" "$logs/$target.log" | head -20 >&2 || true
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$target.log" | tail -1)
  cov=$( (grep -oE 'cov: [0-9]+' "$logs/$target.log" || true) | tail -1 | cut -d' ' -f2)
  files=$(find "$corpus" -type f | wc -l)
  size=$(du -sk "$corpus" | cut -f1)
  summary+=("$(printf '%-16s %-7s %12s %9s %7s %8s %9s' \
    "$target" "$status" "${runs:-?}" "${rate:-?}" "${cov:-?}" "$files" "${size}KiB")")
done

echo
echo "== fuzz summary: ${seconds}s per target, sanitizer $sanitizer, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %-7s %12s %9s %7s %8s %9s\n' target result executions exec/s edges corpus size
printf '%s\n' "${summary[@]}"
exit "$failed"
