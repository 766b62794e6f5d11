// Mistake: solves the misère version (whoever takes the last stone loses):
// the first player loses when n % (m + 1) == 1.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u32> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let c = v[0] as usize;
    let mut out = String::new();
    for i in 0..c {
        let (n, m) = (v[1 + 2 * i], v[2 + 2 * i]);
        out.push_str(if (n - 1) % (m + 1) != 0 { "first\n" } else { "second\n" });
    }
    print!("{out}");
}
