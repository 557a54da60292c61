#!/usr/bin/env bash
# This repository's Placement (the example, release build) against the real
# Placement from the same wheel as the gabbi tests
# (examples/placement/interop/requirements-no-deps.txt), both on one
# PostgreSQL server of this script's own (initdb in $WORK/run/pg, a
# loopback port), side by side in one run:
#
# 1. the request mix below with wrk: requests per second, p50 and p99;
# 2. Placement's own perfload job (PyPI `placeload`): the time to load
#    1,000 providers (each with inventory, the aggregate and traits), then
#    on the database vacuumed and analysed (as in a cloud's steady
#    state), the best of ten times (after $WARMUP untimed tries, 30
#    unless set) of the job's
#    allocation-candidates query and
#    of two queries that select 10 providers: one whose `member_of` names
#    an aggregate of 10 providers of this script's own, one whose `in_tree`
#    names a tree of 10 (made for the query, then deleted, so that the
#    cloud stays as flat as perfload's); then again at $LARGE providers,
#    and, when $LARGE2 is set, at $LARGE2 for this repository's Placement
#    only (the real one loads some 15 providers a second here: 100,000
#    would take about two hours);
# 3. Placement's nested perfload job (gate/perfload-nested-runner.sh):
#    $NESTED trees of its gabbit's topology (gate/gabbits/nested-perfload.yaml:
#    a compute node, two NUMA nodes, four devices; 7 providers a tree),
#    loaded by this script's own client with 8 connections (not 1,000 runs
#    of gabbi-run), then the best of ten times of the job's query.
#
#   scripts/placement_load.sh            # 20 s per server, 8 connections
#   DURATION=60s CONNECTIONS=16 LARGE=0 NESTED=0 scripts/placement_load.sh
#   LARGE2=100000 scripts/placement_load.sh   # and 100,000 providers (ours)
#   REAL=0 LARGE=0 LARGE2=100000 NESTED=0 scripts/placement_load.sh  # ours alone
#   CALLGRIND=1 REAL=0 LARGE=0 NESTED=0 DURATION=5s scripts/placement_load.sh
#   COPY_CAP=100000 scripts/placement_load.sh   # the candidates copy, capped or not
#   PG_OPTIONS="-c log_min_duration_statement=0" REAL=0 ... # every statement
#     and its time in $WORK/run/pg/log (PG_OPTIONS: more postgres -c settings)
#
# With COPY_CAP=N, only this: N flat providers of perfload's kind (VCPU,
# MEMORY_MB, DISK_GB; HW_CPU_X86_AVX2 and HW_CPU_X86_SSE; one aggregate)
# written straight into the tables (placeload would take long at 100,000),
# vacuumed and analysed, and two nodes of this example on them: one keeping
# the candidates search's copy of the whole cloud, one with
# --cloud-copy-providers 1000. On each, the best and the median of ten
# perfload queries (after three untimed), and of the same with limit=10;
# then its resident memory after 300 small requests (GET
# /resource_providers?name=...), both nodes run with
# MIMALLOC_PURGE_DECOMMITS=1 so that memory freed leaves the resident set
# (by default mimalloc gives it back with MADV_FREE, which the resident set
# counts until the kernel needs it); and whether both answered the same.
#
# With CALLGRIND=1 (needs valgrind), this example is also run under
# callgrind on the 1,000 providers: two untimed perfload queries, then
# the instructions of three, per query.
#
# The real Placement runs under gunicorn (`placement.wsgi.api:application`,
# its WSGI entry point) with as many sync workers as this example has actix
# workers (2), `auth_strategy = noauth2`, and `[placement_database]
# connection = postgresql+psycopg2://...`; it is installed WITH its
# dependencies into a virtual environment of this script's own
# ($WORK/venv, reused).
#
# The mix, one wrk connection per thread so each connection keeps its own
# provider's generation: POST /allocations (a new consumer, 1 VCPU),
# GET /resource_providers, GET /resource_providers/{uuid}/inventories
# (reads the generation), PUT /resource_providers/{uuid}/inventories (with
# it), in turn, at microversion 1.39.
#
# Needs python3 with venv, PyPI, wrk (Debian: apt-get install wrk), curl,
# and PostgreSQL's server programs (Debian: apt-get install postgresql).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-8}
LARGE=${LARGE:-10000}
LARGE2=${LARGE2:-0}
REAL=${REAL:-1}
CALLGRIND=${CALLGRIND:-0}
WARMUP=${WARMUP:-30}
NESTED=${NESTED:-1000}
WORK=${PLACEMENT_LOAD_DIR:-${CARGO_TARGET_DIR:-$PWD/target}/placement-load}
OURS_PORT=${OURS_PORT:-18801}
REAL_PORT=${REAL_PORT:-18802}
PG_PORT=${PG_PORT:-18803}
COPY_CAP=${COPY_CAP:-0}
WORKERS=2
mkdir -p "$WORK"

[ "$COPY_CAP" != 0 ] || command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }

# The real Placement, with its dependencies, gunicorn, psycopg2 and placeload.
wheel=$(grep -v '^#' examples/placement/interop/requirements-no-deps.txt | grep -m1 openstack-placement)
venv="$WORK/venv"
if [ "$COPY_CAP" = 0 ] && [ ! -f "$venv/ready-pg-$wheel" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" "gunicorn==27.0.1" \
    "psycopg2-binary" "placeload==0.3.0"
  touch "$venv/ready-pg-$wheel"
fi

echo "== building the example (release)"
cargo build --release --quiet --example placement
ours_bin="${CARGO_TARGET_DIR:-$PWD/target}/release/examples/placement"

rm -rf "$WORK/run" && mkdir -p "$WORK/run"

# PostgreSQL: a server of this script's own, as an unprivileged user when
# run as root.
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
pgbin=${PG_BINDIR:-${pgbin:-$(dirname "$(command -v initdb)")}}
as_pg=()
if [ "$(id -u)" = 0 ]; then
  id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  as_pg=(runuser -u postgres --)
fi
pgdir="$WORK/run/pg"
mkdir -p "$pgdir"
if [ ${#as_pg[@]} != 0 ]; then chown postgres "$pgdir"; fi
"${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -A trust -U placement --no-locale -E UTF8 --no-sync >/dev/null
"${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w -t 60 \
  -o "-p $PG_PORT -k $pgdir -c listen_addresses=127.0.0.1 -c max_connections=200 ${PG_OPTIONS:-}" start >/dev/null
PG="placement@127.0.0.1:$PG_PORT"
for db in ours real ours_perf real_perf ours_nested real_nested; do
  psql -q "postgres://$PG/postgres" -c "CREATE DATABASE $db"
done

pids=()
stop_servers() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
}
cleanup() {
  stop_servers
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

# The candidates copy, kept and capped, on $COPY_CAP providers (see above).
if [ "$COPY_CAP" != 0 ]; then
  AGG=aaaaaaaa-0000-4000-8000-00000000000a
  CAP_QUERY="resources=VCPU:1,DISK_GB:10,MEMORY_MB:256&member_of=$AGG&required=HW_CPU_X86_AVX2"
  V=(-H 'OpenStack-API-Version: placement 1.39')
  # A node on the database ours_perf, listening on port $1, with flags $2...
  start_node() {
    MIMALLOC_PURGE_DECOMMITS=1 "$ours_bin" --listen "127.0.0.1:$1" --database "postgres://$PG/ours_perf" \
      --request-deadline 60 "${@:2}" >>"$WORK/run/ours.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do curl -fs "${V[@]}" "http://127.0.0.1:$1/traits" >/dev/null 2>&1 && return 0; sleep 0.2; done
    echo "the node on $1 did not start" >&2
    exit 1
  }
  memory() {
    awk '/VmHWM|VmRSS/ {printf "%s %d MB  ", $1, $2 / 1024}' "/proc/$1/status"
    echo
  }
  best_and_median() {
    for _ in 1 2 3; do curl -fs -o /dev/null "${V[@]}" "$1/allocation_candidates?$2"; done
    for _ in $(seq 10); do
      curl -fs -o /dev/null -w '%{time_total}\n' "${V[@]}" "$1/allocation_candidates?$2"
    done | sort -n | awk '{t[NR] = $1} END {printf "best %.0f ms, median %.0f ms\n", t[1] * 1000, (t[5] + t[6]) * 500}'
  }
  start_node "$OURS_PORT"
  kept_pid=${pids[-1]}
  psql -q "postgres://$PG/ours_perf" <<SQL
INSERT INTO resource_providers (uuid, name, generation, created_at, updated_at)
  SELECT md5('rp' || g)::uuid::text, 'rp-' || g, 1, 0, 0 FROM generate_series(1, $COPY_CAP) g;
UPDATE resource_providers SET root_id = id;
INSERT INTO inventories (provider_id, resource_class, total, reserved, min_unit, max_unit, step_size,
                         allocation_ratio, created_at, updated_at)
  SELECT p.id, c.name, c.total, 0, 1, c.total, 1, 1.0, 0, 0 FROM resource_providers p,
  (VALUES ('VCPU', 32), ('MEMORY_MB', 131072), ('DISK_GB', 2048)) c(name, total);
INSERT INTO provider_traits (provider_id, trait) SELECT id, 'HW_CPU_X86_AVX2' FROM resource_providers;
INSERT INTO provider_traits (provider_id, trait) SELECT id, 'HW_CPU_X86_SSE' FROM resource_providers;
INSERT INTO provider_aggregates (provider_id, aggregate) SELECT id, '$AGG' FROM resource_providers;
VACUUM ANALYZE;
SQL
  start_node "$REAL_PORT" --cloud-copy-providers 1000
  capped_pid=${pids[-1]}
  echo "== the candidates copy at $COPY_CAP providers"
  for node in "kept $OURS_PORT $kept_pid" "capped $REAL_PORT $capped_pid"; do
    read -r name port pid <<<"$node"
    url="http://127.0.0.1:$port"
    echo "$name: perfload query: $(best_and_median "$url" "$CAP_QUERY")"
    echo "$name: with limit=10: $(best_and_median "$url" "$CAP_QUERY&limit=10")"
    for _ in $(seq 300); do curl -fs -o /dev/null "${V[@]}" "$url/resource_providers?name=rp-1"; done
    echo "$name: after 300 small requests: $(memory "$pid")"
  done
  if cmp -s <(curl -fs "${V[@]}" "http://127.0.0.1:$OURS_PORT/allocation_candidates?$CAP_QUERY") \
    <(curl -fs "${V[@]}" "http://127.0.0.1:$REAL_PORT/allocation_candidates?$CAP_QUERY"); then
    echo "the same answers"
  else
    echo "the answers differ" >&2
    exit 1
  fi
  exit 0
fi

# The real Placement's configuration directory on database $1, synced.
real_conf() {
  mkdir -p "$WORK/run/conf-$1"
  printf '%s\n' "[DEFAULT]" "debug = False" "[api]" "auth_strategy = noauth2" \
    "[placement_database]" "connection = postgresql+psycopg2://$PG/$1" >"$WORK/run/conf-$1/placement.conf"
  OS_PLACEMENT_CONFIG_DIR="$WORK/run/conf-$1" "$venv/bin/placement-manage" \
    --config-file "$WORK/run/conf-$1/placement.conf" db sync >/dev/null
}
real_conf real
real_conf real_perf
real_conf real_nested

H=(-H 'OpenStack-API-Version: placement 1.39' -H 'X-Auth-Token: admin' -H 'Content-Type: application/json')
wait_up() {
  for _ in $(seq 100); do
    curl -fs "${H[@]}" "$1/" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "$1 did not start" >&2
  exit 1
}
# Both servers, on the databases ours$1 and real$1.
start_servers() {
  "$ours_bin" --listen "127.0.0.1:$OURS_PORT" --database "postgres://$PG/ours$1" >>"$WORK/run/ours.log" 2>&1 &
  pids+=($!)
  wait_up "http://127.0.0.1:$OURS_PORT"
  if [ "$REAL" = 1 ]; then
    OS_PLACEMENT_CONFIG_DIR="$WORK/run/conf-real$1" "$venv/bin/gunicorn" --workers "$WORKERS" \
      --bind "127.0.0.1:$REAL_PORT" --log-level warning placement.wsgi.api:application >>"$WORK/run/real.log" 2>&1 &
    pids+=($!)
    wait_up "http://127.0.0.1:$REAL_PORT"
  fi
}
seed() {
  local base=$1
  for i in $(seq 1 "$CONNECTIONS"); do
    local uuid
    uuid=$(printf '00000000-0000-4000-8000-%012d' "$i")
    curl -fs "${H[@]}" -X POST "$base/resource_providers" -d "{\"name\": \"rp$i\", \"uuid\": \"$uuid\"}" >/dev/null
    curl -fs "${H[@]}" -X PUT "$base/resource_providers/$uuid/inventories" \
      -d '{"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 2000000000}, "MEMORY_MB": {"total": 1000000}}}' >/dev/null
  done
}

cat >"$WORK/run/mix.lua" <<'EOF'
local counter = 0
local threads = {}
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end
local step, generation, uuid, consumer = 0, 1, nil, 0
function init(args)
  uuid = string.format("00000000-0000-4000-8000-%012d", id)
  math.randomseed(id * 7919 + os.time())
end
wrk.headers["OpenStack-API-Version"] = "placement 1.39"
wrk.headers["X-Auth-Token"] = "admin"
wrk.headers["Content-Type"] = "application/json"
function request()
  step = step % 4 + 1
  if step == 1 then
    consumer = consumer + 1
    local c = string.format("%08x-%04x-4%03x-8%03x-%012x", id, consumer % 65536, math.random(0, 4095), math.random(0, 4095), consumer)
    local body = string.format('{"%s": {"allocations": {"%s": {"resources": {"VCPU": 1}}}, "project_id": "p", "user_id": "u", "consumer_generation": null, "consumer_type": "INSTANCE"}}', c, uuid)
    return wrk.format("POST", "/allocations", nil, body)
  elseif step == 2 then
    return wrk.format("GET", "/resource_providers")
  elseif step == 3 then
    return wrk.format("GET", "/resource_providers/" .. uuid .. "/inventories")
  else
    local body = string.format('{"resource_provider_generation": %d, "inventories": {"VCPU": {"total": 2000000000}, "MEMORY_MB": {"total": %d}}}', generation, 1000000 + consumer % 1000)
    return wrk.format("PUT", "/resource_providers/" .. uuid .. "/inventories", nil, body)
  end
end
function response(status, headers, body)
  local g = body and string.match(body, '"resource_provider_generation":%s*(%d+)')
  if g then generation = tonumber(g) end
end
function done(summary, latency, requests)
  local statuses = summary.errors.status
  io.write(string.format("RESULT %.0f %.2f %.2f %d %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, summary.requests, statuses))
end
EOF

name_of() { if [ "$1" = real ]; then echo "real Placement (gunicorn)"; else echo "this repository's (release)"; fi; }
port_of() { if [ "$1" = real ]; then echo "$REAL_PORT"; else echo "$OURS_PORT"; fi; }

# 1. The mix.
start_servers ""
seed "http://127.0.0.1:$OURS_PORT"
if [ "$REAL" = 1 ]; then seed "http://127.0.0.1:$REAL_PORT"; fi
printf '%-30s %10s %9s %9s %10s %8s\n' "server (PostgreSQL)" "req/s" "p50 ms" "p99 ms" requests non-2xx
servers=(ours)
if [ "$REAL" = 1 ]; then servers+=(real); fi
for which in "${servers[@]}"; do
  port=$(port_of $which)
  # A short warm-up, then the measured run.
  wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d 3s -s "$WORK/run/mix.lua" "http://127.0.0.1:$port" >/dev/null
  line=$(wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d "$DURATION" --timeout 10s -s "$WORK/run/mix.lua" \
    "http://127.0.0.1:$port" | grep '^RESULT')
  read -r _ rps p50 p99 requests non2xx <<<"$line"
  printf '%-30s %10s %9s %9s %10s %8s\n' "$(name_of $which)" "$rps" "$p50" "$p99" "$requests" "$non2xx"
done
stop_servers

# 2. Placement's perfload job (its gate/perfload-runner.sh): placeload's
# providers in its aggregate, then its query; and the two queries that
# select 10 providers.
AGGREGATE=14a5c8a3-5a99-4e8f-88be-00d85fcb1c17
QUERY="resources=VCPU:1,DISK_GB:10,MEMORY_MB:256&member_of=$AGGREGATE&required=HW_CPU_X86_AVX2"
AGG10=5e1ec7ed-0000-4000-8000-00000000a010
TREE10=5e1ec7ed-0000-4000-8000-000000000000
MEMBER_QUERY="resources=VCPU:1&member_of=$AGG10"
TREE_QUERY="resources=VCPU:1&in_tree=$TREE10"
# The best of ten times of query $2 on $1, and how many candidates it gave:
# $WARMUP untimed tries first (the same for both servers), so that neither
# is timed on what the load left cold: PostgreSQL's caches, and this
# example's pooled connections, each of which prepares the search's
# statements on its first use (docs/16-placement.md: the best of the
# example's first ten queries after a load was 10.1 ms, of sixty later
# ones 7.2 ms).
query_time() {
  local times=() t
  for _ in $(seq "$WARMUP"); do
    curl -fs -o /dev/null -H 'OpenStack-API-Version: placement latest' -H 'X-Auth-Token: admin' \
      "$1/allocation_candidates?$2"
  done
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    t=$(curl -fs -o "$WORK/run/candidates.json" -w '%{time_total}' -H 'OpenStack-API-Version: placement latest' \
      -H 'X-Auth-Token: admin' "$1/allocation_candidates?$2")
    times+=("$t")
  done
  python3 - "$WORK/run/candidates.json" "${times[@]}" <<'EOF'
import json, sys
n = len(json.load(open(sys.argv[1]))["allocation_requests"])
print(f"{min(map(float, sys.argv[2:])):.4f} {n}")
EOF
}
# Seconds for command "$@" to run.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >"$WORK/run/load.log" 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}
# Placeload's $2 providers on $1, at most 9,000 a run: placeload runs a
# fifth of its providers at once, each on a connection of its own, and
# 18,000 at once fail.
placeload() {
  local left=$2
  while [ "$left" -gt 0 ]; do
    "$venv/bin/placeload" "$1" $((left < 9000 ? left : 9000))
    left=$((left - 9000))
  done
}
# A provider $2 (child of $3 if given) on $1 with inventory; its generation
# is 1 then.
provider() {
  local parent=${3:+, \"parent_provider_uuid\": \"$3\"}
  curl -fs "${H[@]}" -X POST "$1/resource_providers" -d "{\"name\": \"$2\", \"uuid\": \"$2\"$parent}" >/dev/null
  curl -fs "${H[@]}" -X PUT "$1/resource_providers/$2/inventories" \
    -d '{"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 8}, "MEMORY_MB": {"total": 4096}}}' >/dev/null
}
sel_uuid() { printf '5e1ec7ed-0000-4000-8000-%012d' "$1"; }
# Ten providers of their own in aggregate $AGG10 on $1.
add_member10() {
  for i in $(seq 101 110); do
    provider "$1" "$(sel_uuid "$i")"
    curl -fs "${H[@]}" -X PUT "$1/resource_providers/$(sel_uuid "$i")/aggregates" \
      -d "{\"resource_provider_generation\": 1, \"aggregates\": [\"$AGG10\"]}" >/dev/null
  done
}
# The tree $TREE10 of 10 providers on $1 (a root and nine children); its
# deletion, children first.
add_tree10() {
  provider "$1" "$TREE10"
  for i in $(seq 1 9); do provider "$1" "$(sel_uuid "$i")" "$TREE10"; done
}
del_tree10() {
  for i in $(seq 1 9); do curl -fs "${H[@]}" -X DELETE "$1/resource_providers/$(sel_uuid "$i")" >/dev/null; done
  curl -fs "${H[@]}" -X DELETE "$1/resource_providers/$TREE10" >/dev/null
}
declare -A RESULT
# Database $1 vacuumed and analysed after a load, as a cloud's database is
# in its steady state: no query of either server is timed while autovacuum
# works through the rows just loaded, nor planned on statistics of an
# empty table.
settle() {
  psql -q "postgres://$PG/$1" -c "VACUUM ANALYZE"
}
# Adds $3 providers with placeload on server $1 (at $2) to reach $4, then
# times the three queries there: one line of the table.
measure() {
  local which=$1 base=$2 add=$3 size=$4 load q qn m mn t tn
  load=$(seconds placeload "$base" "$add")
  settle "${which}_perf"
  read -r q qn <<<"$(query_time "$base" "$QUERY")"
  read -r m mn <<<"$(query_time "$base" "$MEMBER_QUERY")"
  add_tree10 "$base"
  read -r t tn <<<"$(query_time "$base" "$TREE_QUERY")"
  del_tree10 "$base"
  RESULT[$which,$size,q]=$q
  RESULT[$which,$size,m]=$m
  RESULT[$which,$size,t]=$t
  printf '%-30s %9s %9s %18s %18s %18s\n' "$(name_of "$which")" "$size" "$load" "$q ($qn)" "$m ($mn)" "$t ($tn)"
}
ratio() { python3 -c "print(f'{$1 / $2:.1f}')"; }
# This example under callgrind on the perfload database: the instructions
# of one perfload query, the mean of three after two untimed ones.
instructions() {
  local port=$((OURS_PORT + 10)) pid file
  valgrind --tool=callgrind --callgrind-out-file="$WORK/run/callgrind.%p" \
    "$ours_bin" --listen "127.0.0.1:$port" --database "postgres://$PG/ours_perf" >>"$WORK/run/ours.log" 2>&1 &
  pid=$!
  for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
  perfload_query() { curl -fs -o /dev/null -H 'OpenStack-API-Version: placement latest' -H 'X-Auth-Token: admin' \
    "http://127.0.0.1:$port/allocation_candidates?$QUERY"; }
  perfload_query && perfload_query
  callgrind_control -z "$pid" >/dev/null 2>&1
  perfload_query && perfload_query && perfload_query
  callgrind_control -d "$pid" >/dev/null 2>&1
  kill "$pid" && wait "$pid" 2>/dev/null || true
  file="$WORK/run/callgrind.$pid.1"
  echo "ours under callgrind, 1000 providers: $(callgrind_annotate "$file" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); printf "%.1f M", $1 / 3e6}') instructions per perfload query"
}
start_servers _perf
printf '\n%-30s %9s %9s %18s %18s %18s\n' "server (PostgreSQL)" providers "load s" "perfload q s (n)" \
  "member_of 10 s (n)" "in_tree 10 s (n)"
sizes=(1000)
if [ "$LARGE" -gt 1000 ]; then sizes+=("$LARGE"); fi
for which in "${servers[@]}"; do
  base="http://127.0.0.1:$(port_of $which)"
  add_member10 "$base"
  have=10
  for size in "${sizes[@]}"; do
    measure "$which" "$base" $((size - have)) "$size"
    have=$size
    if [ "$which" = ours ] && [ "$size" = 1000 ] && [ "$CALLGRIND" = 1 ]; then instructions; fi
  done
  if [ "$which" = ours ] && [ "$LARGE2" -gt "$have" ]; then
    measure ours "$base" $((LARGE2 - have)) "$LARGE2"
  fi
done
stop_servers
echo
if [ "$REAL" = 1 ]; then
  for size in "${sizes[@]}"; do
    echo "perfload query at $size providers: the real Placement's time / ours: $(ratio "${RESULT[real,$size,q]}" "${RESULT[ours,$size,q]}")"
  done
fi
more=("${sizes[@]:1}")
if [ "$LARGE2" -gt 1000 ]; then more+=("$LARGE2"); fi
for size in "${more[@]}"; do
  echo "ours at $size providers / at 1000: member_of 10 $(ratio "${RESULT[ours,$size,m]}" "${RESULT[ours,1000,m]}")," \
    "in_tree 10 $(ratio "${RESULT[ours,$size,t]}" "${RESULT[ours,1000,t]}")"
done

# 3. Placement's nested perfload job: $NESTED trees, then its query.
NESTED_QUERY="resources=DISK_GB:10&required=COMPUTE_VOLUME_MULTI_ATTACH&resources_COMPUTE=VCPU:1,MEMORY_MB:256&required_COMPUTE=CUSTOM_FOO&resources_FPGA=FPGA:1&group_policy=none&same_subtree=_COMPUTE,_FPGA"
cat >"$WORK/run/nested.py" <<'EOF'
# Placement's gate/gabbits/nested-perfload.yaml, argv[2] times on argv[1],
# 8 trees at once.
import concurrent.futures, http.client, json, sys, urllib.parse, uuid

base = urllib.parse.urlsplit(sys.argv[1])
HEADERS = {"OpenStack-API-Version": "placement latest", "X-Auth-Token": "admin",
           "Content-Type": "application/json", "Accept": "application/json"}
NUMA0 = {"VCPU": {"total": 4, "reserved": 2},
         "MEMORY_MB": {"total": 2048, "min_unit": 512, "step_size": 256}}
NUMA1 = {"VCPU": {"total": 4}, "MEMORY_MB": {"total": 2048, "min_unit": 256, "max_unit": 1024}}

def call(conn, method, path, body=None):
    conn.request(method, path, json.dumps(body) if body is not None else None, HEADERS)
    res = conn.getresponse()
    res.read()
    if res.status >= 300:
        raise SystemExit(f"{method} {path}: {res.status}")

def provider(conn, name, inventories, traits=(), parent=None):
    uu = str(uuid.uuid4())
    body = {"uuid": uu, "name": f"{name}-{uu}"}
    if parent:
        body["parent_provider_uuid"] = parent
    call(conn, "POST", "/resource_providers", body)
    call(conn, "PUT", f"/resource_providers/{uu}/inventories",
         {"resource_provider_generation": 0, "inventories": inventories})
    if traits:
        call(conn, "PUT", f"/resource_providers/{uu}/traits",
             {"resource_provider_generation": 1, "traits": list(traits)})
    return uu

def tree(_):
    conn = http.client.HTTPConnection(base.hostname, base.port)
    cn1 = provider(conn, "cn1", {"DISK_GB": {"total": 20480}}, ["COMPUTE_VOLUME_MULTI_ATTACH"])
    n0 = provider(conn, "numa 0", NUMA0, ["HW_NUMA_ROOT"], cn1)
    provider(conn, "fpga0-0", {"FPGA": {"total": 1}}, parent=n0)
    provider(conn, "pgpu0-0", {"VGPU": {"total": 8}}, parent=n0)
    n1 = provider(conn, "numa 1", NUMA1, ["HW_NUMA_ROOT", "CUSTOM_FOO"], cn1)
    provider(conn, "fpga1-0", {"FPGA": {"total": 1}}, parent=n1)
    provider(conn, "fpga1-1", {"FPGA": {"total": 1}}, parent=n1)
    conn.close()

conn = http.client.HTTPConnection(base.hostname, base.port)
call(conn, "PUT", "/traits/CUSTOM_FOO")
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    list(pool.map(tree, range(int(sys.argv[2]))))
EOF
if [ "$NESTED" -gt 0 ]; then
  start_servers _nested
  printf '\n%-30s %9s %9s %18s\n' "server (PostgreSQL)" trees "load s" "nested q s (n)"
  for which in "${servers[@]}"; do
    base="http://127.0.0.1:$(port_of $which)"
    load=$(seconds "$venv/bin/python" "$WORK/run/nested.py" "$base" "$NESTED")
    settle "${which}_nested"
    read -r q qn <<<"$(query_time "$base" "$NESTED_QUERY")"
    RESULT[$which,nested]=$q
    printf '%-30s %9s %9s %18s\n' "$(name_of $which)" "$NESTED" "$load" "$q ($qn)"
  done
  stop_servers
  if [ "$REAL" = 1 ]; then
    echo "nested perfload query: the real Placement's time / ours: $(ratio "${RESULT[real,nested]}" "${RESULT[ours,nested]}")"
  fi
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); wrk -t$CONNECTIONS -c$CONNECTIONS -d$DURATION"
