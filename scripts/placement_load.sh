#!/usr/bin/env bash
# The same request mix against this repository's Placement (the example,
# release build) and the real Placement from the same wheel as the gabbi
# tests (examples/placement/interop/requirements-no-deps.txt), each on
# SQLite, on loopback, with wrk; prints requests per second and p99 for both.
#
#   scripts/placement_load.sh            # 20 s per server, 8 connections
#   DURATION=60s CONNECTIONS=16 scripts/placement_load.sh
#
# The real Placement runs under gunicorn (`placement.wsgi.api:application`,
# its WSGI entry point) with as many sync workers as this example has actix
# workers (2), `auth_strategy = noauth2`, and `[placement_database]
# connection = sqlite:///...`; it is installed WITH its dependencies into a
# virtual environment of this script's own ($WORK/venv, reused).
#
# The mix, one wrk connection per thread so each connection keeps its own
# provider's generation: POST /allocations (a new consumer, 1 VCPU),
# GET /resource_providers, GET /resource_providers/{uuid}/inventories
# (reads the generation), PUT /resource_providers/{uuid}/inventories (with
# it), in turn, at microversion 1.39.
#
# Needs python3 with venv, PyPI, wrk (Debian: apt-get install wrk), curl.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
CONNECTIONS=${CONNECTIONS:-8}
WORK=${PLACEMENT_LOAD_DIR:-${CARGO_TARGET_DIR:-$PWD/target}/placement-load}
OURS_PORT=${OURS_PORT:-18801}
REAL_PORT=${REAL_PORT:-18802}
WORKERS=2
mkdir -p "$WORK"

command -v wrk >/dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }

# The real Placement, with its dependencies, and gunicorn.
wheel=$(grep -v '^#' examples/placement/interop/requirements-no-deps.txt | grep -m1 openstack-placement)
venv="$WORK/venv"
if [ ! -f "$venv/ready-$wheel" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" "gunicorn==27.0.1"
  touch "$venv/ready-$wheel"
fi

echo "== building the example (release)"
cargo build --release --quiet --example placement
ours_bin="${CARGO_TARGET_DIR:-$PWD/target}/release/examples/placement"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap cleanup EXIT

rm -rf "$WORK/run" && mkdir -p "$WORK/run/conf"
cat >"$WORK/run/conf/placement.conf" <<EOF
[DEFAULT]
debug = False
[api]
auth_strategy = noauth2
[placement_database]
connection = sqlite:///$WORK/run/real.sqlite
EOF
export OS_PLACEMENT_CONFIG_DIR="$WORK/run/conf"
"$venv/bin/placement-manage" --config-file "$WORK/run/conf/placement.conf" db sync >/dev/null

"$ours_bin" --listen "127.0.0.1:$OURS_PORT" --database "$WORK/run/ours.sqlite" >"$WORK/run/ours.log" 2>&1 &
pids+=($!)
"$venv/bin/gunicorn" --workers "$WORKERS" --bind "127.0.0.1:$REAL_PORT" --log-level warning \
  placement.wsgi.api:application >"$WORK/run/real.log" 2>&1 &
pids+=($!)

H=(-H 'OpenStack-API-Version: placement 1.39' -H 'X-Auth-Token: admin' -H 'Content-Type: application/json')
wait_up() {
  for _ in $(seq 100); do
    curl -fs "${H[@]}" "$1/" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "$1 did not start" >&2
  exit 1
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

wait_up "http://127.0.0.1:$OURS_PORT"
wait_up "http://127.0.0.1:$REAL_PORT"
seed "http://127.0.0.1:$OURS_PORT"
seed "http://127.0.0.1:$REAL_PORT"

printf '%-34s %10s %9s %9s %10s %8s\n' server "req/s" "p50 ms" "p99 ms" requests non-2xx
for which in ours real; do
  port=$OURS_PORT name="this repository's (release, SQLite)"
  [ "$which" = real ] && port=$REAL_PORT name="real Placement (gunicorn, SQLite)"
  # A short warm-up, then the measured run.
  wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d 3s -s "$WORK/run/mix.lua" "http://127.0.0.1:$port" >/dev/null
  line=$(wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d "$DURATION" --timeout 10s -s "$WORK/run/mix.lua" \
    "http://127.0.0.1:$port" | grep '^RESULT')
  read -r _ rps p50 p99 requests non2xx <<<"$line"
  printf '%-34s %10s %9s %9s %10s %8s\n' "$name" "$rps" "$p50" "$p99" "$requests" "$non2xx"
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); wrk -t$CONNECTIONS -c$CONNECTIONS -d$DURATION"
