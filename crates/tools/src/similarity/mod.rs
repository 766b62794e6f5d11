//! Who copied from whom: every pair of submissions to the same problem is
//! compared after names, comments, literals and layout are normalised away
//! ([`tokens`], with tree-sitter's grammars), by winnowed fingerprints of
//! the token streams ([`winnow`], as MOSS does).
//!
//! Copies are always reported, however short: files with the same bytes,
//! files whose token streams are the same (renamed, reformatted, comments
//! changed), and pairs a few tokens apart ([`near`]). Partial overlap is
//! the hard case for short programs: two independent correct solutions of
//! a ten-line problem share long stretches because there is one obvious
//! way to write them. So, as MOSS does with "base code", fingerprints found
//! in the problem's own accepted solutions, or in many students' files, are
//! not evidence and are taken out before scoring; and a pair that overlaps
//! only in part is reported when enough fingerprints remain in common,
//! however high the ratio. docs/batch.md explains the figures.
//!
//! Memory is bounded per file: a file larger than [`MAX_COMPARED`] is not
//! compared (and is named in the report), and once a file is fingerprinted
//! only its fingerprints (a few per line) are kept, not its tokens.

mod compare;
pub mod html;
pub mod near;
pub mod tokens;
pub mod winnow;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::batch::walk::{self, Layout, SourceError};
use crate::judge::Because;
use crate::language::Languages;
use crate::problem::{Problem, ProblemId, ProblemSet, SPEC_FILE};
pub use compare::compare;
use tokens::Lang;

/// Version of `similarity.json`. 2: `copies` (identical files and the same
/// program renamed or reformatted) and near-identical pairs
/// (`near_identical`), reported whatever their length.
pub const FORMAT_VERSION: u32 = 2;

/// The largest source compared (1 MiB, some 25 000 lines): a longer file
/// is not written by hand, and parsing it would cost the judge's machine
/// tens of times its size in memory. It is named in the report.
pub const MAX_COMPARED: u64 = 1 << 20;

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
    /// An issue of the class folder (as `grade` reports it), rather than a
    /// reason of this comparison's own.
    #[serde(skip)]
    pub folder_issue: bool,
}

/// Files that are copies of each other, whatever their length.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Copies {
    pub problem: ProblemId,
    pub kind: CopyKind,
    /// Sorted by student, then file.
    pub files: Vec<Member>,
    /// Tokens of the program (the same in each file).
    pub tokens: usize,
    /// A file of the problem's own solutions (its base code) that is the
    /// same program, if one is: the copies may be of the textbook answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
}

/// How alike the files of [`Copies`] are.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum CopyKind {
    /// The same bytes.
    Identical,
    /// The same tokens: names, literals, comments or layout changed.
    SameTokens,
}

impl CopyKind {
    pub fn label(self) -> &'static str {
        match self {
            CopyKind::Identical => "identical files",
            CopyKind::SameTokens => "the same program, renamed or reformatted",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Member {
    pub student: String,
    pub file: String,
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
    /// Tokens inserted or deleted to turn one side into the other, when
    /// that is few (near-identical files, reported whatever the figures
    /// above say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub near_identical: Option<usize>,
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
    /// Identical files, then the same programs; by problem, then by their
    /// first file.
    pub copies: Vec<Copies>,
    /// Near-identical pairs first, then by score, highest first; no pair
    /// of files that are [`Copies`].
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
                let text = crate::beneath::read_text(p, MAX_COMPARED).ok()?;
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
            folder_issue: true,
        })
        .collect();
    let mut sources = Vec::new();
    for item in &walked.items {
        let path = dir.join(&item.file);
        let lang = languages
            .detect(&path)
            .ok()
            .and_then(|l| Lang::from_id(&l.id));
        let skip = |reason: String| Skipped {
            file: item.file.clone(),
            reason,
            folder_issue: false,
        };
        let Some(lang) = lang else {
            skipped.push(skip("no grammar for this language".into()));
            continue;
        };
        if path.is_dir() {
            skipped.push(skip(
                "a folder of files: only single files are compared".into(),
            ));
            continue;
        }
        match walk::read_file_within(&path, MAX_COMPARED) {
            Ok(bytes) => sources.push(Source {
                student: item.student.clone(),
                problem: item.problem.clone(),
                file: item.file.clone(),
                lang,
                text: String::from_utf8_lossy(&bytes).into_owned(),
            }),
            Err(SourceError::TooLarge(size)) => skipped.push(skip(format!(
                "{:.1} MiB: larger than the {} MiB compared (look at it yourself)",
                size as f64 / (1 << 20) as f64,
                MAX_COMPARED >> 20
            ))),
            Err(reason) => skipped.push(skip(reason.to_string())),
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

/// One line per group of copies and per reported pair, then the files
/// not compared for a reason of their own, then a summary, for the
/// terminal.
pub fn lines(report: &Report) -> Vec<String> {
    let mut out: Vec<String> = report
        .copies
        .iter()
        .map(|c| {
            let files: Vec<String> = c
                .files
                .iter()
                .map(|m| format!("{} ({})", m.student, m.file))
                .collect();
            format!(
                "{}: {}  {}{}",
                c.kind.label(),
                c.problem,
                files.join(", "),
                match &c.base {
                    Some(b) => format!("  (the same program as the problem's own {b})"),
                    None => String::new(),
                }
            )
        })
        .collect();
    out.extend(report.pairs.iter().map(|p| {
        format!(
            "{:>3.0} %  {}  {} ({})  ~  {} ({})  {}",
            p.score * 100.0,
            p.problem,
            p.a.student,
            p.a.file,
            p.b.student,
            p.b.file,
            match p.near_identical {
                Some(n) => format!(
                    "near-identical: {}",
                    plural(n, "token differs", "tokens differ")
                ),
                None => format!(
                    "{} in common",
                    plural(p.matched, "fingerprint", "fingerprints")
                ),
            }
        )
    }));
    out.extend(
        report
            .skipped
            .iter()
            .filter(|s| !s.folder_issue)
            .map(|s| format!("not compared: {}: {}", s.file, s.reason)),
    );
    let compared: usize = report.problems.iter().map(|p| p.submissions).sum();
    out.push(format!(
        "{} of copies and {} among {} to {} (partial copies: threshold {:.0} %, at least {})",
        plural(report.copies.len(), "group", "groups"),
        plural(report.pairs.len(), "similar pair", "similar pairs"),
        plural(compared, "submission", "submissions"),
        plural(report.problems.len(), "problem", "problems"),
        report.options.threshold * 100.0,
        plural(report.options.min_matches, "fingerprint", "fingerprints"),
    ));
    out
}

/// `1 pair`, `2 pairs`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
