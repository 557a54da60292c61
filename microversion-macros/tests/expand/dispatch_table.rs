// Input of the expansion snapshot (see `src/lib.rs`, `expansion_snapshot`):
// a helper whose bounded variants are listed in a `match` (a jump table),
// with a gap, a range across major versions and an open end left to the tree.
#[controller(api = COMPUTE)]
impl Servers {
    #[api_version("2.1", "2.1")]
    fn view(&self) -> u8 {
        1
    }

    #[api_version("2.2", "2.3")]
    fn view(&self) -> u8 {
        2
    }

    #[api_version("2.5", "2.5")]
    fn view(&self) -> u8 {
        3
    }

    #[api_version("2.6", "3.1")]
    fn view(&self) -> u8 {
        4
    }

    #[api_version("3.2")]
    fn view(&self) -> u8 {
        5
    }
}
