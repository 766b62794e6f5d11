//! A lender that writes down what it was told, in order. Shared by
//! `tests/lending.rs` and the unit tests of `crates/sandbox/src/sandbox/lend.rs`, which
//! both include this file by its path (`#[path]`) rather than through
//! `common/mod.rs`: each has the sandbox's `Lender` trait in scope under
//! that name (`grundy::sandbox::Lender` in one, the crate's own in the
//! other), and this file takes it from there.

use std::cell::RefCell;

use super::Lender;

/// Says yes to every idle run and keeps `idle` / `busy` as they come.
#[derive(Default)]
pub struct Heard(pub RefCell<Vec<&'static str>>);

impl Lender for Heard {
    fn idle(&self) -> bool {
        self.0.borrow_mut().push("idle");
        true
    }
    fn busy(&self) {
        self.0.borrow_mut().push("busy");
    }
}
