// Misère Nim, played: normal Nim while two or more piles exceed one stone;
// once only one does, empty it or leave one so that an odd number of single
// stones remains; with single stones only, an even number wins.
use std::io::{self, BufRead, Write};
use std::process::exit;

/// The winning move (pile, stones left), or None from a lost position.
fn winning_move(a: &[u64]) -> Option<(usize, u64)> {
    let big: Vec<usize> = (0..a.len()).filter(|&i| a[i] > 1).collect();
    let ones = a.iter().filter(|&&v| v == 1).count();
    match big.len() {
        1 => Some((big[0], if ones % 2 == 1 { 0 } else { 1 })),
        0 if ones % 2 == 0 => a.iter().position(|&v| v == 1).map(|i| (i, 0)),
        0 => None,
        _ => {
            let s = a.iter().fold(0, |s, &v| s ^ v);
            a.iter().position(|&v| v ^ s < v).map(|i| (i, a[i] ^ s))
        }
    }
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
        let n = next() as usize;
        let mut a: Vec<u64> = (0..n).map(|_| next()).collect();
        let mut mine = winning_move(&a).is_some();
        writeln!(out, "{}", if mine { "first" } else { "second" }).unwrap();
        out.flush().unwrap();
        while a.iter().any(|&v| v > 0) {
            let (i, x) = if mine {
                let (i, x) = winning_move(&a).unwrap_or_else(|| {
                    // Lost position: take one stone anywhere.
                    let i = a.iter().position(|&v| v > 0).unwrap();
                    (i, a[i] - 1)
                });
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
