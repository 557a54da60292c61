#!/usr/bin/env bash
# Instructions per request of the whole request path (docs/reference.md §11,
# docs/performance.md): the load server (release) under
# `valgrind --tool=callgrind`, sent an exact number of keep-alive requests
# over loopback by curl (one connection, sequential), once with N1 and once
# with N2 requests per side; (I(N2) - I(N1)) / (N2 - N1) is the server's
# user-space instructions per request, start-up and shutdown cancelled out.
# Counted inside the HTTP/1 dispatcher's `poll` (COLLECT, a callgrind
# --toggle-collect pattern): reading and parsing the request, routing, the
# middleware, extractors, handler, and encoding the response; the runtime's
# timers and I/O polling, whose count follows the wall clock, stay out, so two
# runs agree within a few instructions (COLLECT= counts the whole process,
# within about 100). curl runs outside valgrind. Not a CI gate.
#
#   scripts/instructions.sh
#   N1=200 N2=1200 ENDPOINTS="servers/42" scripts/instructions.sh
#   FACADE=axum scripts/instructions.sh     # the same API on microversion-axum
#
# With FACADE=axum the server is `load_server_axum` (plain axum routes, the
# framework on axum and the contract by hand in axum handlers, served by
# `microversion_axum::serve`), counted inside hyper's HTTP/1 dispatcher's
# `poll_catch`.
#
# A server process's hash seeds and address layout are its own, and on the
# ten-server list they move the count of the same binary by about 0.1 %
# (1,000 of 767,000) from one process to the next: REPEAT (1) measures each
# side that many times, in turn, and keeps the median.
#
# Settings (environment): N1 (200) and N2 (1200) requests per run, REPEAT, ENDPOINTS
# under /plain, /v2.1 and /hand ("servers/42 servers/42/model servers/detail"),
# FACADE (actix or axum), LOAD_SERVER (a load server binary to use instead of
# building one), COLLECT.
# Prints one line per endpoint: plain, framework, framework/plain, the same
# contract by hand, framework/by hand (target <= 1.00); for servers/42 also
# the floor (/floor: the version header read and the three headers of 2.27
# written from constants, negotiating nothing: the least the contract costs
# on the framework) and framework/floor (target <= 1.05), the framework's
# cost over the contract's own; then the floor behind a layer that adds
# nothing (/layered: axum's `Router::layer` of the identity, actix's
# `wrap_fn` of it) and framework/layered, with no target: the framework's
# cost over what wrapping a route costs the web framework by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

# glibc moves its mmap threshold at run time (the first time a large
# mapped chunk is freed), and whether a server process's heap had that
# happen changed the count of the same handler by a fifth (770 k or 960 k
# instructions for the ten-server list, whichever side): fixed thresholds
# (mmap at glibc's default 128 KiB, trim at 256 KiB, both static) give
# every side the same allocator. Set GLIBC_TUNABLES to measure otherwise.
export GLIBC_TUNABLES=${GLIBC_TUNABLES-glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=262144}

N1=${N1:-200}
N2=${N2:-1200}
REPEAT=${REPEAT:-1}
ENDPOINTS=${ENDPOINTS:-servers/42 servers/42/model servers/detail}
HEADER="OpenStack-API-Version: compute 2.27"
case ${FACADE:=actix} in
    actix) SERVER_BIN=load_server DISPATCHER='*actix_http::h1::dispatcher::Dispatcher*::poll' ;;
    # hyper's `Connection::poll` is inlined where `serve` serves more than one
    # type of app; the dispatcher's `poll_catch`, which it calls, is not.
    axum) SERVER_BIN=load_server_axum DISPATCHER='*hyper::proto::h1::dispatch::Dispatcher*::poll_catch' ;;
    *) echo "FACADE is actix or axum, not $FACADE" >&2; exit 2 ;;
esac
COLLECT=${COLLECT-$DISPATCHER}

command -v valgrind >/dev/null || { echo "valgrind is missing (apt-get install valgrind)" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl is missing (apt-get install curl)" >&2; exit 1; }

if [ -z "${LOAD_SERVER:-}" ]; then
    echo "== building the load server (release)" >&2
    cargo build --release -q -p microversion-benches --bin "$SERVER_BIN"
    target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
    LOAD_SERVER="$target_dir/release/$SERVER_BIN"
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Instructions of one server run answering `count` requests for `path`.
instructions() {
    local path=$1 count=$2 addr="" out="$work/callgrind.out" side=${1#/}
    side=${side%%/*}
    rm -f "$out" "$work/server.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" ${COLLECT:+"--toggle-collect=$COLLECT"} "$LOAD_SERVER" --max-seconds 600 \
        >"$work/server.out" 2>"$work/valgrind.err" &
    server_pid=$!
    for _ in $(seq 1 600); do
        # Each side is an app of its own, on its own port (a load server
        # older than that serves both sides on one port, without "for").
        addr=$(sed -n "s|^listening on \\(127\\.0\\.0\\.1:[0-9]*\\)\\( for /$side\\)\\{0,1\\}\$|\\1|p" "$work/server.out" | head -n1)
        [ -n "$addr" ] && break
        kill -0 "$server_pid" 2>/dev/null || { cat "$work/valgrind.err" >&2; exit 1; }
        sleep 0.1
    done
    [ -n "$addr" ] || { echo "the server did not start" >&2; exit 1; }
    # One curl, one connection, `count` sequential requests.
    for _ in $(seq 1 "$count"); do printf 'url = "http://%s%s"\noutput = "/dev/null"\n' "$addr" "$path"; done >"$work/urls"
    codes=$(curl -s -K "$work/urls" -H "$HEADER" -w '%{http_code}\n' | sort | uniq -c)
    [ "$(awk '{print $2}' <<<"$codes")" = 200 ] || { echo "$path answered: $codes" >&2; exit 1; }
    # SIGINT: the server stops gracefully, so main returns and callgrind writes its totals.
    kill -INT "$server_pid"
    wait "$server_pid" || true
    server_pid=""
    sed -n 's/^summary: \([0-9]*\).*/\1/p' "$out" | head -n1
}

echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(valgrind --version);" \
    "N1=$N1, N2=$N2 requests per run; median of $REPEAT; $FACADE; counted in: ${COLLECT:-the whole process}"
printf "%-18s %8s %8s %6s %8s %6s %24s %6s %25s %6s\n" endpoint plain framework ratio "by hand" ratio floor ratio layered ratio
for endpoint in $ENDPOINTS; do
    # The floor answers only GET servers/{id}.
    SIDES="plain v2.1 hand"
    if [ "$endpoint" = servers/42 ]; then SIDES="plain v2.1 hand floor layered"; fi
    declare -A per=() runs=()
    for _ in $(seq 1 "$REPEAT"); do
        for side in $SIDES; do
            a=$(instructions "/$side/$endpoint" "$N1")
            b=$(instructions "/$side/$endpoint" "$N2")
            runs[$side]+="$(awk -v a="$a" -v b="$b" -v n1="$N1" -v n2="$N2" 'BEGIN { printf "%.0f", (b - a) / (n2 - n1) }') "
        done
    done
    for side in $SIDES; do
        per[$side]=$(tr ' ' '\n' <<<"${runs[$side]}" | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
        if [ "$REPEAT" -gt 1 ]; then echo "   /$side/$endpoint per run: ${runs[$side]}" >&2; fi
    done
    if [ "${per[plain]}" -le 0 ] || [ "${per[v2.1]}" -le 0 ]; then
        echo "nothing was counted in $COLLECT: is that the server's function?" >&2
        exit 1
    fi
    awk -v e="GET $endpoint" -v p="${per[plain]}" -v f="${per[v2.1]}" -v h="${per[hand]}" -v fl="${per[floor]:-}" -v l="${per[layered]:-}" \
        'BEGIN { rh = f / h
                 printf "%-18s %8d %8d %6.3f %8d %6.3f (<= 1.00: %s)", e, p, f, f / p, h, rh, (rh <= 1.00 ? "met" : "MISSED")
                 if (fl == "") { print ""; exit }
                 rf = f / fl
                 printf " %8d %6.3f (<= 1.05: %s) %8d %6.3f\n", fl, rf, (rf <= 1.05 ? "met" : "MISSED"), l, f / l }'
done
