// Mistake: off by one in the loop, the first pile is read but left out of
// the XOR.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = v[0] as usize;
    let piles = &v[1..=n];
    let mut x = 0;
    for i in 1..n {
        x ^= piles[i];
    }
    println!("{}", if x != 0 { "Alice" } else { "Bob" });
}
