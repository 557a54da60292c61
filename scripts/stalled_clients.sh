#!/usr/bin/env bash
# Stalled clients cannot hold the compute example (docs/reliability.md,
# docs/reference.md §12): STALLED connections (default 2,000; a third each
# of slow request heads, slow bodies and idle keep-alives, all trickling a
# byte a second where they send anything) stay open while a well-behaved
# client sends GOOD requests (default 5,000). Every good request must be
# answered, and every stalled connection closed by the server after its
# deadline (request head 10 s, body 30 s, keep-alive 15 s: examples/compute/src/lib.rs).
#
#   scripts/stalled_clients.sh
#   STALLED=500 GOOD=2000 BODY_TIMEOUT=5 scripts/stalled_clients.sh
#   FACADE=axum scripts/stalled_clients.sh     # the axum build (microversion_axum::serve)
#
# Loopback only; the server is stopped on exit. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."

STALLED=${STALLED:-2000}
GOOD=${GOOD:-5000}
BODY_TIMEOUT=${BODY_TIMEOUT:-30}
# A stalled connection still open this long after it stalled is a failure.
BOUND=${BOUND:-60}

# Two sockets a connection (client and server side) plus slack.
want=$(( STALLED * 2 + 1024 ))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$want" ]; then
    ulimit -n "$want" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fi
echo "== open files limit: $(ulimit -n)"

FACADE=${FACADE:-actix}
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
echo "== building the compute example on $FACADE (release)"
case "$FACADE" in
    actix | axum) ;;
    *) echo "FACADE is actix or axum, not $FACADE" >&2; exit 2 ;;
esac
cargo build --release -q -p microversion-example-compute --example compute
server="$target_dir/release/examples/compute"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
"$server" --framework "$FACADE" --listen "127.0.0.1:$port" --body-timeout "$BODY_TIMEOUT" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
cleanup() {
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 1 100); do
    grep -q "listening on" "$work/server.out" 2>/dev/null && break
    sleep 0.1
done
grep -q "listening on" "$work/server.out" || { cat "$work/server.err" >&2; exit 1; }

echo "== $STALLED stalled connections and $GOOD good requests against 127.0.0.1:$port"
timeout $(( BOUND * 3 + 120 )) python3 scripts/stalled_clients.py \
    --port "$port" --stalled "$STALLED" --good "$GOOD" --bound "$BOUND"
echo "== server memory (VmHWM): $(grep VmHWM /proc/$server_pid/status | awk '{print $2, $3}')"
