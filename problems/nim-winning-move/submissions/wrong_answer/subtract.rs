// Mistake: confuses xor with subtraction: takes s stones from the first pile
// holding at least s of them.
use std::io::{self, Read};

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = v[0] as usize;
    let a = &v[1..=n];
    let sum = a.iter().fold(0, |x, &y| x ^ y);
    if sum == 0 {
        println!("lose");
        return;
    }
    match a.iter().position(|&x| x >= sum) {
        Some(i) => println!("{} {}", i + 1, a[i] - sum),
        None => println!("lose"),
    }
}
