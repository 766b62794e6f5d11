// Mistake: mixes two ideas: the first player loses when the number of piles
// is even and their xor is 0. Equal twins have xor 0, but so do piles like
// 1 2 4 7, from which the first player wins.
use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let mut out = String::new();
    while let Some(n) = it.next() {
        if n == 0 {
            break;
        }
        let x = it.by_ref().take(n as usize).fold(0, |a, b| a ^ b);
        out.push_str(if n % 2 == 0 && x == 0 { "0\n" } else { "1\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
