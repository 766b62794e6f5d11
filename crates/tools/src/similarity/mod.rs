//! Who copied from whom: every pair of submissions to the same problem is
//! compared after names, comments, literals and layout are normalised away
//! ([`tokens`], with tree-sitter's grammars), by winnowed fingerprints of
//! the token streams ([`winnow`], as MOSS does).
//!
//! Short programs are the hard case: two independent correct solutions of
//! a ten-line problem look alike because there is one obvious way to write
//! them. So, as MOSS does with "base code", fingerprints found in the
//! problem's own accepted solutions, or in many students' files, are not
//! evidence and are taken out before scoring; and a pair is reported only
//! when enough fingerprints remain in common, however high the ratio.
//! docs/batch.md explains the figures.

pub mod html;
pub mod tokens;
pub mod winnow;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::batch::walk::{self, Layout};
use crate::judge::Because;
use crate::language::Languages;
use crate::spec::{Problem, ProblemId, ProblemSet, SPEC_FILE};
use tokens::{Lang, Token};
use winnow::Fingerprint;

/// Version of `similarity.json`.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Debug, Error)]
pub enum SimilarityError {
    /// Bad usage or input that no other error caused: not a folder, a
    /// threshold out of range (exit 2).
    #[error("{0}")]
    Usage(String),
    /// The problem named is unknown or does not load (exit 2); the spec's
    /// error is its cause, shown as it words itself.
    #[error(transparent)]
    Problem(Because),
    /// The folder of submissions cannot be read (exit 2).
    #[error(transparent)]
    Folder(Because),
    /// A grammar failed to load (exit 3: the build is broken).
    #[error("grammar: {lang}")]
    Grammar {
        lang: &'static str,
        source: tree_sitter::LanguageError,
    },
    /// The parser returned no tree at all (exit 3: it only does so when
    /// cancelled or given no language, which this code never does).
    #[error("grammar: {lang}: the parser gave up")]
    ParserGaveUp { lang: &'static str },
    /// A report could not be written (exit 3).
    #[error("{path}: cannot write: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The knobs; the defaults are what docs/batch.md explains.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Tokens per k-gram: shorter common runs are noise.
    pub k: usize,
    /// Winnowing window: a common run of `k + window - 1` tokens is
    /// always detected.
    pub window: usize,
    /// A pair is reported when the share of the smaller file's fingerprints
    /// found in the other reaches this (0–1)…
    pub threshold: f64,
    /// …and at least this many fingerprints are in common.
    pub min_matches: usize,
    /// A fingerprint in more than this share of a problem's submissions
    /// (and more than `common_floor` of them) is common idiom, not evidence.
    pub common_share: f64,
    pub common_floor: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            k: 12,
            window: 8,
            threshold: 0.3,
            min_matches: 15,
            common_share: 0.1,
            common_floor: 4,
        }
    }
}

/// One source file to compare.
#[derive(Debug, Clone)]
pub struct Source {
    pub student: String,
    pub problem: ProblemId,
    /// Relative to the class folder, `/`-separated.
    pub file: String,
    pub lang: Lang,
    pub text: String,
}

/// A file that was not compared, and why.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}

/// A reported pair.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Pair {
    pub problem: ProblemId,
    pub a: Side,
    pub b: Side,
    /// Fingerprints in common, after base code and common idiom are out.
    pub matched: usize,
    /// `matched` over the fingerprints of the smaller side (0–1).
    pub score: f64,
    /// The matching regions, as 1-based inclusive line ranges of each side.
    pub regions: Vec<Region>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Side {
    pub student: String,
    pub file: String,
    /// Fingerprints that count (base code and common idiom out).
    pub fingerprints: usize,
    /// Share of them found in the other side.
    pub share: f64,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct Region {
    pub a: [u32; 2],
    pub b: [u32; 2],
}

/// Per problem: what was compared and what was left out as base code.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ProblemSummary {
    pub problem: ProblemId,
    pub submissions: usize,
    pub pairs_compared: usize,
    /// The problem's accepted solutions whose fingerprints were taken out.
    pub base_files: Vec<String>,
    pub base_fingerprints: usize,
    /// Fingerprints found in too many submissions to be evidence.
    pub common_fingerprints: usize,
}

/// `similarity.json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    pub version: u32,
    pub options: Options,
    pub problems: Vec<ProblemSummary>,
    /// Highest score first.
    pub pairs: Vec<Pair>,
    pub skipped: Vec<Skipped>,
}

/// What a problem's base code is: its accepted solutions and its reference.
pub struct Base {
    pub files: Vec<(String, Lang, String)>,
}

impl Base {
    /// The accepted solutions in `problem/submissions/accepted/` and the
    /// reference solution, in the languages with a grammar.
    pub fn of(problem: &Problem, languages: &Languages) -> Base {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(problem.dir.join("submissions/accepted"))
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        paths.extend(problem.reference.iter().cloned());
        paths.sort();
        let files = paths
            .iter()
            .filter_map(|p| {
                let lang = Lang::from_id(&languages.detect(p).ok()?.id)?;
                let text = crate::beneath::read_text(p, crate::beneath::SOURCE_CAP).ok()?;
                let name = match p.strip_prefix(&problem.dir) {
                    Ok(rel) => rel.to_string_lossy().into_owned(),
                    Err(_) => p.file_name()?.to_string_lossy().into_owned(),
                };
                Some((name, lang, text))
            })
            .collect();
        Base { files }
    }
}

/// What [`collect`] found: the sources, the files left out, and each
/// problem's base code.
pub type Collected = (Vec<Source>, Vec<Skipped>, BTreeMap<ProblemId, Base>);

/// The submissions in a class folder laid out as `grundy grade` reads it,
/// and the base code of each problem found.
pub fn collect(
    dir: &Path,
    problem: Option<&str>,
    set: &ProblemSet,
    languages: &Languages,
    skip: Option<PathBuf>,
) -> Result<Collected, SimilarityError> {
    if !dir.is_dir() {
        return Err(SimilarityError::Usage(format!(
            "{}: not a folder (give the folder of submissions: one file or one folder per student)",
            dir.display()
        )));
    }
    let fixed = match problem {
        Some(id) => Some(
            set.find(id)
                .map_err(|e| SimilarityError::Problem(Because::cause(e)))?,
        ),
        None => None,
    };
    let is_problem =
        |name: &str| !name.contains('/') && set.dir.join(name).join(SPEC_FILE).is_file();
    let layout = Layout {
        problem: fixed.as_ref().map(|p| p.id.0.as_str()),
        is_problem: &is_problem,
        languages,
        skip,
    };
    let walked = walk::walk(dir, &layout).map_err(|e| {
        SimilarityError::Folder(Because::of(
            format!("{}: cannot read the folder", dir.display()),
            e,
        ))
    })?;
    let mut skipped: Vec<Skipped> = walked
        .issues
        .iter()
        .map(|i| Skipped {
            file: i.path.clone(),
            reason: i.kind.label().to_string(),
        })
        .collect();
    let mut sources = Vec::new();
    for item in &walked.items {
        let path = dir.join(&item.file);
        let lang = languages
            .detect(&path)
            .ok()
            .and_then(|l| Lang::from_id(&l.id));
        let Some(lang) = lang else {
            skipped.push(Skipped {
                file: item.file.clone(),
                reason: "no grammar for this language".into(),
            });
            continue;
        };
        match walk::read_source(&path) {
            Ok(bytes) => sources.push(Source {
                student: item.student.clone(),
                problem: item.problem.clone(),
                file: item.file.clone(),
                lang,
                text: String::from_utf8_lossy(&bytes).into_owned(),
            }),
            Err(reason) => skipped.push(Skipped {
                file: item.file.clone(),
                reason: reason.to_string(),
            }),
        }
    }
    let mut bases = BTreeMap::new();
    for s in &sources {
        if !bases.contains_key(&s.problem)
            && let Ok(p) = set.find(s.problem.as_str())
        {
            bases.insert(s.problem.clone(), Base::of(&p, languages));
        }
    }
    skipped.sort();
    Ok((sources, skipped, bases))
}

/// A source's tokens and the fingerprints that count.
struct Printed {
    tokens: Vec<Token>,
    /// Kept hash → positions (first token of the k-gram).
    kept: HashMap<u64, Vec<usize>>,
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
    let mut problems = Vec::new();
    let mut pairs = Vec::new();
    for (problem, members) in by_problem {
        let mut base: HashSet<u64> = HashSet::new();
        let mut base_files = Vec::new();
        if let Some(b) = bases.get(problem) {
            for (name, lang, text) in &b.files {
                let t = tokens::tokenize(*lang, text.as_bytes())?;
                base.extend(
                    winnow::winnow(&t, opts.k, opts.window)
                        .iter()
                        .map(|f| f.hash),
                );
                base_files.push(name.clone());
            }
        }
        let mut all: Vec<(Vec<Token>, Vec<Fingerprint>)> = Vec::with_capacity(members.len());
        for &i in &members {
            let t = tokens::tokenize(sources[i].lang, sources[i].text.as_bytes())?;
            let f = winnow::winnow(&t, opts.k, opts.window);
            all.push((t, f));
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
            .filter(|&(h, &n)| n > limit && !base.contains(h))
            .map(|(h, _)| *h)
            .collect();
        let printed: Vec<Printed> = all
            .into_iter()
            .map(|(tokens, fps)| {
                let mut kept: HashMap<u64, Vec<usize>> = HashMap::new();
                for f in fps {
                    if !base.contains(&f.hash) && !common.contains(&f.hash) {
                        kept.entry(f.hash).or_default().push(f.at);
                    }
                }
                Printed { tokens, kept }
            })
            .collect();
        // An inverted index: only pairs that share something are counted.
        let mut index: HashMap<u64, Vec<usize>> = HashMap::new();
        for (j, p) in printed.iter().enumerate() {
            for h in p.kept.keys() {
                index.entry(*h).or_default().push(j);
            }
        }
        let mut shared: HashMap<(usize, usize), usize> = HashMap::new();
        for holders in index.values() {
            for x in 0..holders.len() {
                for y in x + 1..holders.len() {
                    let key = (holders[x].min(holders[y]), holders[x].max(holders[y]));
                    *shared.entry(key).or_default() += 1;
                }
            }
        }
        let n = members.len();
        problems.push(ProblemSummary {
            problem: problem.clone(),
            submissions: n,
            pairs_compared: n * n.saturating_sub(1) / 2,
            base_files,
            base_fingerprints: base.len(),
            common_fingerprints: common.len(),
        });
        for ((x, y), matched) in shared {
            let (pa, pb) = (&printed[x], &printed[y]);
            let (na, nb) = (pa.kept.len(), pb.kept.len());
            let smaller = na.min(nb).max(1);
            let score = matched as f64 / smaller as f64;
            if matched < opts.min_matches || score < opts.threshold {
                continue;
            }
            let (sa, sb) = (&sources[members[x]], &sources[members[y]]);
            // The side with the earlier name first, so the order is stable.
            let (sa, sb, pa, pb, na, nb) = if (&sa.student, &sa.file) <= (&sb.student, &sb.file) {
                (sa, sb, pa, pb, na, nb)
            } else {
                (sb, sa, pb, pa, nb, na)
            };
            pairs.push(Pair {
                problem: problem.clone(),
                a: side(sa, na, matched),
                b: side(sb, nb, matched),
                matched,
                score,
                regions: regions(pa, pb, opts),
            });
        }
    }
    pairs.sort_by(|p, q| {
        q.score
            .total_cmp(&p.score)
            .then_with(|| q.matched.cmp(&p.matched))
            .then_with(|| {
                (&p.problem, &p.a.student, &p.b.student).cmp(&(
                    &q.problem,
                    &q.a.student,
                    &q.b.student,
                ))
            })
    });
    Ok(Report {
        version: FORMAT_VERSION,
        options: opts.clone(),
        problems,
        pairs,
        skipped,
    })
}

fn side(s: &Source, fingerprints: usize, matched: usize) -> Side {
    Side {
        student: s.student.clone(),
        file: s.file.clone(),
        fingerprints,
        share: matched as f64 / fingerprints.max(1) as f64,
    }
}

/// Groups the common fingerprints into regions that run in step in both
/// files, for the side-by-side view.
fn regions(a: &Printed, b: &Printed, opts: &Options) -> Vec<Region> {
    let mut hits: Vec<(usize, usize)> = Vec::new();
    for (h, at_a) in &a.kept {
        if let Some(at_b) = b.kept.get(h) {
            for &x in at_a {
                for &y in at_b {
                    hits.push((x, y));
                }
            }
        }
    }
    hits.sort_unstable();
    let gap = opts.k + opts.window;
    // Token spans [a0, a1] × [b0, b1], the last token included.
    let mut spans: Vec<[usize; 4]> = Vec::new();
    for (x, y) in hits {
        let end = |p: usize, len: usize| (p + opts.k - 1).min(len.saturating_sub(1));
        let (ex, ey) = (end(x, a.tokens.len()), end(y, b.tokens.len()));
        if let Some(s) = spans
            .iter_mut()
            .rev()
            .find(|s| x <= s[1] + gap && y + gap >= s[2] && y <= s[3] + gap)
        {
            s[1] = s[1].max(ex);
            s[2] = s[2].min(y);
            s[3] = s[3].max(ey);
        } else {
            spans.push([x, ex, y, ey]);
        }
    }
    let line = |t: &[Token], i: usize, last: bool| {
        t.get(i)
            .map_or(0, |t| if last { t.last_line } else { t.first_line })
            + 1
    };
    let mut out: Vec<Region> = spans
        .iter()
        .map(|s| Region {
            a: [line(&a.tokens, s[0], false), line(&a.tokens, s[1], true)],
            b: [line(&b.tokens, s[2], false), line(&b.tokens, s[3], true)],
        })
        .collect();
    out.sort_by_key(|r| (r.a, r.b));
    out.dedup();
    out
}

/// Writes `similarity.json` and `similarity.html` into `out`.
pub fn write(
    out: &Path,
    report: &Report,
    sources: &[Source],
) -> Result<Vec<PathBuf>, SimilarityError> {
    let fail = |path: &Path, source| SimilarityError::Write {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(out).map_err(|e| fail(out, e))?;
    let json_path = out.join("similarity.json");
    let mut json = serde_json::to_string_pretty(report)
        .map_err(|e| fail(&json_path, std::io::Error::other(e)))?;
    json.push('\n');
    crate::batch::output::atomic_write(&json_path, json.as_bytes())
        .map_err(|e| fail(&json_path, e))?;
    let html_path = out.join("similarity.html");
    crate::batch::output::atomic_write(&html_path, html::page(report, sources).as_bytes())
        .map_err(|e| fail(&html_path, e))?;
    Ok(vec![json_path, html_path])
}

/// One line per reported pair, for the terminal.
pub fn lines(report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report
        .pairs
        .iter()
        .map(|p| {
            format!(
                "{:>3.0} %  {}  {} ({})  ~  {} ({})  {} fingerprints in common",
                p.score * 100.0,
                p.problem,
                p.a.student,
                p.a.file,
                p.b.student,
                p.b.file,
                p.matched
            )
        })
        .collect();
    let compared: usize = report.problems.iter().map(|p| p.submissions).sum();
    out.push(format!(
        "{} similar pairs among {} submissions to {} problems (threshold {:.0} %, at least {} fingerprints)",
        report.pairs.len(),
        compared,
        report.problems.len(),
        report.options.threshold * 100.0,
        report.options.min_matches
    ));
    out
}

/// `grundy similar DIR` and `grade --similarity`: collect, compare, write
/// the reports into `out`.
pub fn run(
    dir: &Path,
    problem: Option<&str>,
    set: &ProblemSet,
    languages: &Languages,
    opts: &Options,
    out: &Path,
) -> Result<(Report, Vec<PathBuf>), SimilarityError> {
    if !(opts.threshold.is_finite() && (0.0..=1.0).contains(&opts.threshold)) {
        return Err(SimilarityError::Usage(format!(
            "--threshold must be between 0 and 1, found {}",
            opts.threshold
        )));
    }
    let skip = std::path::absolute(out).ok();
    let (sources, skipped, bases) = collect(dir, problem, set, languages, skip)?;
    let report = compare(&sources, &bases, skipped, opts)?;
    let written = write(out, &report, &sources)?;
    Ok((report, written))
}
