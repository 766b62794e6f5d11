// Mistake: plays it as plain Nim with each chessman's distance to cell 1 as a
// pile, ignoring that chessmen block each other.
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let t = it.next().unwrap();
    for _ in 0..t {
        let n = it.next().unwrap() as usize;
        let sum = it.by_ref().take(n).fold(0, |x, p| x ^ (p - 1));
        println!("{}", if sum != 0 { "Georgia will win" } else { "Bob will win" });
    }
}
