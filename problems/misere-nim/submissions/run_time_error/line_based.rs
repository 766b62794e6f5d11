// Mistake: reads n from the first line and the piles from the second line
// only. When the piles are spread over several lines (or a blank line comes
// first) there are fewer than n of them and indexing panics.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut lines = s.lines();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let a: Vec<u64> = lines
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (mut x, mut all_single) = (0, true);
    for i in 0..n {
        x ^= a[i];
        all_single &= a[i] == 1;
    }
    let first = if all_single { n % 2 == 0 } else { x != 0 };
    println!("{}", if first { "X" } else { "Y" });
}
