// Mistake: the exact integer formula, but 5k^2 is computed in u64, which
// wraps silently (release build) once k passes about 1.9e9: big lost pairs
// such as "618033988749894848 1000000000000000000" are misjudged.
use std::io::{self, BufRead, Write};
use std::process::exit;

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

fn cold(k: u64) -> u64 {
    (k.wrapping_add(isqrt(5u64.wrapping_mul(k).wrapping_mul(k)))) / 2
}

fn main() {
    let stdin = io::stdin();
    let mut tokens = stdin
        .lock()
        .lines()
        .map_while(Result::ok)
        .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>());
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
                    let mut nh = if lo == c {
                        0 // give up: empty the larger heap
                    } else {
                        let f = (isqrt(5u64.wrapping_mul(lo).wrapping_mul(lo)) - lo) / 2;
                        if cold(f + 1) == lo {
                            lo + f + 1
                        } else {
                            f
                        }
                    };
                    if nh >= hi {
                        nh = 0;
                    }
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
