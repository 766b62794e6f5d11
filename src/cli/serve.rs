//! `grundy serve`: a live contest or class in a browser; `grundy serve
//! accounts`: accounts and one-time passwords from a CSV; `grundy serve
//! --demo`: a demo contest to try it.

use std::net::IpAddr;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::{Args, Subcommand};

use grundy::serve::{self, ServeError, ServeOptions, accounts, config};

use super::exit::{self, Failure, internal, usage};
use super::out::{batch_jobs, outln};
use super::{Global, context, languages, problem_set};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ServeArgs {
    #[command(subcommand)]
    command: Option<ServeCommand>,
    /// The contest file (problems, teams, start, duration, freeze, scoring…; see docs/serve.md)
    file: Option<PathBuf>,
    /// Start a ready demo contest on catalog problems, with demo accounts
    #[arg(long, conflicts_with = "file")]
    demo: bool,
    /// With --demo: the folder for the demo's contest file and database [default: a new temporary folder]
    #[arg(long, value_name = "DIR", requires = "demo")]
    demo_dir: Option<PathBuf>,
    /// The database file [default: beside the contest file, named after it, .sqlite]
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// The address to listen on (127.0.0.1: this machine only)
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The port (0: any free port, printed)
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Tests using a CPU at once, and as many judging workers [default: half the CPUs, at least 1]
    #[arg(long)]
    jobs: Option<usize>,
    /// Judge nothing here: only judge hosts (grundy judgehost) judge
    #[arg(long)]
    no_local_judging: bool,
    /// Niceness added to the server's own for every run it judges
    /// (submissions, compilers, checkers), so that pages stay fast while
    /// judging fills the CPUs; verdicts count CPU time and do not change
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(0..=19))]
    run_niceness: i32,
}

#[derive(Subcommand)]
enum ServeCommand {
    /// Create accounts (or give new passwords) and print one-time passwords and a printable sheet
    Accounts {
        /// The contest file
        file: PathBuf,
        /// A CSV with a header naming login, and optionally name and role
        /// (team, student, jury, admin) [default: every team of the contest file]
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// The database file [default: beside the contest file]
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
        /// The printable sheet of passwords [default: beside the database, NAME-passwords.html]
        #[arg(long, value_name = "FILE")]
        sheet: Option<PathBuf>,
        /// The server's address, printed on the slips
        #[arg(long)]
        url: Option<String>,
    },
    /// Register a judge host (its token written to --token-file) or revoke one
    Judgehost {
        /// The contest file
        file: PathBuf,
        /// The host's name (letters, digits, `.`, `_`, `-`)
        name: String,
        /// The database file [default: beside the contest file]
        #[arg(long, value_name = "FILE")]
        db: Option<PathBuf>,
        /// Where to write the new token, for the host's --token [default: NAME.token beside the database]
        #[arg(long, value_name = "FILE")]
        token_file: Option<PathBuf>,
        /// Revoke the host's token: it is refused at once and its judgings go to other hosts
        #[arg(long, conflicts_with = "token_file")]
        revoke: bool,
    },
}

fn serve_failure(e: ServeError) -> Failure {
    match e {
        ServeError::Usage(_) => usage(anyhow!(e)),
        ServeError::Internal(_) => internal(anyhow!(e)),
    }
}

fn load(g: &Global, file: &Path) -> Result<config::Config, Failure> {
    let ids: Vec<String> = languages(g)?.table.iter().map(|l| l.id.clone()).collect();
    config::load(file, &ids).map_err(|e| usage(anyhow!(e)))
}

pub fn run(g: &Global, args: ServeArgs) -> Result<u8, Failure> {
    if let Some(ServeCommand::Accounts {
        file,
        csv,
        db,
        sheet,
        url,
    }) = args.command
    {
        return make_accounts(g, &file, csv.as_deref(), db, sheet, url.as_deref());
    }
    if let Some(ServeCommand::Judgehost {
        file,
        name,
        db,
        token_file,
        revoke,
    }) = args.command
    {
        return judgehost_token(&file, &name, db, token_file, revoke);
    }
    let (file, demo_people) = if args.demo {
        let dir = match args.demo_dir {
            Some(d) => d,
            None => tempfile::Builder::new()
                .prefix("grundy-demo-")
                .tempdir()
                .map_err(|e| internal(anyhow!("cannot make a folder for the demo: {e}")))?
                .keep(),
        };
        let file = serve::demo::write(&dir).map_err(|e| {
            internal(anyhow!(
                "cannot write the demo contest in {}: {e}",
                dir.display()
            ))
        })?;
        (file, Some(serve::demo::people()))
    } else {
        match args.file {
            Some(f) => (f, None),
            None => {
                return Err(usage(anyhow!(
                    "give a contest file (grundy serve contest.yaml), or try grundy serve --demo"
                )));
            }
        }
    };
    let config = load(g, &file)?;
    let db = args.db.unwrap_or_else(|| serve::default_db(&file));
    let mut logins = Vec::new();
    if let Some(people) = demo_people {
        let database = serve::db::Db::open(&db).map_err(|e| internal(anyhow!(e)))?;
        logins = database
            .with_writer(|c| accounts::create(c, &people))
            .map_err(|e| internal(anyhow!(e)))?;
    }
    let mut ctx = context(g)?;
    ctx.sandbox.niceness = args.run_niceness;
    let opts = ServeOptions {
        config,
        db: db.clone(),
        bind: args.bind,
        port: args.port,
        jobs: batch_jobs(args.jobs),
        local_judging: !args.no_local_judging,
    };
    let mut note = |line: &str| eprintln!("grundy: {line}");
    let mut ready = |r: &serve::Ready| {
        if r.requeued > 0 {
            eprintln!(
                "grundy: {} judgings cut short by the last stop are queued again",
                r.requeued
            );
        }
        eprintln!("grundy: the database is {}", db.display());
        if let Some(pw) = &r.admin_password {
            outln!("organiser account: login admin, password {pw} (shown once)");
        }
        for (w, pw) in &logins {
            outln!(
                "  {:<6} {:<8} password {pw}  ({})",
                w.role.name(),
                w.login,
                w.name
            );
        }
        outln!("grundy serve: {}", r.url);
    };
    serve::serve(&problem_set(g), ctx, opts, &mut note, &mut ready).map_err(serve_failure)?;
    Ok(exit::OK)
}

fn make_accounts(
    g: &Global,
    file: &Path,
    csv: Option<&Path>,
    db: Option<PathBuf>,
    sheet: Option<PathBuf>,
    url: Option<&str>,
) -> Result<u8, Failure> {
    let config = load(g, file)?;
    let wanted = match csv {
        Some(csv) => accounts::read_csv(csv).map_err(|e| usage(anyhow!(e)))?,
        None => config
            .people
            .iter()
            .map(|p| accounts::Wanted {
                login: p.login.clone(),
                name: p.name.clone(),
                role: accounts::Role::Team,
            })
            .collect(),
    };
    if wanted.is_empty() {
        return Err(usage(anyhow!(
            "{}: no teams or students listed; give --csv FILE (login,name,role)",
            file.display()
        )));
    }
    let db = db.unwrap_or_else(|| serve::default_db(file));
    let database = serve::db::Db::open(&db).map_err(|e| internal(anyhow!(e)))?;
    let slips = database
        .with_writer(|c| accounts::create(c, &wanted))
        .map_err(|e| internal(anyhow!(e)))?;
    let sheet = sheet.unwrap_or_else(|| {
        let stem = db
            .file_stem()
            .map_or_else(|| "contest".into(), |s| s.to_string_lossy().into_owned());
        db.with_file_name(format!("{stem}-passwords.html"))
    });
    std::fs::write(&sheet, accounts::sheet_html(&config.title, url, &slips))
        .map_err(|e| internal(anyhow!("cannot write {}: {e}", sheet.display())))?;
    outln!("login,name,role,password");
    for (w, pw) in &slips {
        outln!("{},{},{},{pw}", w.login, csv_field(&w.name), w.role.name());
    }
    eprintln!(
        "grundy: {} accounts in {}; printable slips: {}",
        slips.len(),
        db.display(),
        sheet.display()
    );
    Ok(exit::OK)
}

/// `grundy serve judgehost`: a new token for a host (written with mode
/// 0600, never printed), or its revocation.
fn judgehost_token(
    file: &Path,
    name: &str,
    db: Option<PathBuf>,
    token_file: Option<PathBuf>,
    revoke: bool,
) -> Result<u8, Failure> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;

    if let Some(why) = serve::hosts::bad_name(name) {
        return Err(usage(anyhow!("`{name}`: {why}")));
    }
    let db = db.unwrap_or_else(|| serve::default_db(file));
    if !file.is_file() {
        return Err(usage(anyhow!(
            "{}: no such contest file (give the contest file the server runs)",
            file.display()
        )));
    }
    let database = serve::db::Db::open(&db).map_err(|e| internal(anyhow!(e)))?;
    if revoke {
        let n = database
            .with_writer(|c| serve::hosts::revoke(c, name))
            .map_err(|e| internal(anyhow!(e)))?;
        let Some(n) = n else {
            return Err(usage(anyhow!(
                "{}: no judge host named `{name}`",
                db.display()
            )));
        };
        eprintln!("grundy: judge host {name} revoked; {n} of its judgings queued again");
        return Ok(exit::OK);
    }
    let to = token_file.unwrap_or_else(|| db.with_file_name(format!("{name}.token")));
    let token = database
        .with_writer(|c| serve::hosts::add(c, name))
        .map_err(|e| internal(anyhow!(e)))?;
    let _ = std::fs::remove_file(&to);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&to)
        .map_err(|e| usage(anyhow!("cannot write the token to {}: {e}", to.display())))?;
    writeln!(f, "{token}")
        .map_err(|e| internal(anyhow!("cannot write the token to {}: {e}", to.display())))?;
    eprintln!(
        "grundy: judge host {name} registered; its token is in {} (give it to the host's --token; a token given before is void)",
        to.display()
    );
    Ok(exit::OK)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
