//! Summarizes a criterion run of `microversion-benches` as Markdown tables:
//! the median of every benchmark, and each framework/generated measurement
//! divided by its baseline (plain, direct, hand-written) from the same run,
//! and each borrowed model rendering divided by the owned one.
//!
//! `bench_report [CRITERION_DIR]`, by default `$CRITERION_HOME` or
//! `target/criterion`. Only the latest run (`new/`) of each benchmark is read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A benchmark's identity and its median time per iteration, in ns.
struct Measurement {
    group: String,
    function: String,
    value: String,
    median_ns: f64,
    elements: Option<f64>,
}

const CANDIDATES: [&str; 3] = ["framework", "generated", "borrowed"];
const BASELINES: [&str; 5] = ["plain", "direct", "hand_match", "hand_if_chain", "owned"];

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn collect(dir: &Path, out: &mut Vec<Measurement>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            let (Some(id), Some(estimates)) =
                (read_json(&path.join("benchmark.json")), read_json(&path.join("estimates.json")))
            else {
                continue;
            };
            let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            out.push(Measurement {
                group: text(&id["group_id"]),
                function: text(&id["function_id"]),
                value: text(&id["value_str"]),
                median_ns: estimates["median"]["point_estimate"].as_f64().unwrap_or(f64::NAN),
                elements: id["throughput"]["Elements"].as_f64(),
            });
        } else {
            collect(&path, out);
        }
    }
}

fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn main() {
    let dir = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("CRITERION_HOME").map_or_else(|| PathBuf::from("target/criterion"), PathBuf::from)
    });
    let mut all = Vec::new();
    collect(&dir, &mut all);
    if all.is_empty() {
        eprintln!("bench_report: no criterion results under {}", dir.display());
        std::process::exit(1);
    }
    all.sort_by(|a, b| (&a.group, &a.function, &a.value).cmp(&(&b.group, &b.function, &b.value)));

    println!("| benchmark | median | per call |\n| --- | ---: | ---: |");
    for m in &all {
        let name = [m.group.as_str(), m.function.as_str(), m.value.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("/");
        let per = m.elements.map_or_else(String::new, |n| human(m.median_ns / n));
        println!("| `{name}` | {} | {per} |", human(m.median_ns));
    }

    let index: BTreeMap<(&str, &str, &str), f64> = all
        .iter()
        .map(|m| ((m.group.as_str(), m.function.as_str(), m.value.as_str()), m.median_ns))
        .collect();
    println!("\n| ratio (same run) | value |\n| --- | ---: |");
    for m in all.iter().filter(|m| CANDIDATES.contains(&m.function.as_str())) {
        for baseline in BASELINES {
            if let Some(base) = index.get(&(m.group.as_str(), baseline, m.value.as_str())) {
                let suffix = if m.value.is_empty() { String::new() } else { format!(" ({})", m.value) };
                println!(
                    "| `{}`: {} / {baseline}{suffix} | {:.3} |",
                    m.group,
                    m.function,
                    m.median_ns / base
                );
            }
        }
    }
}
