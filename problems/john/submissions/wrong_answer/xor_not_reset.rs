// Mistake: the nim-sum lives outside the loop over games and is never reset,
// so every game after the first is judged with the previous games' XOR mixed in.
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u32>().unwrap());
    let t = it.next().unwrap();
    let mut x = 0;
    let mut out = String::new();
    for _ in 0..t {
        let n = it.next().unwrap();
        let mut all_single = true;
        for _ in 0..n {
            let a = it.next().unwrap();
            x ^= a;
            all_single &= a == 1;
        }
        let first = if all_single { n % 2 == 0 } else { x != 0 };
        out.push_str(if first { "John\n" } else { "Brother\n" });
    }
    print!("{out}");
}
