//! The compute example as a binary target, `compute-node`: the very program
//! of `cargo run --example compute`, which integration tests can start as
//! whole processes (`env!("CARGO_BIN_EXE_compute-node")`).

#[path = "main.rs"]
mod example;

fn main() -> std::io::Result<()> {
    example::main()
}
