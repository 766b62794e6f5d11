//! Reference for `nim-winning-move`: with nim-sum s ≠ 0, a pile whose size
//! has s's top bit set shrinks to a_i xor s, which makes the nim-sum 0; with
//! s = 0 every move loses.

use std::io::{self, Read, Write};

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let mut values = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let n = values.next().expect("n") as usize;
    let piles: Vec<u64> = values.take(n).collect();
    let sum = piles.iter().fold(0, |acc, &a| acc ^ a);
    let answer = match piles.iter().position(|&a| a ^ sum < a) {
        Some(i) => format!("{} {}\n", i + 1, piles[i] ^ sum),
        None => "lose\n".to_string(),
    };
    io::stdout()
        .write_all(answer.as_bytes())
        .expect("write stdout");
}
