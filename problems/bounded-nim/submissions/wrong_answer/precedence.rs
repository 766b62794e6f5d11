// Mistake: operator precedence: writes `a % k + 1`, which is (a % k) + 1,
// where a % (k + 1) was meant.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let n = it.next().unwrap();
    let k = it.next().unwrap();
    let mut x = 0;
    for _ in 0..n {
        let a = it.next().unwrap();
        x ^= a % k + 1;
    }
    println!("{}", if x != 0 { "Alice" } else { "Bob" });
}
