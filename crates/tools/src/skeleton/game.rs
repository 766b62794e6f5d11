//! `grundy new ID --game DESCRIPTION`: a ready problem from a game's
//! description alone. The spec keeps the description as written and
//! spells out the derived groups (for the setter to edit); the statement
//! is a skeleton in words (the game, the input, the output, the
//! constraints, the samples or an example dialogue) that verifies as
//! written.

use std::fmt::Write as _;
use std::path::Path;

use super::{Created, NewError, create_with};
use crate::catalog::described::{GameSpec, Position, Question, RawGame};
use crate::catalog::format::{Bound, Framing};
use crate::games::described::{Move, Take};
use crate::games::play::{Interactor, PlayRules};
use crate::games::search::Ending;

/// Reads a description given on the command line (`--game`), checked as
/// the spec's `game:` is; errors name it `--game` with the line and column.
pub fn read_description(text: &str) -> Result<GameSpec, NewError> {
    let raw: RawGame = serde_yaml::from_str(text).map_err(|e| {
        NewError::Game(crate::yaml::YamlError::new(Path::new("--game"), &e).to_string())
    })?;
    GameSpec::try_from(raw).map_err(|e| {
        let (line, column) = crate::yaml::locate(text, &e.key()).unwrap_or((1, 1));
        NewError::Game(format!("--game:{line}:{column}: {e}"))
    })
}

/// Writes problem `id` from the description `text`.
pub fn create_game(problems: &Path, id: &str, text: &str) -> Result<Created, NewError> {
    let game = read_description(text)?;
    let title = title_of(id);
    let samples = samples(&game);
    let spec = spec_text(id, &title, text, &game, &samples);
    let statement = statement_text(&title, &game, &samples);
    create_with(
        problems,
        id,
        &[
            ("problem.yaml", spec.as_str()),
            ("statement.md", statement.as_str()),
        ],
    )
}

/// `subtraction-game` → `Subtraction Game`.
fn title_of(id: &str) -> String {
    id.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The samples: inputs with their answers (one, or a played game's
/// example starts with the dialogue the judge and a perfect player have).
enum Samples {
    Answered(Vec<(String, String)>),
    Dialogue { input: String, lines: Vec<String> },
}

/// Small positions with both outcomes, as inputs of the description.
fn samples(game: &GameSpec) -> Samples {
    let Some(analysis) = game.first_analysis() else {
        return Samples::Answered(Vec::new());
    };
    let params: Vec<u64> = game
        .parameters
        .iter()
        .map(|(_, b)| b.min.max(b.max.min(3)))
        .collect();
    let analysis = game.analysis(&params).unwrap_or(analysis);
    // A won and a lost position, small, within the constraints.
    let mut picked: Vec<Vec<u64>> = Vec::new();
    let mut seen = [false, false];
    for p in candidates(game) {
        let Some(w) = analysis.mover_wins(&p) else {
            continue;
        };
        if !seen[usize::from(w)] {
            seen[usize::from(w)] = true;
            picked.push(p);
        }
        if seen == [true, true] {
            break;
        }
    }
    let format = game.input_format();
    if game.played() {
        let cases: Vec<_> = picked.iter().map(|p| game.write_case(&[], p)).collect();
        let input = format.render(&cases);
        let lines = dialogue(game, &picked);
        return Samples::Dialogue { input, lines };
    }
    let mut out = Vec::new();
    if game.multi_case() {
        let cases: Vec<_> = picked.iter().map(|p| game.write_case(&params, p)).collect();
        let input = format.render(&cases);
        if let Ok(answer) = game.answer(&input) {
            out.push((input, answer));
        }
    } else {
        for p in &picked {
            let input = format.render(&[game.write_case(&params, p)]);
            if let Ok(answer) = game.answer(&input) {
                out.push((input, answer));
            }
        }
    }
    Samples::Answered(out)
}

/// Small positions, in the order samples are looked for.
fn candidates(game: &GameSpec) -> Vec<Vec<u64>> {
    match game.position {
        Position::Heap { size } => (size.min.max(1)..=size.max.min(12))
            .map(|n| vec![n])
            .collect(),
        Position::Heaps { count, size } => {
            let lo = size.min.max(1);
            let hi = size.max.min(7);
            let mut out = Vec::new();
            for n in count.min..=count.max.min(3) {
                let mut p = vec![lo; n as usize];
                loop {
                    out.push(p.clone());
                    // The next list in lexicographic order within lo..=hi.
                    let Some(i) = p.iter().rposition(|&a| a < hi) else {
                        break;
                    };
                    p[i] += 1;
                    for a in &mut p[i + 1..] {
                        *a = lo;
                    }
                }
            }
            out.sort_by_key(|p| (p.iter().sum::<u64>() > 6, p.len() < 2, p.clone()));
            out
        }
    }
}

/// The example dialogue of a played game: the judge against a player
/// that always chooses well and plays a winning move.
fn dialogue(game: &GameSpec, starts: &[Vec<u64>]) -> Vec<String> {
    let Some(analysis) = game.first_analysis() else {
        return Vec::new();
    };
    let rules = std::sync::Arc::new(crate::games::described::play::DescribedPlay::new(
        "example", analysis,
    ));
    let mut judge = Interactor::with_rules(rules.clone(), starts.to_vec(), 1);
    let mut lines: Vec<String> = Vec::new();
    let take = |judge: &mut Interactor, lines: &mut Vec<String>| {
        let out = String::from_utf8(judge.take_output()).unwrap_or_default();
        lines.extend(out.lines().map(|l| format!("> {l}")));
    };
    take(&mut judge, &mut lines);
    for start in starts {
        let mut pos = start.clone();
        let first = rules.mover_wins(&pos);
        let choice = if first { "first" } else { "second" };
        lines.push(format!("< {choice}"));
        judge.feed(format!("{choice}\n").as_bytes());
        let mut mine = first;
        for _ in 0..200 {
            if rules.over(&pos) || judge.outcome().is_some() {
                break;
            }
            if mine {
                let Some((text, next)) = rules.winning_move(&pos) else {
                    break;
                };
                lines.push(format!("< {text}"));
                judge.feed(format!("{text}\n").as_bytes());
                pos = next;
            } else {
                let out = String::from_utf8(judge.take_output()).unwrap_or_default();
                let numbers: Vec<u64> = out
                    .split_whitespace()
                    .filter_map(|t| t.parse().ok())
                    .collect();
                lines.extend(out.lines().map(|l| format!("> {l}")));
                match rules.apply(&pos, &numbers[..rules.arity().min(numbers.len())]) {
                    Ok(next) => pos = next,
                    Err(_) => break,
                }
                mine = true;
                continue;
            }
            mine = false;
        }
        take(&mut judge, &mut lines);
    }
    lines
}

fn spec_text(id: &str, title: &str, text: &str, game: &GameSpec, samples: &Samples) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# A new problem, written by `grundy new --game`: it verifies as it is.\n\
         # The game's oracle, answers, input validator and generators come from\n\
         # `game:`; change it, the statement and the groups together, then run\n\
         # `grundy verify {id}` again (docs/problem-format.md describes every key)."
    );
    let _ = writeln!(s, "id: {id}\ntitle: {title}\ngame:");
    // A one-line description (`{heaps: …, moves: …}`) is written out in
    // block style, one key a line; a block is kept as written.
    let block = if text.trim_start().starts_with('{') {
        serde_yaml::from_str::<serde_yaml::Value>(text)
            .ok()
            .and_then(|v| serde_yaml::to_string(&v).ok())
            .unwrap_or_else(|| text.to_string())
    } else {
        text.to_string()
    };
    for line in block.trim_end().lines() {
        let _ = writeln!(s, "  {line}");
    }
    match samples {
        Samples::Answered(list) if !list.is_empty() => {
            s.push_str("samples:\n");
            for (input, output) in list {
                s.push_str("  - input: |\n");
                for l in input.lines() {
                    let _ = writeln!(s, "      {l}");
                }
                s.push_str("    output: |\n");
                for l in output.lines() {
                    let _ = writeln!(s, "      {l}");
                }
            }
        }
        _ => {}
    }
    s.push_str("groups:\n");
    if let Samples::Dialogue { input, .. } = samples {
        let _ = writeln!(
            s,
            "  - name: example\n    points: 0\n    tests:\n      - input: {input:?}"
        );
    }
    for g in game.default_groups() {
        let _ = writeln!(
            s,
            "  - name: {}\n    points: {}\n    tests:",
            g.name, g.points
        );
        for (count, knobs) in g.entries {
            let _ = writeln!(
                s,
                "      - generator: game\n        count: {count}\n        params: {knobs}"
            );
        }
    }
    s
}

/// `10^9` for powers of ten, the number otherwise.
fn number(n: u64) -> String {
    let digits = n.to_string();
    if n >= 1000 && digits[1..].bytes().all(|b| b == b'0') && digits.starts_with('1') {
        format!("10^{{{}}}", digits.len() - 1)
    } else {
        digits
    }
}

fn range(what: &str, b: Bound) -> String {
    format!("${} \\le {what} \\le {}$", number(b.min), number(b.max))
}

fn move_words(m: &Move) -> String {
    match m {
        Move::Take(Take::Any) => "take any number of tokens (at least one) from one heap".into(),
        Move::Octal(o) => {
            let mut parts = Vec::new();
            for (k, &d) in o.digits.iter().enumerate().skip(1) {
                let mut leave = Vec::new();
                if d & 1 != 0 {
                    leave.push("nothing (the whole heap)");
                }
                if d & 2 != 0 {
                    leave.push("one heap");
                }
                if d & 4 != 0 {
                    leave.push("two heaps");
                }
                if !leave.is_empty() {
                    parts.push(format!(
                        "take {k} token{} from a heap and leave {}",
                        if k == 1 { "" } else { "s" },
                        leave.join(" or ")
                    ));
                }
            }
            if o.digits.first() == Some(&4) {
                parts.push("split a heap into two non-empty heaps".into());
            }
            format!("(octal game {}) {}", o.code, parts.join("; or "))
        }
        other => other.to_string(),
    }
}

fn statement_text(title: &str, game: &GameSpec, samples: &Samples) -> String {
    let mut s = format!("# {title}\n\n");
    match game.position {
        Position::Heaps { .. } => s.push_str("There are $n$ heaps of tokens."),
        Position::Heap { .. } => s.push_str("There is one heap of $n$ tokens."),
    }
    s.push_str(" Two players move in turn, the first player first. A move is to:\n\n");
    for m in &game.rules.moves {
        let _ = writeln!(s, "- {};", move_words(m));
    }
    if game.splits() {
        s.push_str(
            "\nThink of a heap as a row of tokens: the tokens taken are next to each other, and what is left on each side of them stays a heap.\n",
        );
    }
    s.push_str(match game.rules.ending {
        Ending::Normal => "\nThe player who cannot move loses.",
        Ending::Misere => "\nThe player who cannot move wins (whoever makes the last move loses).",
    });
    s.push_str(" Both play as well as they can.\n\n");
    if game.played() {
        s.push_str(&interaction(game));
    } else {
        s.push_str(&input_output(game));
    }
    s.push_str("\n## Constraints\n\n");
    if let Framing::Counted(b) = game.cases {
        let _ = writeln!(s, "- {}", range("T", b));
    }
    match game.position {
        Position::Heaps { count, size } => {
            let _ = writeln!(s, "- {}", range("n", count));
            let _ = writeln!(s, "- {}", range("a_i", size));
        }
        Position::Heap { size } => {
            let _ = writeln!(s, "- {}", range("n", size));
        }
    }
    for (name, b) in &game.parameters {
        let _ = writeln!(s, "- {}", range(name, *b));
    }
    match samples {
        Samples::Answered(list) => {
            for (i, (input, output)) in list.iter().enumerate() {
                let _ = write!(
                    s,
                    "\n## Sample {}\n\nInput:\n\n```\n{input}```\n\nOutput:\n\n```\n{output}```\n",
                    i + 1
                );
            }
        }
        Samples::Dialogue { lines, .. } => {
            s.push_str(
                "\n## Example\n\nLines starting with `>` are the judge's, lines starting with `<` are yours (the signs are not part of the dialogue).\n\n```\n",
            );
            for l in lines {
                let _ = writeln!(s, "{l}");
            }
            s.push_str("```\n");
        }
    }
    s
}

fn case_words(game: &GameSpec) -> String {
    let params: Vec<&str> = game.parameters.iter().map(|(n, _)| n.as_str()).collect();
    let then = if params.is_empty() {
        String::new()
    } else {
        format!(
            ", then {}",
            params
                .iter()
                .map(|p| format!("${p}$"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    match game.position {
        Position::Heaps { .. } => format!(
            "$n$, the number of heaps{then}, then the heaps' sizes $a_1, \\dots, a_n$ ({})",
            if game.same_line {
                "on the same line"
            } else {
                "on the next line"
            }
        ),
        Position::Heap { .. } => format!("$n$, the heap's size{then}, on one line"),
    }
}

fn input_output(game: &GameSpec) -> String {
    let mut s = String::from("## Input\n\n");
    let case = case_words(game);
    match game.cases {
        Framing::Single => {
            let _ = writeln!(s, "One position: {case}.");
        }
        Framing::Counted(_) => {
            let _ = writeln!(
                s,
                "The first line holds $T$, the number of positions. Each position follows: {case}."
            );
        }
        Framing::UntilEof { .. } => {
            let _ = writeln!(s, "Positions until the end of the input, each: {case}.");
        }
        Framing::UntilZero => {
            let _ = writeln!(s, "Positions, each: {case}. A line `0` ends the input.");
        }
    }
    s.push_str("Numbers are separated by spaces and newlines, in any mix.\n\n## Output\n\n");
    let per = if game.multi_case() {
        "For each position, one line: "
    } else {
        "One line: "
    };
    let mv = if game.splits() {
        "`i x y`: from heap $i$ (numbered from 1 in input order) take tokens so that $x$ tokens are left on one side and $y$ on the other ($x$ or $y$ may be 0)"
    } else {
        "`i x`: heap $i$ (numbered from 1 in input order) is left with $x$ tokens"
    };
    match &game.question {
        Question::Winner { win, lose } => {
            let _ = writeln!(s, "{per}`{win}` if the first player wins, else `{lose}`.");
        }
        Question::Move { lose } => {
            let _ = writeln!(
                s,
                "{per}`{lose}` if every move of the first player loses, else a winning move {mv}. Any winning move is accepted."
            );
        }
        Question::Count => {
            let _ = writeln!(
                s,
                "{per}the number of winning moves of the first player, a move written as {mv}; different writings are different moves."
            );
        }
        Question::Play => {}
    }
    s
}

fn interaction(game: &GameSpec) -> String {
    let mv = if game.splits() {
        "a line `i x y`: from heap $i$ (numbered from 1) tokens are taken so that $x$ tokens are left on one side and $y$ on the other; heap $i$ keeps $x$ tokens and, when $y$ is not 0, a new heap of $y$ tokens is added at the end of the list"
    } else {
        "a line `i x`: heap $i$ (numbered from 1) is left with $x$ tokens"
    };
    format!(
        "This time you play, against the judge, which never misses a winning move. **Flush the output after every line you write**; otherwise the run ends with *Time Limit Exceeded*.\n\n\
         ## Interaction\n\n\
         1. The judge writes $T$, the number of games.\n\
         2. For each game the judge writes the position: $n$ $a_1 \\dots a_n$. You answer `first` if you will move first, or `second` if the judge will.\n\
         3. The two sides then move in turn. A move is {mv}. You write your moves; the judge writes its moves in the same form.\n\
         4. A game is over when no move is left; nothing announces it. The next game starts with the judge's next position line.\n\
         5. After the last game your program must exit.\n\n\
         If you lose a game or write anything the judge does not expect, it writes `-1` and stops; your program should then exit.\n"
    )
}
