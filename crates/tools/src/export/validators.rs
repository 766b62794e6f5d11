//! Standalone ICPC output validators for grundy's built-in game checkers,
//! so an exported package judges the same way on Kattis or DOMjudge.
//!
//! Each is one C++17 file following the output validator protocol
//! (`validator input answer feedback_dir < output`, exit 42 accepted, 43
//! wrong answer, the reason in `feedback_dir/judgemessage.txt`) and the same
//! rules as the checker in crates/judge/src/check/game/.

use crate::catalog::format::{Bound, Framing, InputFormat};

/// A standalone ICPC input validator (Python 3): exit 42 when standard
/// input is a valid input, 43 with a reason on standard error otherwise.
pub fn python_input_validator(format: &InputFormat, title: &str) -> String {
    let bound = |b: Bound| format!("({}, {})", b.min, b.max);
    let named = |(n, b): &(crate::catalog::format::Name, Bound)| {
        format!("({:?}, {})", n.as_ref(), bound(*b))
    };
    let framing = match format.framing {
        Framing::Single => "(\"single\", None)".to_string(),
        Framing::Counted(b) => format!("(\"counted\", {})", bound(b)),
        Framing::UntilEof { max } => format!("(\"eof\", {max})"),
        Framing::UntilZero => "(\"zero\", None)".to_string(),
    };
    let fixed: Vec<String> = format.fixed.iter().map(named).collect();
    let list_len = format.list_len.as_ref().map_or("None".to_string(), named);
    VALIDATOR_PY
        .replace("{title}", title)
        .replace("{framing}", &framing)
        .replace("{list_len}", &list_len)
        .replace("{fixed}", &format!("[{}]", fixed.join(", ")))
        .replace("{item}", &named(&format.item))
        .replace("{distinct}", if format.distinct { "True" } else { "False" })
}

const VALIDATOR_PY: &str = r#"#!/usr/bin/env python3
# Input validator for "{title}", written by `grundy export` from the
# problem's input format: exit 42 if standard input is valid, else 43.
import re
import sys

FRAMING = {framing}
LIST_LEN = {list_len}
FIXED = {fixed}
ITEM = {item}
DISTINCT = {distinct}


def fail(why):
    print(why, file=sys.stderr)
    sys.exit(43)


def main():
    data = sys.stdin.buffer.read()
    if re.search(rb"[^0-9 \t\r\n]", data):
        fail("a character other than a digit or whitespace")
    tokens = data.split()
    pos = [0]

    def number(what, bound):
        if pos[0] >= len(tokens):
            fail("the input ends where %s should be" % what)
        t = tokens[pos[0]]
        pos[0] += 1
        if len(t) > 1 and t.startswith(b"0"):
            fail("%s: leading zero in %r" % (what, t))
        v = int(t)
        if not bound[0] <= v <= bound[1]:
            fail("%s = %d is outside %d..%d" % (what, v, bound[0], bound[1]))
        return v

    kind, arg = FRAMING
    total = number("the number of cases", arg) if kind == "counted" else None
    cases = 0
    while True:
        if total is not None and cases == total:
            break
        if kind == "eof" and pos[0] == len(tokens):
            break
        n = None
        if LIST_LEN is not None:
            if kind == "zero" and pos[0] < len(tokens) and tokens[pos[0]] == b"0":
                pos[0] += 1
                break
            n = number(LIST_LEN[0], LIST_LEN[1])
        for name, bound in FIXED:
            number(name, bound)
        if n is not None:
            items = [number(ITEM[0], ITEM[1]) for _ in range(n)]
            if DISTINCT and len(set(items)) != len(items):
                fail("%s values repeat" % ITEM[0])
        cases += 1
        if kind == "single":
            break
    if kind == "eof" and not 1 <= cases <= arg:
        fail("%d cases, expected 1..%d" % (cases, arg))
    if kind == "zero" and cases == 0:
        fail("no case before the final 0")
    if pos[0] != len(tokens):
        fail("extra data after the input")
    sys.exit(42)


main()
"#;

/// The validator source for a built-in game checker, with its file name.
pub fn game_validator(name: &str) -> Option<(&'static str, &'static str)> {
    match name {
        "nim-winning-move" => Some(("validate.cpp", NIM_WINNING_MOVE)),
        _ => None,
    }
}

const NIM_WINNING_MOVE: &str = r#"// Output validator for "play a winning move" in normal Nim, written by
// `grundy export`: accepts `lose` exactly when the position is lost, else any
// move `i x` (leave x stones on pile i, 1-based, 0 <= x < a_i) after which
// the nim-sum is 0. Usage: validate input answer feedback_dir < output
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

static std::string feedback;

[[noreturn]] static void verdict(int code, const std::string &message) {
    if (!message.empty()) {
        std::ofstream f(feedback + "judgemessage.txt");
        f << message << "\n";
    }
    std::exit(code);
}

[[noreturn]] static void wrong(const std::string &message) { verdict(43, message); }

// A non-negative decimal integer of at most 18 digits, or -1.
static long long integer(const std::string &t) {
    if (t.empty() || t.size() > 18) return -1;
    for (char c : t)
        if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    return std::stoll(t);
}

static std::string clip(const std::string &t) { return t.size() > 40 ? t.substr(0, 40) + "..." : t; }

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s input answer feedback_dir < output\n", argv[0]);
        return 1;
    }
    feedback = argv[3];
    if (!feedback.empty() && feedback.back() != '/') feedback += '/';
    std::ifstream in(argv[1]);
    long long n;
    if (!(in >> n) || n < 1) verdict(1, "malformed input");
    std::vector<long long> a(n);
    long long nim_sum = 0;
    for (auto &v : a) {
        if (!(in >> v)) verdict(1, "malformed input");
        nim_sum ^= v;
    }
    std::vector<std::string> words;
    std::string w;
    while (std::cin >> w && words.size() < 3) words.push_back(w);
    if (words.empty()) wrong("empty output: expected `lose` or a move `i x`");
    if (words[0] == "lose") {
        if (nim_sum != 0)
            wrong("expected a move, got `lose` (the position is winning: its nim-sum is " + std::to_string(nim_sum) + ")");
        if (words.size() > 1) wrong("extra output after `lose`: `" + clip(words[1]) + "`");
        verdict(42, "");
    }
    if (words.size() < 2) wrong("expected a move `i x`, got only `" + clip(words[0]) + "`");
    if (words.size() > 2) wrong("extra output after the move: `" + clip(words[2]) + "`");
    long long i = integer(words[0]), x = integer(words[1]);
    if (i < 0) wrong("the pile number i must be an integer, got `" + clip(words[0]) + "`");
    if (x < 0) wrong("the stones left x must be a non-negative integer, got `" + clip(words[1]) + "`");
    if (nim_sum == 0)
        wrong("the position is losing (nim-sum 0): expected `lose`, got the move " + words[0] + " " + words[1]);
    if (i < 1 || i > n) wrong("pile " + words[0] + " does not exist (there are " + std::to_string(n) + " piles)");
    if (x >= a[i - 1])
        wrong("pile " + words[0] + " has " + std::to_string(a[i - 1]) + " stones: x must be below that, got " + words[1]);
    if ((nim_sum ^ a[i - 1] ^ x) != 0)
        wrong("the move " + words[0] + " " + words[1] + " leaves nim-sum " + std::to_string(nim_sum ^ a[i - 1] ^ x) +
              ": the opponent wins");
    verdict(42, "");
}
"#;
