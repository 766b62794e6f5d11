// Wythoff's game, played. Lost pairs: (c(k), c(k) + k) in either order,
// c(k) = floor(k * phi) = (k + isqrt(5k^2)) / 2, exact in u128 (heaps reach
// 10^18). From a won pair lo <= hi (k = hi - lo): if lo > c(k) take
// lo - c(k) from both heaps; otherwise hi drops to lo's partner.
use std::io::{self, BufRead, Write};
use std::process::exit;

/// floor(sqrt(n)) by Newton's method on integers only.
fn isqrt(n: u128) -> u128 {
    if n < 2 {
        return n;
    }
    let mut x = n;
    let mut y = (x + 1) / 2;
    while y < x {
        x = y;
        y = (x + n / x) / 2;
    }
    x
}

fn cold(k: u64) -> u64 {
    let k = k as u128;
    ((k + isqrt(5 * k * k)) / 2) as u64
}

fn main() {
    let stdin = io::stdin();
    let mut tokens = stdin
        .lock()
        .lines()
        .map_while(Result::ok)
        .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>());
    // The run ends at the end of input or on -1 (not a u64).
    let mut next = move || -> u64 {
        match tokens.next().and_then(|t| t.parse().ok()) {
            Some(v) => v,
            None => exit(0),
        }
    };
    let mut out = io::stdout();
    let games = next();
    for _ in 0..games {
        let (mut a, mut b) = (next(), next());
        let mut mine = cold(a.abs_diff(b)) != a.min(b);
        writeln!(out, "{}", if mine { "first" } else { "second" }).unwrap();
        out.flush().unwrap();
        while a > 0 || b > 0 {
            if mine {
                let (lo, hi) = (a.min(b), a.max(b));
                let c = cold(hi - lo);
                if lo > c {
                    a -= lo - c;
                    b -= lo - c;
                } else {
                    let nh = if lo == c {
                        hi - 1 // lost position: take one stone
                    } else {
                        let l = lo as u128;
                        let f = ((isqrt(5 * l * l) - l) / 2) as u64; // floor(lo / phi)
                        if cold(f + 1) == lo {
                            lo + f + 1
                        } else {
                            f
                        }
                    };
                    if a <= b {
                        b = nh;
                    } else {
                        a = nh;
                    }
                }
                writeln!(out, "{a} {b}").unwrap();
                out.flush().unwrap();
            } else {
                a = next();
                b = next();
            }
            mine = !mine;
        }
    }
}
