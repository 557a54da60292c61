//! The placement example as a binary target, `placement-node`: the very
//! program of `cargo run --example placement`, which integration tests can
//! start as whole processes (`env!("CARGO_BIN_EXE_placement-node")`).

#[path = "main.rs"]
mod example;

fn main() -> std::io::Result<()> {
    example::main()
}
