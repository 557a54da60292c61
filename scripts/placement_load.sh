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
#    the best of five times of the job's allocation-candidates query; then
#    again at $LARGE providers.
#
#   scripts/placement_load.sh            # 20 s per server, 8 connections
#   DURATION=60s CONNECTIONS=16 LARGE=0 scripts/placement_load.sh
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
WORK=${PLACEMENT_LOAD_DIR:-${CARGO_TARGET_DIR:-$PWD/target}/placement-load}
OURS_PORT=${OURS_PORT:-18801}
REAL_PORT=${REAL_PORT:-18802}
PG_PORT=${PG_PORT:-18803}
WORKERS=2
mkdir -p "$WORK"

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }

# The real Placement, with its dependencies, gunicorn, psycopg2 and placeload.
wheel=$(grep -v '^#' examples/placement/interop/requirements-no-deps.txt | grep -m1 openstack-placement)
venv="$WORK/venv"
if [ ! -f "$venv/ready-pg-$wheel" ]; then
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
  -o "-p $PG_PORT -k $pgdir -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
PG="placement@127.0.0.1:$PG_PORT"
for db in ours real ours_perf real_perf; do
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
  OS_PLACEMENT_CONFIG_DIR="$WORK/run/conf-real$1" "$venv/bin/gunicorn" --workers "$WORKERS" \
    --bind "127.0.0.1:$REAL_PORT" --log-level warning placement.wsgi.api:application >>"$WORK/run/real.log" 2>&1 &
  pids+=($!)
  wait_up "http://127.0.0.1:$OURS_PORT"
  wait_up "http://127.0.0.1:$REAL_PORT"
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
seed "http://127.0.0.1:$REAL_PORT"
printf '%-30s %10s %9s %9s %10s %8s\n' "server (PostgreSQL)" "req/s" "p50 ms" "p99 ms" requests non-2xx
for which in ours real; do
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
# providers in its aggregate, then its query.
AGGREGATE=14a5c8a3-5a99-4e8f-88be-00d85fcb1c17
QUERY="resources=VCPU:1,DISK_GB:10,MEMORY_MB:256&member_of=$AGGREGATE&required=HW_CPU_X86_AVX2"
# The best of five times of the query on $1, and how many candidates it gave.
query_time() {
  local times=() t
  for _ in 1 2 3 4 5; do
    t=$(curl -fs -o "$WORK/run/candidates.json" -w '%{time_total}' -H 'OpenStack-API-Version: placement latest' \
      -H 'X-Auth-Token: admin' "$1/allocation_candidates?$QUERY")
    times+=("$t")
  done
  python3 - "$WORK/run/candidates.json" "${times[@]}" <<'EOF'
import json, sys
n = len(json.load(open(sys.argv[1]))["allocation_requests"])
print(f"{min(map(float, sys.argv[2:])):.3f} {n}")
EOF
}
# Seconds for placeload to add $2 providers on $1.
load_time() {
  local start end
  start=$(date +%s.%N)
  "$venv/bin/placeload" "$1" "$2" >"$WORK/run/placeload.log" 2>&1
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.2f}')"
}
start_servers _perf
printf '\n%-30s %12s %16s %16s\n' "server (PostgreSQL)" "load 1000 s" "query s (n)" "at $LARGE s (n)"
for which in ours real; do
  base="http://127.0.0.1:$(port_of $which)"
  load=$(load_time "$base" 1000)
  read -r q1 n1 <<<"$(query_time "$base")"
  large=-
  if [ "$LARGE" -gt 1000 ]; then
    load_time "$base" $((LARGE - 1000)) >/dev/null
    read -r q2 n2 <<<"$(query_time "$base")"
    large="$q2 ($n2)"
  fi
  printf '%-30s %12s %16s %16s\n' "$(name_of $which)" "$load" "$q1 ($n1)" "$large"
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); wrk -t$CONNECTIONS -c$CONNECTIONS -d$DURATION"
