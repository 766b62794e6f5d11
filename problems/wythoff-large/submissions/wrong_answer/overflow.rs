// Mistake: the exact integer formula, but 5k^2 is computed in u64, which
// silently wraps once k exceeds about 1.9e9.
use std::io::{self, Read, Write};

fn isqrt(n: u64) -> u64 {
    let mut x = (n as f64).sqrt() as u64;
    while x.checked_mul(x).map_or(true, |sq| sq > n) {
        x -= 1;
    }
    while (x + 1).checked_mul(x + 1).map_or(false, |sq| sq <= n) {
        x += 1;
    }
    x
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut out = String::new();
    for p in v.chunks(2) {
        if p.len() < 2 {
            break;
        }
        let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
        let k = b - a;
        let cold = k.wrapping_add(isqrt(5u64.wrapping_mul(k).wrapping_mul(k))) / 2;
        out.push_str(if cold == a { "0\n" } else { "1\n" });
    }
    io::stdout().write_all(out.as_bytes()).unwrap();
}
