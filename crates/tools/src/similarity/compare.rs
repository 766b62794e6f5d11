//! Comparing the sources of each problem: copies (the same bytes, the same
//! tokens), near-identical pairs, and pairs that share enough fingerprints
//! once base code and common idiom are out.
//!
//! Each file is tokenized and fingerprinted once, one file at a time, and
//! only what the comparison needs is kept: its fingerprints with the lines
//! they span (at most [`MAX_PLACES`] places each), a digest of its token
//! stream, and, for a short file, the stream itself (for [`super::near`]).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::tokens::{self, Token, hash_bytes};
use super::{
    Base, Copies, CopyKind, Member, Options, Pair, ProblemSummary, Region, Report, Side,
    SimilarityError, Skipped, Source, near, winnow,
};
use crate::problem::ProblemId;

/// Places kept of one fingerprint in one file: more are the file repeating
/// itself, which says nothing of where a copy is, and would make the
/// matching of two such files quadratic.
const MAX_PLACES: usize = 4;

/// How far back the regions of a pair are looked for one to extend.
const LOOKBACK: usize = 64;

/// Where a fingerprint is: its first token, and the lines of its k-gram.
#[derive(Debug, Clone, Copy)]
struct Place {
    at: u32,
    first_line: u32,
    last_line: u32,
}

/// What is kept of a file once it is fingerprinted.
struct Printed {
    tokens: usize,
    /// Two independent hashes of the token stream: equal for the same
    /// program renamed or reformatted.
    program: (u64, u64),
    /// A hash of the bytes (equal texts are then compared).
    bytes: u64,
    /// Kept hash → places.
    kept: HashMap<u64, Vec<Place>>,
    /// The tokens' own texts (hashed), for a short file.
    kinds: Option<Vec<u64>>,
    histogram: Option<Vec<(u64, u32)>>,
}

/// A file's tokens and fingerprints, all of them.
struct Read {
    tokens: Vec<Token>,
    prints: Vec<winnow::Fingerprint>,
}

fn read(lang: tokens::Lang, text: &str, opts: &Options) -> Result<Read, SimilarityError> {
    let tokens = tokens::tokenize(lang, text.as_bytes())?;
    let prints = winnow::winnow(&tokens, opts.k, opts.window);
    Ok(Read { tokens, prints })
}

fn program_digest(tokens: &[Token]) -> (u64, u64) {
    let first = tokens.iter().fold(0xcbf2_9ce4_8422_2325, |h, t| {
        hash_bytes(h, &t.kind.to_le_bytes())
    });
    // Another offset and the position mixed in: a second, independent hash.
    let second = tokens
        .iter()
        .enumerate()
        .fold(0x8422_2325_cbf2_9ce4, |h, (i, t)| {
            hash_bytes(h, &(t.kind ^ (i as u64).rotate_left(17)).to_le_bytes())
        });
    (first, second)
}

/// Compares every pair of sources to the same problem.
pub fn compare(
    sources: &[Source],
    bases: &BTreeMap<ProblemId, Base>,
    skipped: Vec<Skipped>,
    opts: &Options,
) -> Result<Report, SimilarityError> {
    let mut by_problem: BTreeMap<&ProblemId, Vec<usize>> = BTreeMap::new();
    for (i, s) in sources.iter().enumerate() {
        by_problem.entry(&s.problem).or_default().push(i);
    }
    let mut report = Report {
        version: super::FORMAT_VERSION,
        options: opts.clone(),
        problems: Vec::new(),
        copies: Vec::new(),
        pairs: Vec::new(),
        skipped,
    };
    for (problem, members) in by_problem {
        compare_problem(
            problem,
            &members,
            sources,
            bases.get(problem),
            opts,
            &mut report,
        )?;
    }
    report.pairs.sort_by(|p, q| {
        p.near_identical
            .is_none()
            .cmp(&q.near_identical.is_none())
            .then_with(|| q.score.total_cmp(&p.score))
            .then_with(|| q.matched.cmp(&p.matched))
            .then_with(|| {
                (&p.problem, &p.a.student, &p.b.student).cmp(&(
                    &q.problem,
                    &q.a.student,
                    &q.b.student,
                ))
            })
    });
    Ok(report)
}

fn compare_problem(
    problem: &ProblemId,
    members: &[usize],
    sources: &[Source],
    base: Option<&Base>,
    opts: &Options,
    report: &mut Report,
) -> Result<(), SimilarityError> {
    let mut base_prints: HashSet<u64> = HashSet::new();
    let mut base_programs: BTreeMap<(u64, u64), String> = BTreeMap::new();
    let mut base_files = Vec::new();
    for (name, lang, text) in base.map(|b| b.files.as_slice()).unwrap_or_default() {
        let r = read(*lang, text, opts)?;
        base_prints.extend(r.prints.iter().map(|f| f.hash));
        base_programs
            .entry(program_digest(&r.tokens))
            .or_insert_with(|| name.clone());
        base_files.push(name.clone());
    }
    // One file at a time: its tokens go once its fingerprints are taken.
    let mut all: Vec<(Printed, Vec<winnow::Fingerprint>)> = Vec::with_capacity(members.len());
    let mut places: Vec<Vec<Place>> = Vec::with_capacity(members.len());
    for &i in members {
        let s = &sources[i];
        let r = read(s.lang, &s.text, opts)?;
        let line_of = |at: usize, last: bool| {
            r.tokens
                .get(at)
                .map_or(0, |t| if last { t.last_line } else { t.first_line })
        };
        let at_places: Vec<Place> = r
            .prints
            .iter()
            .map(|f| Place {
                at: u32::try_from(f.at).unwrap_or(u32::MAX),
                first_line: line_of(f.at, false),
                last_line: line_of(
                    (f.at + opts.k - 1).min(r.tokens.len().saturating_sub(1)),
                    true,
                ),
            })
            .collect();
        let kinds = (r.tokens.len() <= near::MAX_TOKENS)
            .then(|| r.tokens.iter().map(|t| t.text).collect::<Vec<u64>>());
        let printed = Printed {
            tokens: r.tokens.len(),
            program: program_digest(&r.tokens),
            bytes: hash_bytes(0xcbf2_9ce4_8422_2325, s.text.as_bytes()),
            kept: HashMap::new(),
            histogram: kinds.as_deref().map(near::histogram),
            kinds,
        };
        places.push(at_places);
        all.push((printed, r.prints));
    }
    // How many submissions hold each fingerprint.
    let mut holders: HashMap<u64, usize> = HashMap::new();
    for (_, f) in &all {
        let distinct: HashSet<u64> = f.iter().map(|x| x.hash).collect();
        for h in distinct {
            *holders.entry(h).or_default() += 1;
        }
    }
    let limit = opts
        .common_floor
        .max((opts.common_share * members.len() as f64).floor() as usize);
    let common: HashSet<u64> = holders
        .iter()
        .filter(|&(h, &n)| n > limit && !base_prints.contains(h))
        .map(|(h, _)| *h)
        .collect();
    drop(holders);
    let printed: Vec<Printed> = all
        .into_iter()
        .zip(places)
        .map(|((mut p, prints), at)| {
            for (f, place) in prints.iter().zip(at) {
                if !base_prints.contains(&f.hash) && !common.contains(&f.hash) {
                    let v = p.kept.entry(f.hash).or_default();
                    if v.len() < MAX_PLACES {
                        v.push(place);
                    }
                }
            }
            p
        })
        .collect();
    let member = |j: usize| &sources[members[j]];

    // Copies: the same token stream (and within it, the same bytes).
    let mut programs: BTreeMap<(u64, u64), Vec<usize>> = BTreeMap::new();
    for (j, p) in printed.iter().enumerate() {
        if p.tokens > 0 {
            programs.entry(p.program).or_default().push(j);
        }
    }
    let mut same_program: HashSet<(usize, usize)> = HashSet::new();
    let mut copies = Vec::new();
    for (digest, js) in programs.iter().filter(|(_, js)| js.len() > 1) {
        let base = base_programs.get(digest).cloned();
        let group = |js: &[usize], kind| Copies {
            problem: problem.clone(),
            kind,
            files: {
                let mut f: Vec<Member> = js
                    .iter()
                    .map(|&j| Member {
                        student: member(j).student.clone(),
                        file: member(j).file.clone(),
                    })
                    .collect();
                f.sort();
                f
            },
            tokens: printed[js[0]].tokens,
            base: base.clone(),
        };
        for (x, &a) in js.iter().enumerate() {
            for &b in &js[x + 1..] {
                same_program.insert((a.min(b), a.max(b)));
            }
        }
        // Files with the same bytes.
        let mut by_bytes: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
        for &j in js {
            by_bytes.entry(printed[j].bytes).or_default().push(j);
        }
        let mut whole = by_bytes.len() == 1;
        for same in by_bytes.values().filter(|v| v.len() > 1) {
            // Equal hashes, compared: only equal texts are called identical.
            let first = &member(same[0]).text;
            let equal: Vec<usize> = same
                .iter()
                .copied()
                .filter(|&j| member(j).text == *first)
                .collect();
            whole &= equal.len() == js.len();
            if equal.len() > 1 {
                copies.push(group(&equal, CopyKind::Identical));
            }
        }
        if !whole {
            copies.push(group(js, CopyKind::SameTokens));
        }
    }
    copies.sort_by(|a, b| (a.kind, &a.files).cmp(&(b.kind, &b.files)));
    report.copies.extend(copies);

    // Pairs that share fingerprints, through an index from fingerprint to
    // files: only pairs that share something cost anything.
    let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
    for (j, p) in printed.iter().enumerate() {
        for h in p.kept.keys() {
            index.entry(*h).or_default().push(j);
        }
    }
    let mut shared: HashMap<(usize, usize), usize> = HashMap::new();
    for files in index.values() {
        for x in 0..files.len() {
            for y in x + 1..files.len() {
                let key = (files[x].min(files[y]), files[x].max(files[y]));
                *shared.entry(key).or_default() += 1;
            }
        }
    }
    drop(index);

    // Near-identical pairs: short files a few tokens apart.
    let mut near_pairs: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for x in 0..printed.len() {
        for y in x + 1..printed.len() {
            if same_program.contains(&(x, y)) {
                continue;
            }
            let (a, b) = (&printed[x], &printed[y]);
            let (Some(ka), Some(kb), Some(ha), Some(hb)) =
                (&a.kinds, &b.kinds, &a.histogram, &b.histogram)
            else {
                continue;
            };
            let max = near::bound(ka.len(), kb.len());
            if max == 0
                || ka.len().abs_diff(kb.len()) > max
                || near::histogram_distance(ha, hb) > max
            {
                continue;
            }
            if let Some(edits) = near::edits_within(ka, kb, max) {
                near_pairs.insert((x, y), edits);
            }
        }
    }

    let n = members.len();
    report.problems.push(ProblemSummary {
        problem: problem.clone(),
        submissions: n,
        pairs_compared: n * n.saturating_sub(1) / 2,
        base_files,
        base_fingerprints: base_prints.len(),
        common_fingerprints: common.len(),
    });
    let mut candidates: BTreeMap<(usize, usize), usize> = shared
        .into_iter()
        .filter(|(key, _)| !same_program.contains(key))
        .collect();
    for key in near_pairs.keys() {
        candidates.entry(*key).or_insert(0);
    }
    for ((x, y), matched) in candidates {
        let near_identical = near_pairs.get(&(x, y)).copied();
        let (pa, pb) = (&printed[x], &printed[y]);
        let (na, nb) = (pa.kept.len(), pb.kept.len());
        let score = matched as f64 / na.min(nb).max(1) as f64;
        if near_identical.is_none() && (matched < opts.min_matches || score < opts.threshold) {
            continue;
        }
        let (sa, sb) = (member(x), member(y));
        // The side with the earlier name first, so the order is stable.
        let (sa, sb, pa, pb, na, nb) = if (&sa.student, &sa.file) <= (&sb.student, &sb.file) {
            (sa, sb, pa, pb, na, nb)
        } else {
            (sb, sa, pb, pa, nb, na)
        };
        report.pairs.push(Pair {
            problem: problem.clone(),
            a: side(sa, na, matched),
            b: side(sb, nb, matched),
            matched,
            score,
            regions: regions(pa, pb, opts),
            near_identical,
        });
    }
    Ok(())
}

fn side(s: &Source, fingerprints: usize, matched: usize) -> Side {
    Side {
        student: s.student.clone(),
        file: s.file.clone(),
        fingerprints,
        share: matched as f64 / fingerprints.max(1) as f64,
    }
}

/// A region being grown: token spans of both files and the lines they
/// cover.
struct Span {
    a: [u32; 2],
    a_lines: [u32; 2],
    b: [u32; 2],
    b_lines: [u32; 2],
}

/// Groups the common fingerprints into regions that run in step in both
/// files, for the side-by-side view.
fn regions(a: &Printed, b: &Printed, opts: &Options) -> Vec<Region> {
    let mut hits: Vec<(Place, Place)> = Vec::new();
    for (h, at_a) in &a.kept {
        if let Some(at_b) = b.kept.get(h) {
            for &x in at_a {
                for &y in at_b {
                    hits.push((x, y));
                }
            }
        }
    }
    hits.sort_unstable_by_key(|(x, y)| (x.at, y.at));
    let gap = u32::try_from(opts.k + opts.window).unwrap_or(u32::MAX);
    let last = u32::try_from(opts.k.saturating_sub(1)).unwrap_or(0);
    let mut spans: Vec<Span> = Vec::new();
    for (x, y) in hits {
        let (ex, ey) = (x.at.saturating_add(last), y.at.saturating_add(last));
        let found = spans.iter_mut().rev().take(LOOKBACK).find(|s| {
            x.at <= s.a[1].saturating_add(gap)
                && y.at.saturating_add(gap) >= s.b[0]
                && y.at <= s.b[1].saturating_add(gap)
        });
        match found {
            Some(s) => {
                if ex > s.a[1] {
                    s.a[1] = ex;
                    s.a_lines[1] = s.a_lines[1].max(x.last_line);
                }
                if y.at < s.b[0] {
                    s.b[0] = y.at;
                    s.b_lines[0] = s.b_lines[0].min(y.first_line);
                }
                if ey > s.b[1] {
                    s.b[1] = ey;
                    s.b_lines[1] = s.b_lines[1].max(y.last_line);
                }
            }
            None => spans.push(Span {
                a: [x.at, ex],
                a_lines: [x.first_line, x.last_line],
                b: [y.at, ey],
                b_lines: [y.first_line, y.last_line],
            }),
        }
    }
    let mut out: Vec<Region> = spans
        .iter()
        .map(|s| Region {
            a: [s.a_lines[0] + 1, s.a_lines[1] + 1],
            b: [s.b_lines[0] + 1, s.b_lines[1] + 1],
        })
        .collect();
    out.sort_by_key(|r| (r.a, r.b));
    out.dedup();
    out
}
