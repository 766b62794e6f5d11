//! The `grundy` command line: parse, call the library, map failures to the
//! exit codes of SPEC.md (0 all AC, 1 something not AC, 2 bad usage or bad
//! spec/input, 3 internal error).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, anyhow};
use clap::{Args, Parser, Subcommand};

use grundy::cache::Cache;
use grundy::judge::{self, Context, JudgeError, Options};
use grundy::language::Languages;
use grundy::report::{self, Reporter, Style, Terminal};
use grundy::spec::{Problem, ProblemSet};
use grundy::verdict::Verdict;
use grundy::verify::{self, Status};

#[derive(Parser)]
#[command(
    name = "grundy",
    version,
    about = "Judge and grade programs for impartial-game problems (Nim and family)"
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args)]
struct Global {
    /// Folder of problems [default: $GRUNDY_PROBLEMS, else ./problems]
    #[arg(long, global = true, value_name = "DIR")]
    problems: Option<PathBuf>,
    /// Cache folder [default: $GRUNDY_CACHE, else ~/.cache/grundy]
    #[arg(long, global = true, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Languages config file (YAML) applied over the built-in table [default: $GRUNDY_LANGUAGES]
    #[arg(long, global = true, value_name = "FILE")]
    languages: Option<PathBuf>,
    /// Isolation of the programs run: `auto` (the strongest available, see
    /// SECURITY.md) or `off` (limits only; never for untrusted code)
    #[arg(long, global = true, value_enum, default_value_t = SandboxMode::Auto)]
    sandbox: SandboxMode,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SandboxMode {
    Auto,
    Off,
}

#[derive(Subcommand)]
enum Command {
    /// List the problems with their titles, limits and sources
    List {
        #[arg(long)]
        json: bool,
    },
    /// Judge submissions on a problem
    Judge {
        /// Problem id, or a folder holding problem.yaml
        problem: String,
        /// Source files (C, C++, Java, Python 3, Rust) or executables
        #[arg(required = true)]
        submissions: Vec<PathBuf>,
        /// Print SPEC.md's JSON object instead of the terminal view
        #[arg(long)]
        json: bool,
        /// Judge only this group (repeatable; `sample` is the samples)
        #[arg(long = "tests", value_name = "GROUP")]
        tests: Vec<String>,
        /// Tests run at once (default 1: timings stay comparable)
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Language id instead of detection by extension (c, cpp, java, python, rust, exe)
        #[arg(long)]
        lang: Option<String>,
    },
    /// Check references, oracles, known submissions and samples
    Verify {
        /// Problem ids (default: all)
        #[arg(value_name = "PROBLEM")]
        ids: Vec<String>,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// Grade a folder of submissions: grades.csv, report.json, junit.xml, report.html, feedback/
    Grade {
        /// One file per student (with --problem), or one folder per student
        /// holding one file per problem named after the problem id
        dir: PathBuf,
        /// The problem every file is for (one file per student)
        #[arg(long)]
        problem: Option<String>,
        /// Tests run at once [default: half the CPUs, at least 1; at most the CPUs]
        #[arg(long)]
        jobs: Option<usize>,
        /// Output folder
        #[arg(long, default_value = "grundy-out")]
        out: PathBuf,
        /// Continue an interrupted run in OUT without judging again what is done
        #[arg(long)]
        resume: bool,
        /// Judge share K of N (K from 0), for job arrays; `grundy merge` combines the shares
        #[arg(long, value_name = "K/N")]
        shard: Option<grundy::batch::Shard>,
        /// What the feedback files tell: verdict, groups, or first-fail
        #[arg(long, default_value = "groups", value_name = "LEVEL")]
        feedback: grundy::batch::FeedbackLevel,
    },
    /// Judge a local contest and print its scoreboard (also OUT/scoreboard.html)
    Contest {
        /// The contest file (problems, contestants, submissions, scoring)
        file: PathBuf,
        /// Tests run at once [default: half the CPUs, at least 1]
        #[arg(long)]
        jobs: Option<usize>,
        /// Output folder
        #[arg(long, default_value = "grundy-contest")]
        out: PathBuf,
        /// Reuse the results in OUT: judge only new or unfinished submissions
        #[arg(long)]
        resume: bool,
    },
    /// Combine the outputs of `grade --shard` runs into the reports of one run
    Merge {
        /// The shards' output folders
        #[arg(required = true, value_name = "SHARD_OUT")]
        inputs: Vec<PathBuf>,
        /// Output folder for the combined reports
        #[arg(long)]
        out: PathBuf,
        /// What the feedback files tell [default: as the shards were run]
        #[arg(long, value_name = "LEVEL")]
        feedback: Option<grundy::batch::FeedbackLevel>,
    },
    /// Write a problem's tests as <name>.in / <name>.ans
    Gen {
        problem: String,
        /// Base seed replacing the spec's
        #[arg(long)]
        seed: Option<u64>,
        /// Output folder [default: ./tests-<problem>]
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Search for an input a submission fails, and shrink it (see docs/stress.md)
    Stress {
        problem: String,
        submission: PathBuf,
        /// Seconds for the search (shrinking may take as long again)
        #[arg(long, default_value_t = 10.0)]
        time: f64,
        /// Seed of the fresh random rounds
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print {"found", "input", "expected", "actual", "verdict", "tries", …}
        #[arg(long)]
        json: bool,
        /// Tests run at once
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Language id instead of detection by extension
        #[arg(long)]
        lang: Option<String>,
    },
    /// Write a problem as an ICPC / Kattis problem package (see docs/icpc.md)
    Export {
        problem: String,
        /// The package folder to create (new or empty; name it like `nimyesno`)
        #[arg(long = "to", value_name = "DIR")]
        to: PathBuf,
    },
}

/// A failure with the exit code it deserves.
struct Failure {
    code: u8,
    error: anyhow::Error,
}

fn usage(error: anyhow::Error) -> Failure {
    Failure { code: 2, error }
}

fn internal(error: anyhow::Error) -> Failure {
    Failure { code: 3, error }
}

impl From<JudgeError> for Failure {
    fn from(e: JudgeError) -> Self {
        match e {
            JudgeError::Problem(_) | JudgeError::Submission(_) => usage(anyhow!(e)),
            JudgeError::Io(_) => internal(anyhow!(e)),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            eprintln!("grundy: {:#}", f.error);
            ExitCode::from(f.code)
        }
    }
}

fn run(cli: Cli) -> Result<u8, Failure> {
    let g = &cli.global;
    grundy::sandbox::set_mode(match g.sandbox {
        SandboxMode::Auto => grundy::sandbox::Mode::Auto,
        SandboxMode::Off => grundy::sandbox::Mode::Off,
    });
    match cli.command {
        Command::List { json } => list(g, json),
        Command::Judge {
            problem,
            submissions,
            json,
            tests,
            jobs,
            lang,
        } => {
            let options = Options {
                jobs,
                groups: tests,
                fail_fast: false,
                language: lang,
                cancel: None,
            };
            judge_cmd(g, &problem, &submissions, json, &options)
        }
        Command::Verify { ids, jobs } => verify_cmd(g, &ids, jobs),
        Command::Gen { problem, seed, out } => gen_cmd(g, &problem, seed, out),
        Command::Grade {
            dir,
            problem,
            jobs,
            out,
            resume,
            shard,
            feedback,
        } => batch_cmd::grade(g, dir, problem, jobs, out, resume, shard, feedback),
        Command::Contest {
            file,
            jobs,
            out,
            resume,
        } => batch_cmd::contest(g, file, jobs, out, resume),
        Command::Merge {
            inputs,
            out,
            feedback,
        } => batch_cmd::merge(inputs, out, feedback),
        Command::Export { problem, to } => export_cmd(g, &problem, &to),
        Command::Stress {
            problem,
            submission,
            time,
            seed,
            json,
            jobs,
            lang,
        } => {
            if !(time.is_finite() && time > 0.0 && time <= 86_400.0) {
                return Err(usage(anyhow!(
                    "--time must be a number of seconds above 0, found {time}"
                )));
            }
            let options = grundy::stress::Options {
                time: std::time::Duration::from_secs_f64(time),
                seed,
                jobs,
                language: lang,
            };
            stress_cmd(g, &problem, &submission, &options, json)
        }
    }
}

/// The batch commands: grade, contest, merge.
mod batch_cmd {
    use std::path::PathBuf;

    use anyhow::anyhow;
    use grundy::batch::contest::{self, ContestOptions};
    use grundy::batch::merge::{self, MergeOptions};
    use grundy::batch::{self, BatchError, FeedbackLevel, GradeOptions, RunSummary, Shard};
    use grundy::report::{self, Style};

    use super::{Failure, Global, context, internal, problem_set, usage};

    fn failure(e: BatchError) -> Failure {
        match e {
            BatchError::Usage(m) => usage(anyhow!(m)),
            BatchError::Internal(m) => internal(anyhow!(m)),
        }
    }

    fn jobs(requested: Option<usize>) -> usize {
        let (n, note) = batch::jobs(requested);
        if let Some(note) = note {
            eprintln!("grundy: {note}");
        }
        n
    }

    /// Prints the closing lines; an interrupted run exits 128 + the signal.
    fn finish(summary: &RunSummary) -> u8 {
        match summary.interrupted {
            Some(sig) => {
                for l in &summary.lines {
                    eprintln!("grundy: {l}");
                }
                128u8.saturating_add(u8::try_from(sig).unwrap_or(0))
            }
            None => {
                for l in &summary.lines {
                    println!("{l}");
                }
                summary.exit
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn grade(
        g: &Global,
        dir: PathBuf,
        problem: Option<String>,
        jobs_wanted: Option<usize>,
        out: PathBuf,
        resume: bool,
        shard: Option<Shard>,
        feedback: FeedbackLevel,
    ) -> Result<u8, Failure> {
        let opts = GradeOptions {
            dir,
            problem,
            jobs: jobs(jobs_wanted),
            out,
            resume,
            shard,
            feedback,
        };
        let ctx = context(g)?;
        let summary = batch::grade(&problem_set(g), &ctx, &opts).map_err(failure)?;
        Ok(finish(&summary))
    }

    pub fn contest(
        g: &Global,
        file: PathBuf,
        jobs_wanted: Option<usize>,
        out: PathBuf,
        resume: bool,
    ) -> Result<u8, Failure> {
        let opts = ContestOptions {
            file,
            jobs: jobs(jobs_wanted),
            out,
            resume,
        };
        let ctx = context(g)?;
        let run = contest::contest(&problem_set(g), &ctx, &opts).map_err(failure)?;
        if let Some(standings) = &run.standings {
            print!("{}", report::scoreboard_text(standings, &Style::detect()));
            if !run.issues.is_empty() {
                println!(
                    "{} submissions not counted or not judged (listed in submissions.json)",
                    run.issues.len()
                );
            }
        }
        Ok(finish(&run.summary))
    }

    pub fn merge(
        inputs: Vec<PathBuf>,
        out: PathBuf,
        feedback: Option<FeedbackLevel>,
    ) -> Result<u8, Failure> {
        let summary = merge::merge(&MergeOptions {
            inputs,
            out,
            feedback,
        })
        .map_err(failure)?;
        Ok(finish(&summary))
    }
}

fn problem_set(g: &Global) -> ProblemSet {
    let dir = g
        .problems
        .clone()
        .or_else(|| std::env::var_os("GRUNDY_PROBLEMS").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("problems"));
    ProblemSet::new(dir)
}

fn context(g: &Global) -> Result<Context, Failure> {
    let cache_dir = g.cache.clone().unwrap_or_else(Cache::default_location);
    let cache = Cache::open(&cache_dir)
        .with_context(|| {
            format!(
                "cannot use the cache folder {} (choose another with --cache)",
                cache_dir.display()
            )
        })
        .map_err(internal)?;
    let config = g
        .languages
        .clone()
        .or_else(|| std::env::var_os("GRUNDY_LANGUAGES").map(PathBuf::from));
    let languages = match config {
        Some(p) => Languages::with_config(&p).map_err(|e| usage(anyhow!(e)))?,
        None => Languages::default(),
    };
    Ok(Context::new(cache, languages)?)
}

fn find(g: &Global, id: &str) -> Result<Problem, Failure> {
    problem_set(g).find(id).map_err(|e| usage(anyhow!(e)))
}

fn list(g: &Global, json: bool) -> Result<u8, Failure> {
    let problems = problem_set(g).all().map_err(|e| usage(anyhow!(e)))?;
    if json {
        let rows: Vec<_> = problems
            .iter()
            .map(|p| {
                serde_json::json!({
                    "id": p.id.0, "title": p.title, "source": p.source,
                    "time_ms": p.limits.time.as_millis() as u64,
                    "memory_kib": p.limits.memory.kib(),
                    "output_kib": p.limits.output.kib(),
                    "groups": p.groups.iter().map(|g| &g.name).collect::<Vec<_>>(),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).map_err(|e| internal(anyhow!(e)))?
        );
        return Ok(0);
    }
    let width = problems
        .iter()
        .map(|p| p.id.0.len())
        .max()
        .unwrap_or(2)
        .max(2);
    println!(
        "{:<width$}  {:<32} {:>6} {:>8}  source",
        "id", "title", "time", "memory"
    );
    for p in &problems {
        println!(
            "{:<width$}  {:<32} {:>5}s {:>8}  {}",
            p.id.0,
            p.title,
            p.limits.time.as_secs_f64(),
            p.limits.memory.to_string(),
            p.source
        );
    }
    Ok(0)
}

fn judge_cmd(
    g: &Global,
    id: &str,
    submissions: &[PathBuf],
    json: bool,
    options: &Options,
) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    for s in submissions {
        if !s.is_file() && !s.is_dir() {
            return Err(usage(anyhow!("{}: no such file", s.display())));
        }
    }
    let ctx = context(g)?;
    let prepared = judge::prepare(&problem, &ctx)?;
    let mut term = Terminal::new(std::io::stdout(), Style::detect());
    let mut results = Vec::new();
    for s in submissions {
        let mut sink = |e: &judge::Event<'_>| {
            if !json {
                term.event(e)
            }
        };
        results.push(judge::judge(&prepared, &ctx, s, options, &mut sink)?);
    }
    if json {
        println!("{}", report::json(&results));
    }
    Ok(exit_code(results.iter().map(|r| r.verdict)))
}

fn exit_code(verdicts: impl Iterator<Item = Verdict>) -> u8 {
    let mut code = 0;
    for v in verdicts {
        match v {
            Verdict::AC => {}
            Verdict::IE => return 3,
            _ => code = 1,
        }
    }
    code
}

fn verify_cmd(g: &Global, ids: &[String], jobs: usize) -> Result<u8, Failure> {
    let problems = if ids.is_empty() {
        problem_set(g).all().map_err(|e| usage(anyhow!(e)))?
    } else {
        ids.iter().map(|id| find(g, id)).collect::<Result<_, _>>()?
    };
    let ctx = context(g)?;
    let style = Style::detect();
    let mut all_ok = true;
    println!(
        "{:<18} {:>5}  {:<10} {:<10} {:<10} known",
        "problem", "tests", "reference", "oracle", "samples"
    );
    for p in &problems {
        let report = match verify::verify(p, &ctx, jobs) {
            Ok(r) => r,
            Err(e) => {
                all_ok = false;
                println!("{:<18} {}", p.id.0, style.verdict(Verdict::IE));
                println!("  {e}");
                continue;
            }
        };
        all_ok &= report.passed();
        print_report(&report, &style);
    }
    println!(
        "{}",
        if all_ok {
            "verify: everything as expected"
        } else {
            "verify: FAILED"
        }
    );
    Ok(if all_ok { 0 } else { 1 })
}

fn print_report(r: &verify::ProblemReport, style: &Style) {
    let word = |s: &Status| match s {
        Status::Passed(_) => "ok",
        Status::Failed(_) => "FAILED",
        Status::Skipped(_) => "skipped",
    };
    let good = r
        .known
        .iter()
        .filter(|k| k.skipped.is_none() && k.got == k.expected)
        .count();
    println!(
        "{:<18} {:>5}  {:<10} {:<10} {:<10} {}/{}",
        r.id,
        r.tests,
        word(&r.reference),
        word(&r.oracle),
        word(&r.samples),
        good,
        r.known.len()
    );
    for s in [&r.reference, &r.oracle, &r.samples] {
        if let Status::Failed(why) = s {
            println!("  {} {why}", style.verdict(Verdict::WA));
        }
    }
    for n in &r.notes {
        println!("  note: {n}");
    }
    for k in &r.known {
        let name = k
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(why) = &k.skipped {
            println!("  --  {name:<28} {why}");
            continue;
        }
        let mark = if k.got == k.expected { "ok " } else { "BAD" };
        println!(
            "  {mark} {:<28} expected {:<3} got {:<3} {}{}",
            name,
            k.expected.code(),
            k.got.code(),
            k.first_failing
                .as_deref()
                .map(|t| format!("at {t}"))
                .unwrap_or_default(),
            if k.got == k.expected || k.message.is_empty() {
                String::new()
            } else {
                format!(" — {}", k.message)
            }
        );
    }
}

fn gen_cmd(g: &Global, id: &str, seed: Option<u64>, out: Option<PathBuf>) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    let mut ctx = context(g)?;
    ctx.seed = seed;
    let out = out.unwrap_or_else(|| PathBuf::from(format!("tests-{id}")));
    let prepared = judge::prepare(&problem, &ctx)?;
    std::fs::create_dir_all(&out)
        .with_context(|| format!("cannot create {}", out.display()))
        .map_err(usage)?;
    for t in &prepared.tests {
        copy(&t.input, &out.join(format!("{}.in", t.name)))?;
        match &t.answer {
            Ok(a) => copy(a, &out.join(format!("{}.ans", t.name)))?,
            Err(why) => return Err(usage(anyhow!("{}: {why}", t.name))),
        }
    }
    eprintln!("wrote {} tests to {}", prepared.tests.len(), out.display());
    Ok(0)
}

fn copy(from: &Path, to: &Path) -> Result<(), Failure> {
    std::fs::copy(from, to)
        .map(|_| ())
        .with_context(|| format!("cannot write {}", to.display()))
        .map_err(usage)
}

fn export_cmd(g: &Global, id: &str, to: &Path) -> Result<u8, Failure> {
    use grundy::export::{self, ExportError};
    let problem = find(g, id)?;
    let ctx = context(g)?;
    let done = export::export(&problem, &ctx, to).map_err(|e| match e {
        ExportError::Usage(_) => usage(anyhow!(e)),
        ExportError::Io(_) => internal(anyhow!(e)),
    })?;
    for note in &done.notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "wrote {} as a problem package in {}: {} samples, {} secret tests, {} submissions",
        problem.id,
        to.display(),
        done.samples,
        done.secret,
        done.submissions.len()
    );
    Ok(0)
}

fn stress_cmd(
    g: &Global,
    id: &str,
    submission: &Path,
    options: &grundy::stress::Options,
    json: bool,
) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    if !submission.is_file() {
        return Err(usage(anyhow!("{}: no such file", submission.display())));
    }
    let ctx = context(g)?;
    let report = grundy::stress::stress(&problem, &ctx, submission, options)?;
    let secs = report.elapsed.as_secs_f64();
    if json {
        let v = match &report.found {
            Some(c) => serde_json::json!({
                "found": true, "input": c.input, "expected": c.expected, "actual": c.actual,
                "verdict": c.verdict.code(), "tries": report.tries, "message": c.message,
                "tokens": c.tokens, "found_tokens": c.found_tokens, "reproduce": c.reproduce,
                "seconds": secs,
            }),
            None => serde_json::json!({"found": false, "tries": report.tries, "seconds": secs}),
        };
        println!("{v}");
    } else {
        let shown = submission.display();
        match &report.found {
            None => println!(
                "stress {id} {shown}: no failing input in {} tries ({secs:.1} s); every output agreed with the reference",
                report.tries
            ),
            Some(c) if c.verdict == Verdict::CE => {
                println!(
                    "stress {id} {shown}: the submission does not compile:\n{}",
                    c.message.trim_end()
                );
            }
            Some(c) => {
                println!(
                    "stress {id} {shown}: {} after {} tries ({secs:.1} s); shrunk from {} to {} numbers",
                    c.verdict.code(),
                    report.tries,
                    c.found_tokens,
                    c.tokens
                );
                let block = |title: &str, text: &str| {
                    println!("{title}:");
                    for line in text.lines() {
                        println!("  {line}");
                    }
                };
                block("input", &c.input);
                block("expected", &c.expected);
                block("actual", &c.actual);
                println!("why: {}", c.message);
                println!("reproduce: {}", c.reproduce);
            }
        }
    }
    Ok(if report.found.is_some() { 1 } else { 0 })
}
