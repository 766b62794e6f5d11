//! Reference solution: the player to move loses exactly when n is a
//! multiple of 4 (every move from there can be answered to reach the next
//! multiple of 4, down to 0).

use std::io::{self, Read, Write};

fn main() {
    let mut text = String::new();
    if io::stdin().read_to_string(&mut text).is_err() {
        std::process::exit(1);
    }
    let mut numbers = text.split_ascii_whitespace().map(|t| t.parse::<u64>());
    let games = match numbers.next() {
        Some(Ok(t)) => t,
        _ => std::process::exit(1),
    };
    let mut out = String::new();
    for _ in 0..games {
        match numbers.next() {
            Some(Ok(n)) => out.push_str(if n % 4 == 0 { "Second\n" } else { "First\n" }),
            _ => std::process::exit(1),
        }
    }
    let _ = io::stdout().write_all(out.as_bytes());
}
