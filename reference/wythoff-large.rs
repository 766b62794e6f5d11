//! Reference for `wythoff-large`: the losing pairs are (⌊kφ⌋, ⌊kφ⌋ + k), so
//! a pair a ≤ b loses exactly when a = ⌊(b − a)φ⌋. With piles up to 10^18
//! no floating-point type is precise enough and 5k² needs 128 bits:
//! ⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋) / 2⌋ in `u128`.

use std::io::{self, Read, Write};

fn isqrt(n: u128) -> u128 {
    let mut x = (n as f64).sqrt() as u128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

fn first_player_wins(a: u64, b: u64) -> bool {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    let k = u128::from(b - a);
    (k + isqrt(5 * k * k)) / 2 != u128::from(a)
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let mut values = input
        .split_ascii_whitespace()
        .map(|t| t.parse::<u64>().expect("a number"));
    let mut out = String::new();
    while let (Some(a), Some(b)) = (values.next(), values.next()) {
        out.push_str(if first_player_wins(a, b) {
            "1\n"
        } else {
            "0\n"
        });
    }
    io::stdout()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
