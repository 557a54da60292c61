#!/usr/bin/env bash
# A bounded soak of the compute example on loopback (docs/reference.md §12): builds the
# server and the soak client in release, starts the server as a child of
# the client on a free 127.0.0.1 port, and for SECONDS (default 60) keeps
# CONNECTIONS (default 64) keep-alive connections busy with a mix of valid,
# `latest`, malformed, out-of-range, header-less and schema-invalid
# requests. Every response is checked (status, version headers, Vary, fault
# body, Cache-Control on 400/406); the server's VmRSS is read before (after
# a short warm-up) and after. Stops by itself; exits non-zero on any
# mismatch, I/O error, or memory growth.
#
#   scripts/soak.sh [SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
connections=${2:-64}
case "$seconds$connections" in
  *[!0-9]*) echo "usage: scripts/soak.sh [SECONDS] [CONNECTIONS]" >&2; exit 2 ;;
esac

echo "== cargo build --release (compute server and soak client)"
cargo build --release -q -p microversion-example-compute --example compute --example soak
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
"$target_dir/release/examples/soak" --seconds "$seconds" --connections "$connections" \
  --server "$target_dir/release/examples/compute"
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
