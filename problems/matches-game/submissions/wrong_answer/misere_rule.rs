// Mistake: plays the misère rule (whoever removes the last match loses):
// with only single matches the answer flips.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut i = 0;
    let mut out = String::new();
    while i < v.len() {
        let m = v[i] as usize;
        let piles = &v[i + 1..i + 1 + m];
        let x = piles.iter().fold(0, |x, a| x ^ a);
        let first = if piles.iter().all(|&a| a == 1) { m % 2 == 0 } else { x != 0 };
        out.push_str(if first { "Yes\n" } else { "No\n" });
        i += m + 1;
    }
    print!("{out}");
}
