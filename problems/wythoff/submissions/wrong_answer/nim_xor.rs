// Mistake: treats the game as two-heap Nim (first player loses iff a == b),
// forgetting the move that takes from both heaps.
use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut out = String::new();
    for p in v.chunks(2) {
        if p.len() == 2 {
            out.push_str(if p[0] ^ p[1] == 0 { "0\n" } else { "1\n" });
        }
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
