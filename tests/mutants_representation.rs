//! The representation operators of `grundy mutants`: each, applied to a
//! small correct program in each language, makes the mutant a student
//! would write (a narrower type, a shorter buffer, a bit loop stopped
//! early, a mask, a line-based reader), that mutant compiles, and the
//! catalog problem's `range` or `format` group rejects it on its own. And a
//! narrowed type that agrees with the reference on every small input is
//! not called equivalent: the search reaches the top of the range.

mod common;

use std::path::{Path, PathBuf};

use common::{stderr, stdout};
use grundy::mutants::{Class, Language, Mutant, Widths};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A program that is accepted, with the representation mutants expected
/// of it.
struct Case {
    problem: &'static str,
    file: &'static str,
    source: &'static str,
    /// (kind, a line of the mutant that shows the change, the group that
    /// must reject it by itself)
    expect: &'static [(&'static str, &'static str, &'static str)],
}

/// nim-yes-no in C: the whole input read at once into a buffer sized for
/// the tightest layout, numbers parsed by hand into `int`, the answer from
/// the XOR's bits.
const C_BUFFER: &str = r#"/* Reads the whole input at once; the first player wins when a bit of the XOR is set. */
#include <stdio.h>
static char buf[1 << 21];
int main(void) {
    size_t len = fread(buf, 1, sizeof buf - 1, stdin);
    buf[len] = 0;
    char *p = buf;
    int count = 0, x = 0;
    while (*p) {
        if (*p < '0' || *p > '9') { p++; continue; }
        int v = 0;
        while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
        if (count++ > 0) x ^= v;
    }
    int set = 0;
    for (int b = 0; b < 30; b++) set += (x >> b) & 1;
    puts(set ? "Yes" : "No");
    return 0;
}
"#;

/// nim-yes-no in C, reading words with a `scanf` width.
const C_WORDS: &str = r#"/* Reads numbers as words. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    char tok[16];
    if (scanf("%15s", tok) != 1) return 0;
    int n = atoi(tok);
    long long x = 0;
    for (int i = 0; i < n && scanf("%15s", tok) == 1; i++) x ^= atoll(tok);
    puts(x ? "Yes" : "No");
    return 0;
}
"#;

/// wythoff in C++: 5k² needs 64 bits; the second heap read by a statement
/// of its own.
const CPP_WYTHOFF: &str = r#"// a <= b loses exactly when a = (k + isqrt(5k^2)) / 2, k = b - a.
#include <cmath>
#include <iostream>
#include <utility>
int main() {
    std::ios::sync_with_stdio(false);
    for (;;) {
        long long a, b;
        if (!(std::cin >> a)) break;
        std::cin >> b;
        if (a > b) std::swap(a, b);
        long long k = b - a;
        long long s = (long long)sqrtl((long double)(5 * k * k));
        while (s * s > 5 * k * k) s--;
        while ((s + 1) * (s + 1) <= 5 * k * k) s++;
        std::cout << ((k + s) / 2 == a ? 0 : 1) << '\n';
    }
}
"#;

/// nim-yes-no in C++ with the XOR kept in a bitset.
const CPP_BITSET: &str = r#"// The XOR of the piles, bit by bit, in a bitset.
#include <bitset>
#include <cstdio>
const int BITS = 30;
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    std::bitset<BITS> x;
    for (int i = 0; i < n; i++) {
        unsigned long a;
        if (scanf("%lu", &a) != 1) break;
        x ^= std::bitset<BITS>(a);
    }
    puts(x.any() ? "Yes" : "No");
}
"#;

/// wythoff-large in Java: numbers up to 10^18 read by hand into `long`.
const JAVA_WYTHOFF: &str = r#"// Exact Beatty-sequence test with BigInteger.
import java.io.*;
import java.math.BigInteger;

public class Main {
    static InputStream in = new BufferedInputStream(System.in, 1 << 16);

    static long next() throws IOException {
        int c = in.read();
        while (c != -1 && (c < '0' || c > '9')) c = in.read();
        if (c == -1) return -1;
        long v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = in.read();
        }
        return v;
    }

    public static void main(String[] args) throws IOException {
        StringBuilder sb = new StringBuilder();
        long[] p = new long[2];
        while (true) {
            p[0] = next();
            p[1] = next();
            if (p[0] < 0 || p[1] < 0) break;
            long a = Math.min(p[0], p[1]), b = Math.max(p[0], p[1]);
            BigInteger k = BigInteger.valueOf(b - a);
            BigInteger cold = k.add(k.multiply(k).multiply(BigInteger.valueOf(5)).sqrt()).shiftRight(1);
            sb.append(cold.longValue() == a ? "0\n" : "1\n");
        }
        System.out.print(sb);
    }
}
"#;

/// nim-yes-no in Python, the XOR's bits kept in a list.
const PYTHON_BITS: &str = r#"# The first player wins when a bit of the XOR is set.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    x = 0
    for tok in data[1:1 + n]:
        x ^= int(tok)
    bits = [0] * 30
    for b in range(30):
        bits[b] = x >> b & 1
    print("Yes" if any(bits) else "No")


main()
"#;

/// wythoff-large in Rust.
const RUST_WYTHOFF: &str = r#"use std::io::Read;

fn isqrt(n: u128) -> u128 {
    let mut x = (n as f64).sqrt() as u128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut out = String::new();
    for p in v.chunks(2) {
        let (a, b) = if p[0] <= p[1] { (p[0], p[1]) } else { (p[1], p[0]) };
        let k = u128::from(b - a);
        let cold = (k + isqrt(5 * k * k)) / 2 == u128::from(a);
        out.push_str(if cold { "0\n" } else { "1\n" });
    }
    print!("{out}");
}
"#;

/// nim-yes-no in C: the XOR's bits in an array as long as the widest
/// value, its length a named constant the loop also runs to.
const C_ARRAY: &str = r#"/* The XOR's bits in an array as long as the widest value. */
#include <stdio.h>
#define BITS 30
int main(void) {
    int n;
    long long x = 0, v;
    if (scanf("%d", &n) != 1) return 0;
    for (int i = 0; i < n && scanf("%lld", &v) == 1; i++) x ^= v;
    int bits[BITS], set = 0;
    for (int b = 0; b < BITS; b++) {
        bits[b] = (x >> b) & 1;
        set |= bits[b];
    }
    puts(set ? "Yes" : "No");
    return 0;
}
"#;

/// nim-yes-no in C++: lines read with `fgets` into a fixed buffer,
/// numbers split with `strtok`, the XOR's bits in a `std::array`.
const CPP_LINES: &str = r#"// Reads line by line with fgets, numbers split with strtok; the XOR's bits in an array.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
static char line[1 << 21];
int main() {
    long long x = 0;
    int n = -1, seen = 0;
    while (n < 0 || seen < n) {
        if (!fgets(line, 1 << 21, stdin)) break;
        for (char *p = strtok(line, " \n"); p; p = strtok(nullptr, " \n")) {
            long long v = atoll(p);
            if (n < 0) n = (int) v;
            else if (seen < n) { x ^= v; seen++; }
        }
    }
    std::array<int, 30> bits{};
    for (int b = 0; b < 30; b++) bits.at(b) = (x >> b) & 1;
    int set = 0;
    for (int v : bits) set |= v;
    puts(set ? "Yes" : "No");
    return 0;
}
"#;

/// nim-yes-no in Java: the whole input read into a fixed buffer and split
/// on whitespace, the XOR's bits counted.
const JAVA_BUFFER: &str = r#"// The whole input read at once and split on whitespace; the XOR's bits counted.
import java.io.*;

public class Main {
    public static void main(String[] args) throws IOException {
        byte[] buf = new byte[1 << 21];
        int len = System.in.readNBytes(buf, 0, buf.length);
        String[] t = new String(buf, 0, len).trim().split("\\s+");
        int n = Integer.parseInt(t[0]);
        long x = 0;
        for (int i = 1; i <= n; i++) x ^= Long.parseLong(t[i]);
        int set = 0;
        for (int b = 0; b < 30; b++) set += (int) (x >> b & 1);
        System.out.println(set > 0 ? "Yes" : "No");
    }
}
"#;

/// nim-yes-no in Rust: the whole input read into a fixed buffer, the
/// XOR's bits kept in an array.
const RUST_BUFFER: &str = r#"use std::io::Read;

// The whole input read into a fixed buffer; the XOR's bits kept in an array.
fn main() {
    let mut buf = [0u8; 1 << 21];
    let mut len = 0;
    let mut stdin = std::io::stdin();
    loop {
        let k = stdin.read(&mut buf[len..]).unwrap();
        if k == 0 {
            break;
        }
        len += k;
    }
    let text = std::str::from_utf8(&buf[..len]).unwrap();
    let v: Vec<u64> = text.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = v[0] as usize;
    let mut x = 0;
    for &a in &v[1..=n] {
        x ^= a;
    }
    let mut bits = [0; 30];
    for b in 0..30 {
        bits[b] = x >> b & 1;
    }
    println!("{}", if bits.iter().any(|&b| b == 1) { "Yes" } else { "No" });
}
"#;

/// wythoff in Rust: every value's type follows the one written, `i64`;
/// 5k² needs 64 bits.
const RUST_WYTHOFF_I64: &str = r#"use std::io::Read;

// a <= b loses exactly when a = (k + isqrt(5k^2)) / 2, k = b - a; the root by bisection.
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i64> = s.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut out = String::new();
    for p in v.chunks(2) {
        let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
        let k = b - a;
        let n = 5 * k * k;
        let (mut lo, mut hi) = (0, 3 * k + 1);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if mid * mid <= n {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        out.push_str(if (k + lo) / 2 == a { "0\n" } else { "1\n" });
    }
    print!("{out}");
}
"#;

const CASES: &[Case] = &[
    Case {
        problem: "nim-yes-no",
        file: "buffer.c",
        source: C_BUFFER,
        expect: &[
            ("shrink-buffer", "static char buf[1 << 20];", "format"),
            ("narrow-int-to-short", "        short v = 0;", "range"),
            ("mask-to-29-bits", "x ^= ((v) & 0x1FFFFFFF);", "range"),
            ("lower-bit-loop", "b < 15; b++", "range"),
            ("lower-bit-loop-below-top-bit", "b < 29; b++", "range"),
        ],
    },
    Case {
        problem: "nim-yes-no",
        file: "words.c",
        source: C_WORDS,
        expect: &[
            (
                "shrink-scanf-width",
                "i < n && scanf(\"%7s\", tok) == 1",
                "range",
            ),
            (
                "tokens-per-line",
                "i < n && scanf(\"%15s%*[^\\n]\", tok) == 1",
                "format",
            ),
        ],
    },
    Case {
        problem: "wythoff",
        file: "wythoff.cpp",
        source: CPP_WYTHOFF,
        expect: &[
            ("narrow-long-long-to-int", "        int k = b - a;", "range"),
            (
                "tokens-per-line",
                "(std::cin >> b).ignore(1 << 30, '\\n');",
                "format",
            ),
        ],
    },
    Case {
        problem: "nim-yes-no",
        file: "bitset.cpp",
        source: CPP_BITSET,
        expect: &[("shorten-bitset", "const int BITS = 15;", "range")],
    },
    Case {
        problem: "wythoff-large",
        file: "Main.java",
        source: JAVA_WYTHOFF,
        expect: &[
            ("narrow-long-to-int", "        int v = 0;", "range"),
            ("shorten-array", "long[] p = new long[1];", "range"),
        ],
    },
    Case {
        problem: "nim-yes-no",
        file: "bits.py",
        source: PYTHON_BITS,
        expect: &[
            (
                "single-space",
                "data = [t for l in sys.stdin.buffer.read().split(b\"\\n\") for t in l.split(b\" \")]",
                "format",
            ),
            ("mask-to-29-bits", "x ^= ((int(tok)) & 0x1FFFFFFF)", "range"),
            ("shorten-array", "bits = [0] * 15", "range"),
            (
                "lower-bit-loop-below-top-bit",
                "for b in range(29):",
                "range",
            ),
        ],
    },
    Case {
        problem: "wythoff-large",
        file: "wythoff.rs",
        source: RUST_WYTHOFF,
        expect: &[
            ("narrow-u64-to-u32", "let v: Vec<u32> =", "range"),
            (
                "single-space",
                "s.lines().flat_map(|l| l.split(' ')).map(",
                "format",
            ),
        ],
    },
    Case {
        problem: "nim-yes-no",
        file: "array.c",
        source: C_ARRAY,
        expect: &[("shorten-array", "#define BITS 15", "range")],
    },
    Case {
        problem: "nim-yes-no",
        file: "lines.cpp",
        source: CPP_LINES,
        expect: &[
            ("shrink-buffer", "fgets(line, 1 << 20, stdin)", "format"),
            ("mask-to-29-bits", "x ^= ((v) & 0x1FFFFFFF);", "range"),
            ("shorten-array", "std::array<int, 15> bits{};", "range"),
            ("lower-bit-loop-below-top-bit", "b < 29; b++", "range"),
        ],
    },
    Case {
        problem: "nim-yes-no",
        file: "Main.java",
        source: JAVA_BUFFER,
        expect: &[
            ("shrink-buffer", "new byte[1 << 20]", "format"),
            ("single-space", ".trim().split(\" \")", "format"),
            (
                "mask-to-29-bits",
                "x ^= ((Long.parseLong(t[i])) & 0x1FFFFFFF)",
                "range",
            ),
            ("lower-bit-loop-below-top-bit", "b < 29; b++", "range"),
        ],
    },
    Case {
        problem: "nim-yes-no",
        file: "bits.rs",
        source: RUST_BUFFER,
        expect: &[
            ("shrink-buffer", "[0u8; 1 << 20]", "format"),
            ("mask-to-29-bits", "x ^= ((a) & 0x1FFFFFFF);", "range"),
            ("shorten-array", "let mut bits = [0; 15];", "range"),
            ("lower-bit-loop-below-top-bit", "for b in 0..29 {", "range"),
        ],
    },
    Case {
        problem: "wythoff",
        file: "wythoff_i64.rs",
        source: RUST_WYTHOFF_I64,
        expect: &[("narrow-i64-to-i32", "let v: Vec<i32> =", "range")],
    },
];

/// The representation operators each language's programs are expected to
/// meet (the kind's prefix).
const OPERATORS: &[(Language, &[&str])] = &[
    (
        Language::C,
        &[
            "narrow-",
            "shorten-array",
            "shrink-buffer",
            "shrink-scanf-width",
            "lower-bit-loop",
            "mask-",
            "tokens-per-line",
        ],
    ),
    (
        Language::Cpp,
        &[
            "narrow-",
            "shorten-array",
            "shorten-bitset",
            "shrink-buffer",
            "lower-bit-loop",
            "mask-",
            "tokens-per-line",
        ],
    ),
    (
        Language::Java,
        &[
            "narrow-",
            "shorten-array",
            "shrink-buffer",
            "lower-bit-loop",
            "mask-",
            "single-space",
        ],
    ),
    (
        Language::Python,
        &["shorten-array", "lower-bit-loop", "mask-", "single-space"],
    ),
    (
        Language::Rust,
        &[
            "narrow-",
            "shorten-array",
            "shrink-buffer",
            "lower-bit-loop",
            "mask-",
            "single-space",
        ],
    ),
];

/// `grundy judge PROBLEM FILE --json [--tests GROUP]` on the catalog: the
/// result object.
fn judge(problem: &str, file: &Path, group: Option<&str>) -> serde_json::Value {
    let f = file.to_string_lossy().into_owned();
    let mut args = vec!["judge", problem, f.as_str(), "--json"];
    if let Some(g) = group {
        args.extend(["--tests", g]);
    }
    let out = common::grundy_in(&repo("problems"), &args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&out), stderr(&out)));
    v["results"][0].clone()
}

/// The widths of a catalog problem's values, as `mutants` computes them.
fn widths(problem: &str) -> Widths {
    let spec = grundy::problem::load(&repo(&format!("problems/{problem}/problem.yaml")))
        .unwrap_or_else(|e| panic!("{problem}: {e}"));
    grundy::mutants::programs::widths(&spec)
}

fn language(file: &str) -> Language {
    Language::of_path(Path::new(file)).unwrap_or_else(|| panic!("no language for {file}"))
}

#[test]
fn each_representation_operator_makes_a_mutant_the_new_groups_kill() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let mut covered: Vec<(&str, Language)> = Vec::new();
    for case in CASES {
        let lang = language(case.file);
        let all: Vec<Mutant> = grundy::mutants::mutants(lang, case.source, &widths(case.problem))
            .unwrap_or_else(|e| panic!("{}: {e}", case.file));
        // The program itself is accepted, so a rejection is the mutation's.
        let original = dir.path().join("original").join(case.file);
        std::fs::create_dir_all(original.parent().expect("parent")).expect("mkdir");
        std::fs::write(&original, case.source).expect("write");
        let r = judge(case.problem, &original, None);
        assert_eq!(r["verdict"], "AC", "{}: {r}", case.file);
        for (k, &(kind, shows, group)) in case.expect.iter().enumerate() {
            let m = all
                .iter()
                .find(|m| m.kind == kind && m.source.contains(shows))
                .unwrap_or_else(|| {
                    let made: Vec<_> = all
                        .iter()
                        .filter(|m| m.class == Class::Representation)
                        .map(|m| (&m.kind, &m.description))
                        .collect();
                    panic!("{}: no {kind} showing `{shows}` among {made:#?}", case.file)
                });
            assert_eq!(m.class, Class::Representation, "{}", m.description);
            // One change (or a type with its conversions) and nothing else.
            let changed = case
                .source
                .lines()
                .zip(m.source.lines())
                .filter(|(a, b)| a != b)
                .count();
            assert!(
                (1..=3).contains(&changed),
                "{}: {changed} lines changed",
                m.description
            );
            let path = dir.path().join(format!("m{k}")).join(case.file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, &m.source).expect("write");
            let r = judge(case.problem, &path, Some(group));
            assert_ne!(
                r["verdict"], "CE",
                "{}: {} does not compile: {r}",
                case.file, m.description
            );
            assert_ne!(
                r["verdict"], "AC",
                "{}: `{group}` accepts {}",
                case.file, m.description
            );
            covered.push((kind, lang));
        }
    }
    // Every operator, in every language that has what it changes (Python
    // has no integer widths, fixed buffers or `scanf`; only C and C++ read
    // with `scanf` or `cin`, whose line-based twin is `tokens-per-line`).
    for (lang, families) in OPERATORS {
        for family in *families {
            assert!(
                covered
                    .iter()
                    .any(|c| c.1 == *lang && c.0.starts_with(family)),
                "{family} not covered in {lang}"
            );
        }
    }
}

/// nim-yes-no with only its samples and small groups: values up to 20.
fn small_only_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    let problem = dir.path().join("problems/nim-yes-no");
    std::fs::create_dir_all(&problem).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("reference")).expect("mkdir");
    std::fs::copy(
        repo("problems/nim-yes-no/statement.md"),
        problem.join("statement.md"),
    )
    .expect("copy statement");
    std::fs::copy(
        repo("reference/nim-yes-no.rs"),
        dir.path().join("reference/nim-yes-no.rs"),
    )
    .expect("copy reference");
    let spec = std::fs::read_to_string(repo("problems/nim-yes-no/problem.yaml")).expect("spec");
    let cut = spec
        .find("  - name: edge")
        .expect("nim-yes-no has an edge group");
    std::fs::write(problem.join("problem.yaml"), &spec[..cut]).expect("write spec");
    dir
}

/// A program that keeps the piles in `int`, narrowed to `short`, answers
/// every test of a small-only nim-yes-no and every small position the
/// oracle searches; it is still no equivalent: the inputs across the whole
/// range show it wrong, and the shrunk input holds a pile of 2^15 or more.
#[test]
fn a_narrowed_type_right_on_small_inputs_is_a_survivor_not_an_equivalent() {
    let project = small_only_copy();
    let program = project.path().join("int.c");
    std::fs::write(
        &program,
        "#include <stdio.h>\nint main(void) {\n    int n, a, x = 0;\n    if (scanf(\"%d\", &n) != 1) return 0;\n    while (n-- > 0 && scanf(\"%d\", &a) == 1) x ^= a;\n    puts(x ? \"Yes\" : \"No\");\n    return 0;\n}\n",
    )
    .expect("write");
    let p = program.to_string_lossy().into_owned();
    let out = common::grundy_in(
        &project.path().join("problems"),
        &[
            "mutants",
            "nim-yes-no",
            "--json",
            "--jobs",
            "2",
            "--program",
            &p,
            "--kind",
            "narrow-int-to-short",
        ],
    );
    let o: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&out), stderr(&out)));
    let mutants = o["mutants"].as_array().expect("mutants");
    // `int n, a, x` is one declaration: narrowed together, `%d` read as `%hd`.
    let narrowed = mutants
        .iter()
        .find(|m| {
            m["description"]
                .as_str()
                .is_some_and(|d| d.contains("int n, a, x = 0;"))
        })
        .unwrap_or_else(|| panic!("no narrowing of `int n, a, x`: {o}"));
    assert_eq!(narrowed["outcome"], "survived", "{narrowed}");
    let input = narrowed["input"].as_str().expect("an input");
    let largest = input
        .split_ascii_whitespace()
        .filter_map(|t| t.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    assert!(largest >= 1 << 15, "shrunk to {input:?}");
    assert!(mutants.iter().all(|m| m["outcome"] != "equivalent"), "{o}");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}
