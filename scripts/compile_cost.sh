#!/usr/bin/env bash
# Compile-time cost of #[controller] (docs/performance.md): generates two crates with the
# same 100 operations x 4 variants, one as a #[controller], one written by
# hand (the variants as plain functions, one actix handler per operation
# choosing its variant with `ApiVersion::is_in`, registered by hand, under
# the same middleware), then times a debug `cargo build` of each crate after
# a warm build of the dependencies, and prints both times and the ratio.
#
#   scripts/compile_cost.sh           # 3 timed builds of each crate (wall and cpu time;
#                                     # the last line, wall time, is what load.sh reads)
#   RUNS=5 OPS=100 VARIANTS=4 scripts/compile_cost.sh
#
# The generated crates live under target/compile-cost (never in the repo),
# with their own target directory so the timing does not wait on other builds.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

RUNS=${RUNS:-3}
OPS=${OPS:-100}
VARIANTS=${VARIANTS:-4}

target_dir=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
root="$target_dir/compile-cost"
mkdir -p "$root/macro/src" "$root/plain/src"

history() {
    local v
    for v in $(seq 1 "$VARIANTS"); do printf '    Microversion::new("2.%d", "Change %d."),\n' "$v" "$v"; done
}

# Variant j serves exactly 2.(j+1); the last serves 2.VARIANTS and later.
range_args() {
    local j=$1 minor=$(($1 + 1))
    if [ "$minor" = "$VARIANTS" ]; then printf '"2.%d"' "$minor"; else printf '"2.%d", "2.%d"' "$minor" "$minor"; fi
}
range_expr() {
    local j=$1 minor=$(($1 + 1))
    if [ "$minor" = "$VARIANTS" ]; then
        printf 'VersionRange::from(Version::new(2, %d))' "$minor"
    else
        printf 'VersionRange::only(Version::new(2, %d))' "$minor"
    fi
}

manifest() {
    cat <<EOF
[package]
name = "compile-cost-$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
microversion-actix = { path = "$repo/microversion-actix" }
actix-web = { version = "4", default-features = false, features = ["macros"] }
EOF
}

cat >"$root/Cargo.toml" <<EOF
[workspace]
resolver = "3"
members = ["macro", "plain"]
EOF
[ -f "$root/Cargo.lock" ] || cp "$repo/Cargo.lock" "$root/Cargo.lock"
manifest macro >"$root/macro/Cargo.toml"
manifest plain >"$root/plain/Cargo.toml"

{
    echo "//! $OPS operations x $VARIANTS variants as one #[controller]."
    echo "use actix_web::{HttpResponse, web};"
    echo "use microversion_actix::{Api, Microversion, VersionNegotiation, controller};"
    echo "pub const API: Api = Api::new(\"compute\", &["
    history
    echo "]);"
    echo "pub struct Ops;"
    echo "#[controller(api = API, scope = \"/ops\")]"
    echo "impl Ops {"
    for i in $(seq 0 $((OPS - 1))); do
        for j in $(seq 0 $((VARIANTS - 1))); do
            echo "    #[get(\"/op$i/{id}\")]"
            echo "    #[api_version($(range_args "$j"))]"
            echo "    async fn op$i(&self, id: web::Path<u32>) -> HttpResponse {"
            echo "        HttpResponse::Ok().body(format!(\"op$i v$j {}\", *id))"
            echo "    }"
        done
    done
    echo "}"
    echo "pub fn configure(cfg: &mut web::ServiceConfig) {"
    echo "    cfg.service(web::scope(\"/v2.1\").wrap(VersionNegotiation::new(API)).service(Ops));"
    echo "}"
} >"$root/macro/src/lib.rs"

{
    echo "//! The same $OPS operations x $VARIANTS variants written by hand."
    echo "use actix_web::http::StatusCode;"
    echo "use actix_web::{HttpResponse, web};"
    echo "use microversion_actix::{Api, ApiError, ApiVersion, Microversion, Version, VersionNegotiation, version::VersionRange};"
    echo "pub const API: Api = Api::new(\"compute\", &["
    history
    echo "]);"
    for i in $(seq 0 $((OPS - 1))); do
        for j in $(seq 0 $((VARIANTS - 1))); do
            echo "async fn op${i}_v$j(id: web::Path<u32>) -> HttpResponse {"
            echo "    HttpResponse::Ok().body(format!(\"op$i v$j {}\", *id))"
            echo "}"
        done
        echo "async fn op$i(version: ApiVersion, id: web::Path<u32>) -> Result<HttpResponse, ApiError> {"
        for j in $(seq 0 $((VARIANTS - 1))); do
            if [ "$j" = 0 ]; then kw="    if"; else kw="    } else if"; fi
            echo "$kw version.is_in($(range_expr "$j")) {"
            echo "        Ok(op${i}_v$j(id).await)"
        done
        echo "    } else {"
        echo "        Err(ApiError::method_not_at_version(version.version(), StatusCode::NOT_FOUND))"
        echo "    }"
        echo "}"
    done
    echo "pub fn configure(cfg: &mut web::ServiceConfig) {"
    echo "    cfg.service("
    echo "        web::scope(\"/v2.1\").wrap(VersionNegotiation::new(API)).service("
    echo "            web::scope(\"/ops\")"
    for i in $(seq 0 $((OPS - 1))); do
        echo "                .route(\"/op$i/{id}\", web::get().to(op$i))"
    done
    echo "        ),"
    echo "    );"
    echo "}"
} >"$root/plain/src/lib.rs"

export CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$root/target"
echo "== warm build of the dependencies (debug, $root/target)"
(cd "$root" && cargo build -q --workspace)

# One timed build: prints "wall cpu" in seconds (cpu: user + system time of
# the build's processes, which other load on a shared machine disturbs less).
seconds() {
    local out
    touch "$root/$1/src/lib.rs"
    out=$( { TIMEFORMAT='%R %U %S'; time (cd "$root" && cargo build -q -p "compile-cost-$1") >&2; } 2>&1 | tail -n1)
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$out"
}

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "$(rustc --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $OPS operations x $VARIANTS variants; debug build of the crate alone, $RUNS runs each, alternating"
times_macro=()
times_plain=()
cpu_macro=()
cpu_plain=()
for run in $(seq 1 "$RUNS"); do
    if [ $((run % 2)) = 1 ]; then order="macro plain"; else order="plain macro"; fi
    for side in $order; do
        read -r t c < <(seconds "$side")
        printf "run %d %-6s %6.2f s wall, %6.2f s cpu\n" "$run" "$side" "$t" "$c"
        if [ "$side" = macro ]; then times_macro+=("$t"); cpu_macro+=("$c"); else times_plain+=("$t"); cpu_plain+=("$c"); fi
    done
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
m=$(median "${times_macro[@]}")
p=$(median "${times_plain[@]}")
mc=$(median "${cpu_macro[@]}")
pc=$(median "${cpu_plain[@]}")
printf "== median cpu: #[controller] %.2f s, by hand %.2f s, ratio %.2f\n" "$mc" "$pc" "$(awk -v m="$mc" -v p="$pc" 'BEGIN { print m / p }')"
printf "== median: #[controller] %.2f s, by hand %.2f s, ratio %.2f\n" "$m" "$p" "$(awk -v m="$m" -v p="$p" 'BEGIN { print m / p }')"
lines_macro=$(wc -l <"$root/macro/src/lib.rs")
lines_plain=$(wc -l <"$root/plain/src/lib.rs")
echo "== source lines: #[controller] $lines_macro, by hand $lines_plain"
echo "== load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
