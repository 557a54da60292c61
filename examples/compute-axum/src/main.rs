//! The compute example's program (examples/compute/main.rs), served by
//! axum: its `compute` is this crate.

extern crate compute_axum as compute;

#[path = "../../compute/main.rs"]
mod example;

fn main() -> std::io::Result<()> {
    example::main()
}
