//! The `grundy` command line: parse, call the library, print, and map
//! failures to the exit codes of docs/reference.md (all of them in
//! [`exit`]). One
//! file per command; printing happens here and in `report`, never in the
//! library.

mod cache;
mod contest;
mod executables;
mod exit;
mod export;
mod game;
mod gen_cmd;
mod grade;
mod judge;
mod judgehost;
mod list;
mod merge;
mod mutants;
mod new;
mod out;
mod run_cmd;
mod serve;
mod similar;
mod statement;
mod stress;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, anyhow};
use clap::{Args, Parser, Subcommand};

use grundy::cache::Cache;
use grundy::judge::{Context, Options};
use grundy::language::Languages;
use grundy::problem::{Problem, ProblemSet};

use exit::{Failure, internal, usage};

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
    /// Let `grade`, `contest` and `serve` run untrusted code although the sandbox
    /// lacks protections (as an ordinary user; see SECURITY.md)
    #[arg(long, global = true)]
    allow_weak_sandbox: bool,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SandboxMode {
    Auto,
    Off,
}

/// Each subcommand's arguments are defined only when it is the one run (or
/// its help is asked for): defining all of them cost every start more than
/// parsing the command line itself.
#[derive(Subcommand)]
#[command(defer = true)]
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
        /// Print one JSON object (see docs/reference.md) instead of the terminal view
        #[arg(long)]
        json: bool,
        /// Judge only this group (repeatable; `sample` is the samples)
        #[arg(long = "tests", value_name = "GROUP")]
        tests: Vec<String>,
        /// Tests using a CPU at once; a test seen sleeping lends its place
        /// (default 1: timings stay comparable)
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Language id instead of detection by extension (c, cpp, java, python, python2, rust, bash, exe)
        #[arg(long)]
        lang: Option<String>,
        /// Run every test, even after a test of its group has failed
        #[arg(long)]
        all: bool,
        /// Also write the HTML report (with the replay of a lost played game) to FILE
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Check references, oracles, known submissions and samples
    Verify {
        /// Problem ids (default: all)
        #[arg(value_name = "PROBLEM")]
        ids: Vec<String>,
        #[command(flatten)]
        how: verify::How,
    },
    /// Grade a folder of submissions: grades.csv, report.json, junit.xml, report.html, feedback/
    Grade {
        /// One file per student (with --problem), or one folder per student
        /// holding one file per problem named after the problem id
        dir: PathBuf,
        /// The problem every file is for (one file per student)
        #[arg(long)]
        problem: Option<String>,
        /// Tests using a CPU at once; a test seen sleeping lends its place, up
        /// to 4× as many alive [default: half the CPUs, at least 1; at most the CPUs]
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
        /// Also compare the submissions pairwise: OUT/similarity.html and .json (see `similar`)
        #[arg(long)]
        similarity: bool,
        /// Run every test, even after a test of its group has failed
        #[arg(long)]
        all: bool,
    },
    /// Find pairs of submissions that look copied: OUT/similarity.html and similarity.json
    Similar {
        /// The class folder, laid out as for `grade`
        dir: PathBuf,
        /// The problem every file is for (one file per student)
        #[arg(long)]
        problem: Option<String>,
        /// Report pairs sharing at least this share (0-1) of the smaller file's fingerprints
        #[arg(long, default_value_t = 0.3)]
        threshold: f64,
        /// ...and at least this many fingerprints
        #[arg(long, default_value_t = 15)]
        min_matches: usize,
        /// Print similarity.json instead of one line per pair
        #[arg(long)]
        json: bool,
        /// Output folder
        #[arg(long, default_value = "grundy-similar")]
        out: PathBuf,
    },
    /// Judge a local contest and print its scoreboard (also OUT/scoreboard.html)
    Contest {
        /// The contest file (problems, contestants, submissions, scoring)
        file: PathBuf,
        /// Tests using a CPU at once; a test seen sleeping lends its place, up
        /// to 4× as many alive [default: half the CPUs, at least 1]
        #[arg(long)]
        jobs: Option<usize>,
        /// Output folder
        #[arg(long, default_value = "grundy-contest")]
        out: PathBuf,
        /// Reuse the results in OUT: judge only new or unfinished submissions
        #[arg(long)]
        resume: bool,
        /// Run every test, even after a test of its group has failed
        #[arg(long)]
        all: bool,
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
    /// Measure the tests by the mutants of the reference and the accepted submissions they reject; --harden adds tests for survivors (see docs/mutants.md)
    Mutants {
        /// Problem ids, or paths to problem folders / packages
        #[arg(value_name = "PROBLEM", required = true)]
        ids: Vec<String>,
        /// Print one JSON object per problem
        #[arg(long)]
        json: bool,
        /// Tests using a CPU at once, whichever mutants they judge; a test
        /// seen sleeping lends its place
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Start no mutant after this many seconds (the rest are "not run")
        #[arg(long, value_name = "SECONDS")]
        time_budget: Option<f64>,
        /// Add each survivor's shrunk input to problem.yaml as a new group, then judge again
        #[arg(long)]
        harden: bool,
        /// Mutate only this program (repeatable); default: the reference and every accepted submission
        #[arg(long = "program", value_name = "FILE")]
        programs: Vec<PathBuf>,
        /// Judge only mutants of this kind (repeatable; `narrow-*` matches a prefix)
        #[arg(long = "kind", value_name = "KIND")]
        kinds: Vec<String>,
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
        /// Stop after this many inputs (or at --time, whichever comes first)
        #[arg(long)]
        tries: Option<u64>,
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
    /// Show or clear the compile cache (see README: the compile cache)
    Cache {
        #[command(subcommand)]
        command: cache::CacheCommand,
    },
    /// Write a new problem that verifies as written: spec, statement, reference, generator, validator, submissions
    New {
        /// The new problem's id (lowercase letters, digits, '-'); its folder must not exist
        id: String,
        /// Write a problem from a game described in YAML (the keys of `game:` in
        /// docs/problem-format.md), or `@FILE` to read it from a file
        #[arg(long, value_name = "YAML")]
        game: Option<String>,
    },
    /// Explore a game described in YAML: Grundy values, the period and its proof,
    /// P-positions, a position's winning moves
    Game(game::Ask),
    /// Run a submission on an input file of yours with the problem's limits: output, time, memory
    Run {
        problem: String,
        submission: PathBuf,
        /// The input given on stdin
        input: PathBuf,
        /// Check the output against this expected output with the problem's checker
        #[arg(long, value_name = "FILE")]
        answer: Option<PathBuf>,
        /// Print one JSON object (the output, the status and the measures)
        #[arg(long)]
        json: bool,
        /// Language id instead of detection by extension
        #[arg(long)]
        lang: Option<String>,
    },
    /// A problem's statement as an HTML page (Markdown, math left to KaTeX)
    Statement {
        problem: String,
        /// Write the page here instead of to stdout
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Serve a live contest or class: teams submit in a browser and see verdicts live (see docs/serve.md)
    Serve(serve::ServeArgs),
    /// Judge for a `grundy serve` on another machine: lease submissions over HTTP, post their results (see docs/serve.md)
    Judgehost(judgehost::JudgehostArgs),
    /// Write a problem as an ICPC / Kattis problem package (see docs/icpc.md)
    Export {
        problem: String,
        /// The package folder to create (new or empty; name it like `nimyesno`)
        #[arg(long = "to", value_name = "DIR")]
        to: PathBuf,
    },
}

/// Parses the command line, runs the command, and prints a failure.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            // An error may quote a file name or a package's words.
            let text = format!("{:#}", f.error);
            eprintln!("grundy: {}", grundy::markup::terminal_lines(&text));
            ExitCode::from(f.code)
        }
    }
}

fn run(cli: Cli) -> Result<u8, Failure> {
    if let Some(other) = executables::needed(&cli.command) {
        return Err(executables::hand_over(other));
    }
    let g = &cli.global;
    if matches!(
        cli.command,
        Command::Grade { .. } | Command::Contest { .. } | Command::Serve(_) | Command::Judgehost(_)
    ) && !g.allow_weak_sandbox
    {
        let weak = runner(g).weaknesses();
        if !weak.is_empty() {
            return Err(usage(anyhow!(
                "the sandbox here lacks protections against untrusted code:\n  - {}\n\
                 run as root (see SECURITY.md), or pass --allow-weak-sandbox to grade anyway",
                weak.join("\n  - ")
            )));
        }
    }
    match cli.command {
        Command::List { json } => list::run(g, json),
        Command::Judge {
            problem,
            submissions,
            json,
            tests,
            jobs,
            lang,
            all,
            html,
        } => {
            let options = Options {
                jobs,
                groups: tests,
                fail_fast: false,
                all,
                language: lang,
                cancel: None,
                slots: None,
            };
            judge::run(g, &problem, &submissions, json, html.as_deref(), &options)
        }
        Command::Verify { ids, how } => verify::run(g, &ids, how),
        Command::Gen { problem, seed, out } => gen_cmd::run(g, &problem, seed, out),
        Command::Grade {
            dir,
            problem,
            jobs,
            out,
            resume,
            shard,
            feedback,
            similarity,
            all,
        } => {
            let compare = similarity.then(|| (dir.clone(), problem.clone(), out.clone()));
            let how = grade::How {
                jobs,
                resume,
                shard,
                feedback,
                all,
            };
            let code = grade::run(g, dir, problem, out.clone(), how)?;
            if code < exit::INTERNAL {
                statement::beside_reports(g, &out);
            }
            // Only a finished, unsharded run has the whole class to compare.
            if let Some((dir, problem, out)) = compare
                && shard.is_none()
                && code < exit::INTERNAL
            {
                executables::parsing(|| {
                    similar::run(g, &dir, problem.as_deref(), Default::default(), false, &out)
                })?;
            }
            Ok(code)
        }
        Command::Similar {
            dir,
            problem,
            threshold,
            min_matches,
            json,
            out,
        } => {
            let opts = grundy::similarity::Options {
                threshold,
                min_matches,
                ..Default::default()
            };
            executables::parsing(|| similar::run(g, &dir, problem.as_deref(), opts, json, &out))
        }
        Command::Contest {
            file,
            jobs,
            out,
            resume,
            all,
        } => contest::run(g, file, jobs, out, resume, all),
        Command::Merge {
            inputs,
            out,
            feedback,
        } => merge::run(inputs, out, feedback),
        Command::Export { problem, to } => export::run(g, &problem, &to),
        Command::Serve(args) => executables::serving(|| serve::run(g, args)),
        Command::Judgehost(args) => executables::serving(|| judgehost::run(g, args)),
        Command::New { id, game } => new::run(g, &id, game.as_deref()),
        Command::Game(ask) => game::run(g, ask),
        Command::Statement { problem, out } => statement::run(g, &problem, out.as_deref()),
        Command::Run {
            problem,
            submission,
            input,
            answer,
            json,
            lang,
        } => run_cmd::run(
            g,
            &run_cmd::Request {
                problem: &problem,
                submission: &submission,
                input: &input,
                answer: answer.as_deref(),
                language: lang.as_deref(),
                json,
            },
        ),
        Command::Cache { command } => cache::run(g, &command),
        Command::Mutants {
            ids,
            json,
            jobs,
            time_budget,
            harden,
            programs,
            kinds,
        } => executables::parsing(|| {
            mutants::run(
                g,
                &ids,
                json,
                &mutants::Choice {
                    jobs,
                    time_budget,
                    harden,
                    programs,
                    kinds,
                },
            )
        }),
        Command::Stress {
            problem,
            submission,
            time,
            seed,
            tries,
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
                tries,
            };
            stress::run(g, &problem, &submission, &options, json)
        }
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
    let policy = grundy::cache::Policy::from_env().map_err(|e| usage(anyhow!(e)))?;
    let (cache, _trimmed) = Cache::open_trimmed(&cache_dir, &policy).map_err(cache_failure)?;
    let ctx = Context::new(cache, languages(g)?, runner(g))?;
    hide(&ctx, &problem_set(g).dir)?;
    Ok(ctx)
}

/// The language table in force (`--languages`, `$GRUNDY_LANGUAGES`).
fn languages(g: &Global) -> Result<Languages, Failure> {
    let config = g
        .languages
        .clone()
        .or_else(|| std::env::var_os("GRUNDY_LANGUAGES").map(PathBuf::from));
    match config {
        Some(p) => Languages::with_config(&p).map_err(|e| usage(anyhow!(e))),
        None => Ok(Languages::default()),
    }
}

/// Why a cache cannot be used: a cache someone else could change is the
/// user's to fix (exit 2), as is one in use; anything else is internal.
pub(crate) fn cache_failure(e: grundy::cache::CacheError) -> Failure {
    use grundy::cache::CacheError;
    match e {
        e @ (CacheError::NotOurs(_) | CacheError::Busy(_) | CacheError::BadSetting { .. }) => {
            usage(anyhow!(e))
        }
        e => internal(
            anyhow!(e).context("cannot use the cache folder (choose another with --cache)"),
        ),
    }
}

/// Hides a folder of problems or submissions from runs (see
/// `Runner::hide_folder`).
fn hide(ctx: &Context, folder: &std::path::Path) -> Result<(), Failure> {
    ctx.sandbox
        .hide_folder(folder)
        .with_context(|| format!("cannot hide {} from runs", folder.display()))
        .map_err(internal)
}

/// How this command's runs are made (`--sandbox`).
fn runner(g: &Global) -> grundy::sandbox::Runner {
    grundy::sandbox::Runner::new(match g.sandbox {
        SandboxMode::Auto => grundy::sandbox::Mode::Auto,
        SandboxMode::Off => grundy::sandbox::Mode::Off,
    })
}

fn find(g: &Global, id: &str) -> Result<Problem, Failure> {
    problem_set(g).find(id).map_err(|e| usage(anyhow!(e)))
}
