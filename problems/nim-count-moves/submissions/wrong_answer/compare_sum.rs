// Mistake: counts the piles larger than the nim-sum, instead of the piles
// that can be reduced to (pile xor nim-sum).
use std::io::{self, Read, Write};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let mut out = String::new();
    while let Some(n) = it.next() {
        if n == 0 {
            break;
        }
        let a: Vec<u64> = it.by_ref().take(n as usize).collect();
        let sum = a.iter().fold(0, |x, &y| x ^ y);
        let count = if sum == 0 { 0 } else { a.iter().filter(|&&x| x > sum).count() };
        out.push_str(&format!("{count}\n"));
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
