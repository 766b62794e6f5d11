//! The input format of each catalog problem, as the catalog table of
//! docs/reference.md states it; each catalog entry names its own in
//! `Entry::format`.

use super::{Bound, Framing, InputFormat, field};

/// A single-case pile input: `n`, then `n` piles.
fn piles(n_max: u64, a_max: u64) -> InputFormat {
    InputFormat {
        framing: Framing::Single,
        list_len: Some(field("n", Bound::new(1, n_max))),
        fixed: Vec::new(),
        item: field("a_i", Bound::new(1, a_max)),
        distinct: false,
        one_line: false,
    }
}

/// Lines `a b` until the end of the input.
fn pairs(max_lines: u64, max: u64) -> InputFormat {
    InputFormat {
        framing: Framing::UntilEof { max: max_lines },
        list_len: None,
        fixed: vec![
            field("a", Bound::new(0, max)),
            field("b", Bound::new(0, max)),
        ],
        item: field("-", Bound::new(0, 0)),
        distinct: false,
        one_line: true,
    }
}

const E9: u64 = 1_000_000_000;

/// `nim`.
pub fn nim() -> InputFormat {
    piles(100, 10_000)
}

/// `nim-yes-no`, `misere-nim`, `nim-winning-move`.
pub fn large_piles() -> InputFormat {
    piles(100_000, E9)
}

/// `matches-game`.
pub fn matches_game() -> InputFormat {
    InputFormat {
        framing: Framing::UntilEof { max: u64::MAX },
        list_len: Some(field("M", Bound::new(1, 20))),
        item: field("a_i", Bound::new(1, 10_000_000)),
        one_line: true,
        ..piles(0, 0)
    }
}

/// `john`.
pub fn john() -> InputFormat {
    InputFormat {
        framing: Framing::Counted(Bound::new(1, 474)),
        ..piles(47, 4747)
    }
}

/// `bash-game`.
pub fn bash_game() -> InputFormat {
    InputFormat {
        framing: Framing::Counted(Bound::new(1, 100)),
        list_len: None,
        fixed: vec![
            field("n", Bound { min: 1, max: 1000 }),
            field("m", Bound { min: 1, max: 1000 }),
        ],
        one_line: true,
        ..piles(0, 0)
    }
}

/// `bounded-nim`.
pub fn bounded_nim() -> InputFormat {
    InputFormat {
        fixed: vec![field("k", Bound { min: 1, max: E9 })],
        ..piles(100_000, E9)
    }
}

/// `wythoff`.
pub fn wythoff() -> InputFormat {
    pairs(u64::MAX, E9)
}

/// `wythoff-large`.
pub fn wythoff_large() -> InputFormat {
    pairs(100_000, 1_000_000_000_000_000_000)
}

/// `nim-count-moves`.
pub fn nim_count_moves() -> InputFormat {
    InputFormat {
        framing: Framing::UntilZero,
        one_line: true,
        ..piles(1000, E9)
    }
}

/// `staircase-nim`.
pub fn staircase_nim() -> InputFormat {
    InputFormat {
        framing: Framing::Counted(Bound::new(1, 20)),
        list_len: Some(field("N", Bound::new(1, 1000))),
        item: field("P_i", Bound::new(1, 10_000)),
        distinct: true,
        ..piles(0, 0)
    }
}

/// `new-stone-game`.
pub fn new_stone_game() -> InputFormat {
    InputFormat {
        framing: Framing::UntilZero,
        ..piles(10, 100)
    }
}
