//! Procedural macros of `microversion`. An implementation detail: use them
//! through `microversion-actix`, which re-exports them and documents them.
