//! `grundy export PROBLEM --to DIR`: one of our problems as an ICPC / Kattis
//! problem package (`legacy` version, the one DOMjudge, Kattis and
//! problemtools all read), so a contest can run it unchanged.
//!
//! What goes where: the samples and every generated test, with answers from
//! the reference, in `data/sample/` and `data/secret/<NN>-<group>/` (the
//! number keeps our group order, since the format judges in name order);
//! the reference in `submissions/accepted/`, the known submissions in the
//! folders of their verdicts; the statement as LaTeX; limits in
//! `problem.yaml` and `.timelimit`; the checker as the default validator's
//! flags or as a validator program; and the input validators: the setter's
//! own, and one written from the catalog's description of the input.
//! docs/icpc.md has the details.

mod answers;
mod heap_values;
mod html;
mod input_validators;
mod interactor;
mod statement;
mod validators;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::generate::SAMPLE_GROUP;
use crate::judge::{self, Because, Context};
use crate::problem::{CheckerSpec, IcpcFlags, Problem};
use crate::verdict::Verdict;

pub use html::{markdown_to_html, statement_page};
pub use statement::markdown_to_latex;

/// A problem's statement as one HTML page (see [`html`]); a LaTeX
/// statement (an ICPC package's) is shown as its source.
pub fn statement_html(problem: &Problem) -> Result<String, ExportError> {
    let Some(path) = &problem.statement else {
        return Err(ExportError::Usage(Because::new(format!(
            "{} has no statement (statement.md next to {})",
            problem.id,
            problem.spec_path.display()
        ))));
    };
    let text = crate::problem::file::read_text(path).map_err(|e| {
        ExportError::Usage(Because::of(
            format!("cannot read the statement {}", path.display()),
            e,
        ))
    })?;
    let latex = path.extension().is_some_and(|e| e == "tex");
    let text = crate::problem::statement_text(problem, text, latex);
    let markdown = if latex {
        format!("~~~~~~~~\n{text}\n~~~~~~~~\n")
    } else {
        text
    };
    let l = &problem.limits;
    let limits = format!(
        "Time limit {} s, memory limit {}",
        seconds(l.time.as_secs_f64()),
        l.memory
    );
    Ok(statement_page(&problem.title, &limits, &markdown))
}

/// Why a problem could not be exported.
#[derive(Debug, Error)]
pub enum ExportError {
    /// The problem or the request is at fault (exit 2).
    #[error(transparent)]
    Usage(Because),
    /// Writing failed, or the judge could not prepare the tests (exit 3).
    #[error(transparent)]
    Io(Because),
}

impl From<judge::JudgeError> for ExportError {
    fn from(e: judge::JudgeError) -> Self {
        match e {
            judge::JudgeError::Io(b) => ExportError::Io(b),
            judge::JudgeError::Problem(b)
            | judge::JudgeError::Submission(b)
            | judge::JudgeError::Usage(b) => ExportError::Usage(b),
        }
    }
}

/// What an export wrote, for the summary line and for tests.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    pub samples: usize,
    pub secret: usize,
    /// Each submission's path in the package, relative to it.
    pub submissions: Vec<PathBuf>,
    /// Things the format could not express exactly.
    pub notes: Vec<String>,
}

/// Writes `problem` as a package into `to` (created; must be empty if it exists).
pub fn export(problem: &Problem, ctx: &Context, to: &Path) -> Result<Exported, ExportError> {
    let io = |what: &str, p: &Path| {
        let what = what.to_string();
        let p = p.to_path_buf();
        move |e: std::io::Error| {
            ExportError::Io(Because::of(format!("cannot {what} {}", p.display()), e))
        }
    };
    if to.exists() {
        let mut entries = std::fs::read_dir(to).map_err(io("read", to))?;
        if entries.next().is_some() {
            return Err(ExportError::Usage(Because::new(format!(
                "{} is not empty: export into a new or empty folder",
                to.display()
            ))));
        }
    }
    let name_ok = to.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        !n.is_empty()
            && n.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    let mut out = Exported::default();
    if !name_ok {
        out.notes.push(format!(
            "the format wants the package folder named with lowercase letters and digits only (like `{}`)",
            problem.id.0.replace('-', "")
        ));
    }
    let (validation, flags, validator) = match &problem.interactor {
        Some(i) => interactor::parts(problem, i)?,
        None => checker(problem)?,
    };
    let prepared = judge::prepare(problem, ctx)?;
    let mut groups: Vec<&str> = Vec::new();
    // The format's tools number the samples in name order: `sample-01`
    // before `sample-10`, so that the statement's "Sample 2" is the second.
    let width = prepared
        .tests
        .iter()
        .filter(|t| t.group == SAMPLE_GROUP)
        .count()
        .to_string()
        .len();
    for t in &prepared.tests {
        let answer = t.answer.as_ref().map_err(|why| {
            ExportError::Usage(Because::of(
                format!(
                    "{}: test {} has no answer",
                    problem.spec_path.display(),
                    t.name
                ),
                why.clone(),
            ))
        })?;
        let mut name = t.name.clone();
        let folder = if t.group == SAMPLE_GROUP {
            out.samples += 1;
            name = format!("sample-{:0width$}", out.samples);
            to.join("data").join("sample")
        } else {
            out.secret += 1;
            if !groups.contains(&t.group.as_str()) {
                groups.push(&t.group);
            }
            let k = groups.iter().position(|g| *g == t.group).unwrap_or(0) + 1;
            secret_folder(to, k, &t.group)
        };
        std::fs::create_dir_all(&folder).map_err(io("create", &folder))?;
        let base = folder.join(&name);
        copy(&t.input, &base.with_extension("in"))?;
        copy(answer, &base.with_extension("ans"))?;
    }
    write(
        &to.join("problem.yaml"),
        &problem_yaml(problem, &validation, &flags),
    )?;
    write(
        &to.join(".timelimit"),
        &format!("{}\n", seconds(problem.limits.time.as_secs_f64())),
    )?;
    write_statement(problem, to, out.samples > 0)?;
    if let Some((file, source)) = validator {
        let name = if problem.interactor.is_some() {
            "interactor"
        } else {
            "validator"
        };
        let folder = to.join("output_validators").join(name);
        std::fs::create_dir_all(&folder).map_err(io("create", &folder))?;
        write(&folder.join(&file), &source)?;
    }
    input_validators::write(problem, to, &mut out)?;
    input_validators::write_args(problem, to, &groups)?;
    write_submissions(problem, to, &mut out)?;
    Ok(out)
}

/// The folder of the `k`-th secret group (from 1): `data/secret/01-small`,
/// numbered so that the format's tools take the groups in the spec's order.
fn secret_folder(to: &Path, k: usize, group: &str) -> std::path::PathBuf {
    to.join("data/secret").join(format!("{k:02}-{group}"))
}

/// `validation`, `validator_flags`, and a validator program (file name, source).
type CheckerParts = (String, String, Option<(String, String)>);

/// Our checker in the format's terms: the default validator with flags
/// where an exact equivalent exists, else a validator program.
fn checker(problem: &Problem) -> Result<CheckerParts, ExportError> {
    let default = |f: IcpcFlags| -> CheckerParts { ("default".into(), flags_text(&f), None) };
    // A described game's move question accepts any winning move: its
    // checker is grundy's own, with no program to export.
    if let Some(g) = &problem.game
        && matches!(g.question, crate::catalog::described::Question::Move { .. })
    {
        return Err(ExportError::Usage(Because::new(format!(
            "{}: a described game's move question is judged by grundy's own checker, which has no output validator program to export",
            problem.spec_path.display()
        ))));
    }
    Ok(match &problem.checker {
        // Our tokens checker is case-sensitive; the format's default is not.
        CheckerSpec::Tokens => default(IcpcFlags {
            case_sensitive: true,
            ..IcpcFlags::default()
        }),
        CheckerSpec::Exact => default(IcpcFlags {
            case_sensitive: true,
            space_change_sensitive: true,
            ..IcpcFlags::default()
        }),
        CheckerSpec::Float { abs, rel } => default(IcpcFlags {
            case_sensitive: true,
            float_abs: (*abs > 0.0).then_some(*abs),
            float_rel: (*rel > 0.0).then_some(*rel),
            ..IcpcFlags::default()
        }),
        CheckerSpec::IcpcDefault(f) => default(f.clone()),
        CheckerSpec::Game(name) => {
            let (file, source) = validators::game_validator(name).ok_or_else(|| {
                ExportError::Usage(Because::new(format!(
                    "the game checker `{name}` has no output validator to export"
                )))
            })?;
            (
                "custom".into(),
                String::new(),
                Some((file.into(), source.into())),
            )
        }
        CheckerSpec::Icpc { program, args } => {
            let path = problem.dir.join(program);
            let source = crate::problem::file::read_text(&path).map_err(|e| {
                ExportError::Usage(Because::of(
                    format!("cannot read the validator {}", path.display()),
                    e,
                ))
            })?;
            let file = program
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "validator".into());
            ("custom".into(), args.join(" "), Some((file, source)))
        }
        CheckerSpec::Testlib(p) => {
            return Err(ExportError::Usage(Because::new(format!(
                "{}: the testlib checker {} speaks another protocol than the format's output validators; rewrite it as an ICPC validator (`checker: {{icpc: …}}`) to export",
                problem.spec_path.display(),
                p.display()
            ))));
        }
    })
}

fn flags_text(f: &IcpcFlags) -> String {
    let mut words = Vec::new();
    if f.case_sensitive {
        words.push("case_sensitive".to_string());
    }
    if f.space_change_sensitive {
        words.push("space_change_sensitive".to_string());
    }
    match (f.float_abs, f.float_rel) {
        (Some(a), Some(r)) if a == r => words.push(format!("float_tolerance {a:e}")),
        (a, r) => {
            if let Some(a) = a {
                words.push(format!("float_absolute_tolerance {a:e}"));
            }
            if let Some(r) = r {
                words.push(format!("float_relative_tolerance {r:e}"));
            }
        }
    }
    words.join(" ")
}

fn problem_yaml(problem: &Problem, validation: &str, flags: &str) -> String {
    let mut y = String::new();
    y.push_str(&format!("name: {}\n", yaml_string(&problem.title)));
    if !problem.source.is_empty() {
        y.push_str(&format!("source: {}\n", yaml_string(&problem.source)));
    }
    y.push_str(&format!("uuid: {}\n", uuid(&problem.id.0)));
    y.push_str("limits:\n");
    y.push_str(&format!(
        "  memory: {}\n",
        problem.limits.memory.0.div_ceil(1 << 20)
    ));
    y.push_str(&format!(
        "  output: {}\n",
        problem.limits.output.0.div_ceil(1 << 20)
    ));
    y.push_str(&format!("validation: {validation}\n"));
    if !flags.is_empty() {
        y.push_str(&format!("validator_flags: {}\n", yaml_string(flags)));
    }
    y
}

/// A stable UUID (version 4 layout) derived from the problem id, so that a
/// re-export updates the same problem in an archive instead of adding one.
fn uuid(id: &str) -> String {
    let h = Sha256::digest(format!("grundy problem {id}").as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&h[..16]);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

fn yaml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

fn seconds(s: f64) -> String {
    let t = format!("{s:.3}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn write_statement(problem: &Problem, to: &Path, samples_shown: bool) -> Result<(), ExportError> {
    let markdown = match &problem.statement {
        Some(p) if p.extension().is_some_and(|e| e == "tex") => {
            let tex = crate::problem::file::read_text(p).map_err(|e| {
                ExportError::Usage(Because::of(
                    format!("cannot read the statement {}", p.display()),
                    e,
                ))
            })?;
            return write(&to.join("problem_statement").join("problem.en.tex"), &tex);
        }
        Some(p) => crate::problem::file::read_text(p).map_err(|e| {
            ExportError::Usage(Because::of(
                format!("cannot read the statement {}", p.display()),
                e,
            ))
        })?,
        None => String::new(),
    };
    let tex = markdown_to_latex(&problem.title, &markdown, samples_shown);
    write(&to.join("problem_statement").join("problem.en.tex"), &tex)
}

/// The reference as an accepted submission, then every known submission in
/// the folder of its verdict (the format has no PE, MLE, OLE or CE folder:
/// PE and OLE become wrong answers, MLE a run-time error, CE is left out).
fn write_submissions(problem: &Problem, to: &Path, out: &mut Exported) -> Result<(), ExportError> {
    let mut all: Vec<(Verdict, PathBuf)> = Vec::new();
    if let Some(r) = &problem.reference {
        all.push((Verdict::AC, r.clone()));
    }
    for (verdict, path) in judge::known_submissions(&problem.dir) {
        if Some(&path) != problem.reference.as_ref() {
            all.push((verdict, path));
        }
    }
    let mut taken: BTreeSet<PathBuf> = BTreeSet::new();
    // A described game with no reference: its own answers are the
    // accepted program the format asks for.
    if let Some(rel) = answers::write_accepted(problem, to, out)? {
        taken.insert(rel);
    }
    for (verdict, path) in all {
        let folder = match verdict {
            Verdict::AC => "accepted",
            Verdict::WA | Verdict::PE | Verdict::OLE => "wrong_answer",
            Verdict::TLE => "time_limit_exceeded",
            Verdict::RE | Verdict::MLE => "run_time_error",
            Verdict::CE | Verdict::IE => {
                out.notes.push(format!(
                    "{} left out: the format has no folder for {verdict}",
                    path.display()
                ));
                continue;
            }
        };
        let source =
            crate::problem::file::read_capped(&path, crate::beneath::SOURCE_CAP).map_err(|e| {
                ExportError::Usage(Because::of(
                    format!("cannot read the submission {}", path.display()),
                    e,
                ))
            })?;
        let rel = submission_name(folder, &path, &source, &taken);
        taken.insert(rel.clone());
        let dest = to.join(&rel);
        std::fs::create_dir_all(dest.parent().unwrap_or(to)).map_err(|e| {
            ExportError::Io(Because::of(format!("cannot create {}", dest.display()), e))
        })?;
        std::fs::write(&dest, &source).map_err(|e| {
            ExportError::Io(Because::of(format!("cannot write {}", dest.display()), e))
        })?;
        if path.extension().is_none() {
            make_executable(&dest)?;
        }
        out.submissions.push(rel);
    }
    Ok(())
}

/// Where a submission goes: its own name, made to fit the format's file name
/// rule; a Java file is named after its public class, as javac requires
/// (and inside a folder of its own when two share a class name).
fn submission_name(folder: &str, path: &Path, source: &[u8], taken: &BTreeSet<PathBuf>) -> PathBuf {
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "submission".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned());
    let dir = Path::new("submissions").join(folder);
    let is_java = ext.as_deref() == Some("java");
    let file_stem = if is_java {
        java_class(&String::from_utf8_lossy(source)).unwrap_or_else(|| stem.clone())
    } else {
        stem.clone()
    };
    let file = match &ext {
        Some(e) => format!("{file_stem}.{e}"),
        None => file_stem.clone(),
    };
    let plain = dir.join(&file);
    if !taken.contains(&plain) && !taken.iter().any(|t| t.starts_with(dir.join(&file_stem))) {
        return plain;
    }
    if is_java {
        return dir.join(&stem).join(&file);
    }
    (2..)
        .map(|k| match &ext {
            Some(e) => dir.join(format!("{stem}{k}.{e}")),
            None => dir.join(format!("{stem}{k}")),
        })
        .find(|p| !taken.contains(p))
        .unwrap_or(plain)
}

/// The public top-level class of a Java source, else the class declaring `main`.
fn java_class(source: &str) -> Option<String> {
    let word_after = |key: &str| -> Option<String> {
        let at = source.find(key)? + key.len();
        let name: String = source[at..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    };
    word_after("public class ")
        .or_else(|| word_after("public final class "))
        .or_else(|| word_after("class "))
}

fn copy(from: &Path, to: &Path) -> Result<(), ExportError> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| ExportError::Io(Because::of(format!("cannot write {}", to.display()), e)))
}

fn write(path: &Path, text: &str) -> Result<(), ExportError> {
    write_bytes(path, text.as_bytes())
}

fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            ExportError::Io(Because::of(
                format!("cannot create {}", parent.display()),
                e,
            ))
        })?;
    }
    std::fs::write(path, bytes)
        .map_err(|e| ExportError::Io(Because::of(format!("cannot write {}", path.display()), e)))
}

fn make_executable(path: &Path) -> Result<(), ExportError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).map_err(|e| {
        ExportError::Io(Because::of(
            format!("cannot make {} executable", path.display()),
            e,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_stable_and_well_formed() {
        let a = uuid("nim");
        assert_eq!(a, uuid("nim"));
        assert_ne!(a, uuid("nim-yes-no"));
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
    }

    #[test]
    fn flags_say_what_the_checker_means() {
        let f = IcpcFlags {
            case_sensitive: true,
            float_abs: Some(1e-6),
            float_rel: Some(1e-6),
            ..IcpcFlags::default()
        };
        assert_eq!(flags_text(&f), "case_sensitive float_tolerance 1e-6");
        let f = IcpcFlags {
            float_rel: Some(1e-9),
            ..IcpcFlags::default()
        };
        assert_eq!(flags_text(&f), "float_relative_tolerance 1e-9");
    }

    #[test]
    fn java_files_take_their_class_name() {
        let taken = BTreeSet::new();
        let p = submission_name(
            "accepted",
            Path::new("x/solution.java"),
            b"import a;\npublic class Main {}",
            &taken,
        );
        assert_eq!(p, Path::new("submissions/accepted/Main.java"));
        let mut taken = BTreeSet::new();
        taken.insert(p);
        let q = submission_name(
            "accepted",
            Path::new("x/other.java"),
            b"public class Main {}",
            &taken,
        );
        assert_eq!(q, Path::new("submissions/accepted/other/Main.java"));
        let r = submission_name("accepted", Path::new("y/a.b.py"), b"", &taken);
        assert_eq!(r, Path::new("submissions/accepted/a_b.py"));
    }

    #[test]
    fn an_export_error_prints_its_context_then_its_cause() {
        let io = std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied");
        let e = ExportError::Io(Because::of("cannot write out/problem.yaml", io));
        assert_eq!(e.to_string(), "cannot write out/problem.yaml");
        assert_eq!(
            format!("{:#}", anyhow::Error::from(e)),
            "cannot write out/problem.yaml: permission denied"
        );
        // The judge's failure keeps its words and its side (exit 2 or 3).
        let judged = ExportError::from(judge::JudgeError::Io(Because::of(
            "cannot store a test input",
            std::io::Error::other("disk full"),
        )));
        assert!(matches!(judged, ExportError::Io(_)));
        assert_eq!(
            format!("{:#}", anyhow::Error::from(judged)),
            "cannot store a test input: disk full"
        );
        let refused =
            ExportError::from(judge::JudgeError::Problem(Because::new("p: no reference")));
        assert!(matches!(refused, ExportError::Usage(_)));
    }
}
