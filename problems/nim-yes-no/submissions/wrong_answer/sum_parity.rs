// Wrong idea: "the first player wins when the total number of stones is
// odd". Losing positions do have an even total, but so do many winning
// ones (2 4: take 2 from the 4).
use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let n = it.next().unwrap() as usize;
    let total: u64 = it.take(n).sum();
    println!("{}", if total % 2 == 1 { "Yes" } else { "No" });
}
