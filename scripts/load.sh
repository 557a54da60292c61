#!/usr/bin/env bash
# Loopback load comparison (docs/reference.md §11): the same handler served plain
# (/plain/..., no versions), through the framework (/v2.1/...) and with the
# framework's contract written by hand in plain actix handlers (/hand/...:
# header parsing, 400/406 with the range, a match, version headers and Vary)
# by one server process, each side an app of its own on its own port (so none
# is routed past another's routes first), loaded in turn with wrk for several
# rounds; prints requests/s, p50 and p99 of each side and the ratios
# framework/plain and framework/hand, then the table of the targets of
# docs/reference.md §11 measured in this run.
#
#   scripts/load.sh                 # the load ratios (about 5 minutes)
#   scripts/load.sh --all           # and every other target's ratio (about 15 minutes more):
#                                   # scripts/instructions.sh, scripts/negotiation_vs_parse.sh,
#                                   # the allocation counts, the dispatch bench and
#                                   # scripts/dispatch_instructions.sh, scripts/compile_cost.sh
#   ROUNDS=10 DURATION=10 scripts/load.sh
#   FACADE=axum scripts/load.sh     # the same three sides on microversion-axum
#                                   # (load_server_axum: axum routes, the negotiation around the router of a
#                                   # #[controller], the contract by hand in axum
#                                   # handlers; one thread, served by microversion_axum::serve)
#
# Settings (environment): ROUNDS (6), DURATION seconds per run (5),
# CONNECTIONS (32), THREADS of wrk (1), WORKERS of the server (1; actix only),
# FACADE (actix or axum),
# WARMUP seconds per side before the rounds (3), ENDPOINTS under /plain,
# /v2.1 and /hand ("servers/42 servers/42/model servers/detail": a tiny answer, a
# versioned model rendered at the version, then ten servers).
# Traffic goes to 127.0.0.1 only; the server is stopped on exit and stops by
# itself after a bounded time anyway.
set -euo pipefail
cd "$(dirname "$0")/.."

# glibc moves its mmap threshold at run time (the first time a large
# mapped chunk is freed), and whether a server process's heap had that
# happen changed the count of the same handler by a fifth (770 k or 960 k
# instructions for the ten-server list, whichever side): fixed thresholds
# (mmap at glibc's default 128 KiB, trim at 256 KiB, both static) give
# every side the same allocator. Set GLIBC_TUNABLES to measure otherwise.
export GLIBC_TUNABLES=${GLIBC_TUNABLES-glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=262144}

ALL=0
[ "${1:-}" = --all ] && ALL=1
ROUNDS=${ROUNDS:-6}
DURATION=${DURATION:-4}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-1}
WORKERS=${WORKERS:-1}
WARMUP=${WARMUP:-3}
ENDPOINTS=${ENDPOINTS:-servers/42 servers/42/model servers/detail}
case ${FACADE:=actix} in
    actix) SERVER_BIN=load_server SERVER_ARGS=(--workers "$WORKERS") ;;
    axum) SERVER_BIN=load_server_axum SERVER_ARGS=() ;;
    *) echo "FACADE is actix or axum, not $FACADE" >&2; exit 2 ;;
esac
export FACADE
HEADER="OpenStack-API-Version: compute 2.27"

if ! command -v wrk >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        echo "== installing wrk (Debian package)"
        (apt-get install -y -qq wrk >/dev/null 2>&1 ||
            { apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null; })
    else
        echo "wrk is missing: install it (apt-get install wrk) and run again" >&2
        exit 1
    fi
fi

echo "== building the load server (release)"
cargo build --release -q -p microversion-benches --bin "$SERVER_BIN"
target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
server="$target_dir/release/$SERVER_BIN"

work=$(mktemp -d)
# Bounded: the server exits by itself after this many seconds.
endpoints=$(wc -w <<<"$ENDPOINTS")
lifetime=$(( endpoints * ((ROUNDS * 3) * (DURATION + 2) + WARMUP * 3 + 6) + 60 ))
"$server" "${SERVER_ARGS[@]}" --max-seconds "$lifetime" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
cleanup() {
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    rm -rf "$work" "$table"
}
table=$(mktemp)
trap cleanup EXIT
# One row of the final table: target, figure, limit, status.
row() { printf "| %s | %s | %s | %s |\n" "$1" "$2" "$3" "$4" >>"$table"; }

# Each side is an app of its own, on its own port: "/plain", "/v2.1", "/hand".
addr_of() { sed -n "s|^listening on \\(127\\.0\\.0\\.1:[0-9]*\\) for $1\$|\\1|p" "$work/server.out" | head -n1; }
for _ in $(seq 1 100); do
    [ -n "$(addr_of /plain)" ] && [ -n "$(addr_of /v2.1)" ] && [ -n "$(addr_of /hand)" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; exit 1; }
    sleep 0.1
done
plain_base="http://$(addr_of /plain)"
versioned_base="http://$(addr_of /v2.1)"
hand_base="http://$(addr_of /hand)"
[ "$plain_base" != http:// ] && [ "$versioned_base" != http:// ] && [ "$hand_base" != http:// ] ||
    { echo "the server did not start" >&2; exit 1; }
# The base URL of a path: its side's app.
base_of() { case $1 in /plain/*) echo "$plain_base" ;; /hand/*) echo "$hand_base" ;; *) echo "$versioned_base" ;; esac; }

for path in $(for e in $ENDPOINTS; do echo "/plain/$e /v2.1/$e /hand/$e"; done); do
    wrk -t1 -c1 -d1s -H "$HEADER" "$(base_of "$path")$path" | grep -q "Non-2xx" &&
        { echo "$path answers errors" >&2; exit 1; }
done

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== plain side on $plain_base, framework side on $versioned_base, hand-written side on $hand_base," \
    "$FACADE, $([ "$FACADE" = actix ] && echo "$WORKERS worker(s)" || echo "one thread") each; wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, $ROUNDS rounds, sides in turn"

# One wrk run: prints "requests_per_s p50_us p99_us".
run() {
    local out
    out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${2:-$DURATION}s" --latency -H "$HEADER" "$(base_of "$1")$1")
    if grep -q "Non-2xx\|Socket errors" <<<"$out"; then
        echo "errors during the run of $1:" >&2
        echo "$out" >&2
        exit 1
    fi
    awk '
        function us(text) {
            if (text ~ /us$/) return substr(text, 1, length(text) - 2) + 0
            if (text ~ /ms$/) return substr(text, 1, length(text) - 2) * 1000
            if (text ~ /s$/) return substr(text, 1, length(text) - 1) * 1000000
            return text + 0
        }
        $1 == "Requests/sec:" { rps = $2 }
        $1 == "50%" { p50 = us($2) }
        $1 == "99%" { p99 = us($2) }
        END { printf "%.0f %.1f %.1f\n", rps, p50, p99 }
    ' <<<"$out"
}

if [ "$WARMUP" -gt 0 ]; then
    for endpoint in $ENDPOINTS; do
        run "/plain/$endpoint" "$WARMUP" >/dev/null
        run "/v2.1/$endpoint" "$WARMUP" >/dev/null
        run "/hand/$endpoint" "$WARMUP" >/dev/null
    done
fi

for endpoint in $ENDPOINTS; do
    echo "== GET /{plain,v2.1,hand}/$endpoint"
    printf "%-6s %-10s %12s %10s %10s\n" round side "requests/s" "p50 (us)" "p99 (us)"
    results="$work/results"
    : >"$results"
    for round in $(seq 1 "$ROUNDS"); do
        # ABC CBA order, so drift in the machine's load falls on every side alike.
        if [ $((round % 2)) = 1 ]; then order="plain framework hand"; else order="hand framework plain"; fi
        for side in $order; do
            case $side in plain) path=/plain/$endpoint ;; hand) path=/hand/$endpoint ;; *) path=/v2.1/$endpoint ;; esac
            read -r rps p50 p99 < <(run "$path")
            printf "%-6s %-10s %12s %10s %10s\n" "$round" "$side" "$rps" "$p50" "$p99"
            echo "$round $side $rps $p50 $p99" >>"$results"
        done
    done
    # Against plain: a versioned model must cost no more than 1 %, other
    # handlers 3 %. Against the same contract by hand: nothing.
    limit=0.97
    case $endpoint in *model*) limit=0.99 ;; esac
    awk -v limit="$limit" '
        function median(list, n,    i, j, t) {
            for (i = 2; i <= n; i++) { t = list[i]; for (j = i - 1; j >= 1 && list[j] > t; j--) list[j + 1] = list[j]; list[j + 1] = t }
            return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
        }
        {
            rps[$2, $1] = $3; rounds[$1] = 1
            n[$2]++; r[$2, n[$2]] = $3; p50[$2, n[$2]] = $4; p99[$2, n[$2]] = $5
        }
        function show(side, label,    i, a, b, c) {
            for (i = 1; i <= n[side]; i++) { a[i] = r[side, i]; b[i] = p50[side, i]; c[i] = p99[side, i] }
            printf "%-11s %8.0f requests/s, p50 %7.1f us, p99 %7.1f us (medians)\n", label ":", median(a, n[side]), median(b, n[side]), median(c, n[side])
        }
        END {
            for (k in rounds) { nr++; vs_plain[nr] = rps["framework", k] / rps["plain", k]; vs_hand[nr] = rps["framework", k] / rps["hand", k] }
            mp = median(vs_plain, nr); mh = median(vs_hand, nr)
            show("plain", "plain"); show("framework", "framework"); show("hand", "by hand")
            printf "ratio framework/plain requests/s: %.3f (median of %d per-round ratios; target >= %s: %s)\n", mp, nr, limit, (mp >= limit + 0 ? "met" : "MISSED")
            printf "ratio framework/by hand requests/s: %.3f (median of %d per-round ratios; target >= 1.00: %s)\n", mh, nr, (mh >= 1 ? "met" : "MISSED")
            printf "%.3f %s %.3f %s\n", mp, (mp >= limit + 0 ? "met" : "MISSED"), mh, (mh >= 1 ? "met" : "MISSED") > "/dev/stderr"
        }
    ' "$results" 2>"$work/ratio"
    read -r ratio verdict hand_ratio hand_verdict <"$work/ratio"
    row "loopback requests/s framework/plain, GET $endpoint" "$ratio" ">= $limit" "$verdict"
    row "loopback requests/s framework/by hand, GET $endpoint" "$hand_ratio" ">= 1.00" "$hand_verdict"
done
echo "== load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
kill "$server_pid" 2>/dev/null || true

if [ "$ALL" = 1 ]; then
    echo "== instructions per request (scripts/instructions.sh)"
    scripts/instructions.sh | tee "$work/instructions"
    # GET <endpoint> plain framework f/plain hand f/hand (<= 1.00: v) [floor f/floor (<= 1.05: v)]
    awk '$1 == "GET" { printf "%s %s %s %s %s %s\n", $2, $7, $10, ($12 == "" ? "-" : $12), ($15 == "" ? "-" : $15), $5 }' \
        "$work/instructions" | tr -d ')' |
        while read -r e h hv f fv p; do
            row "instructions per request framework/plain, GET $e (callgrind)" "$p" "reported" "-"
            row "instructions per request framework/by hand, GET $e (callgrind)" "$h" "<= 1.00" "$hv"
            if [ "$f" != - ]; then
                row "instructions per request framework/floor, GET $e (callgrind)" "$f" "<= 1.05" "$fv"
            fi
        done

    echo "== negotiation vs microversion-parse (scripts/negotiation_vs_parse.sh)"
    scripts/negotiation_vs_parse.sh | tee "$work/negotiation"
    sed -n 's/^microversion-parse \/ framework: \([0-9.]*\)x.*: \(.*\))$/\1x \2/p' "$work/negotiation" |
        { read -r r v; row "negotiation, microversion-parse/framework time" "$r" ">= 30x" "$v"; }

    echo "== allocations per request (benches/tests/per_request_memory.rs)"
    cargo test -q -p microversion-benches --test per_request_memory -- --nocapture 2>&1 | tee "$work/alloc" | grep "plain"
    sed -n 's/^GET plain: (\([0-9]*\), [0-9]*), framework: (\([0-9]*\), [0-9]*).*/\1 \2/p' "$work/alloc" |
        { read -r p f; d=$((f - p)); row "allocations per GET added by the framework ($f vs $p)" "$d" "<= 2" "$([ "$d" -le 2 ] && echo met || echo MISSED)"; }
    cargo test -q -p microversion-core --test no_alloc >/dev/null 2>&1 &&
        row "allocations on the negotiation path (microversion-core no_alloc test)" "0" "0" "met" ||
        row "allocations on the negotiation path (microversion-core no_alloc test)" "> 0" "0" "MISSED"

    echo "== dispatch (scripts/bench.sh --bench dispatch)"
    QUIET_WAIT=0 scripts/bench.sh --bench dispatch | tee "$work/dispatch" | grep "hand_match" || true
    for shape in fixed mixed; do
        sed -n "s/^| \`dispatch\/$shape\`: generated \/ hand_match (\([0-9]*\)) | \([0-9.]*\) |$/\1 \2/p" "$work/dispatch" |
            sort -n | awk -v s="$shape" '{ t = t sprintf("%s%s: %s", t == "" ? "" : ", ", $1, $2); if ($2 > worst) worst = $2 }
                END { printf "%s|%s|%s\n", t, worst, (worst <= 1.05 ? "met" : "MISSED") }' |
            { IFS='|' read -r t w v; row "generated dispatch / hand match, $shape version (variants: ratio)" "$t" "<= 1.05" "$v"; }
    done

    echo "== dispatch in instructions (scripts/dispatch_instructions.sh)"
    scripts/dispatch_instructions.sh | tee "$work/dispatch_instructions"
    for shape in fixed mixed; do
        awk -v s="$shape" '$1 == s { t = t sprintf("%s%s: %s", t == "" ? "" : ", ", $2, $5); if ($5 > worst) worst = $5 }
            END { printf "%s|%s\n", t, (worst <= 1.05 ? "met" : "MISSED") }' "$work/dispatch_instructions" |
            { IFS='|' read -r t v; row "generated dispatch / hand match in instructions (callgrind), $shape version" "$t" "<= 1.05" "$v"; }
    done

    echo "== compile time (scripts/compile_cost.sh)"
    scripts/compile_cost.sh | tee "$work/compile"
    sed -n 's/^== median: .* ratio \([0-9.]*\)$/\1/p' "$work/compile" |
        { read -r r; row "compile time 100 ops x 4 variants, #[controller]/by hand (debug)" "$r" "<= 1.30" \
            "$(awk -v r="$r" 'BEGIN { print (r <= 1.30 ? "met" : "MISSED") }')"; }
fi

echo
echo "== targets (docs/reference.md §11), measured in this run; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| target | figure | limit | status |"
echo "| --- | --- | --- | --- |"
cat "$table"
