// Normal Nim, played: move first exactly when the XOR of the piles is
// non-zero; each move brings the XOR back to zero (pile i -> a_i ^ s).
use std::io::{self, BufRead, Write};
use std::process::exit;

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
        let n = next() as usize;
        let mut a: Vec<u64> = (0..n).map(|_| next()).collect();
        let mut mine = a.iter().fold(0, |s, &v| s ^ v) != 0;
        writeln!(out, "{}", if mine { "first" } else { "second" }).unwrap();
        out.flush().unwrap();
        while a.iter().any(|&v| v > 0) {
            let (i, x) = if mine {
                let s = a.iter().fold(0, |s, &v| s ^ v);
                let (i, x) = match a.iter().position(|&v| v ^ s < v) {
                    Some(i) => (i, a[i] ^ s),
                    None => {
                        // Lost position: take one stone anywhere.
                        let i = a.iter().position(|&v| v > 0).unwrap();
                        (i, a[i] - 1)
                    }
                };
                writeln!(out, "{} {}", i + 1, x).unwrap();
                out.flush().unwrap();
                (i, x)
            } else {
                (next() as usize - 1, next())
            };
            a[i] = x;
            mine = !mine;
        }
    }
}
