//! Accounts: the organiser (admin), the jury and the teams or students.
//! `grundy serve accounts` makes them from a CSV and prints one-time
//! passwords (and a printable sheet to cut into slips); only argon2id
//! hashes are stored.

use std::fmt::Write as _;
use std::path::Path;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::json;

use super::clock::Millis;
use super::db::{Context, DbResult};
use super::events::{self, Kind, Op};
use crate::markup::escape;

/// What an account may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// Takes part: submits, reads its own results, asks questions.
    Team,
    /// Sees everything, rejudges, answers, freezes.
    Jury,
    /// The organiser or teacher: the jury's rights, and the accounts.
    Admin,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Team => "team",
            Role::Jury => "jury",
            Role::Admin => "admin",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s.trim() {
            "team" | "student" | "" => Some(Role::Team),
            "jury" => Some(Role::Jury),
            "admin" | "organiser" | "organizer" | "teacher" => Some(Role::Admin),
            _ => None,
        }
    }

    pub fn is_jury(self) -> bool {
        self >= Role::Jury
    }
}

/// A signed-in person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub login: String,
    pub name: String,
    pub role: Role,
}

/// Why a login name is not usable: letters, digits, `.`, `_` and `-`,
/// 1 to 64 of them, not starting with a dot (it names files in exports).
pub fn check_login(login: &str) -> Result<(), String> {
    let ok = !login.is_empty()
        && login.len() <= 64
        && !login.starts_with('.')
        && login
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{login}` is not a login name (1 to 64 letters, digits, `.`, `_` or `-`, not starting with a dot)"
        ))
    }
}

/// Random bytes from the kernel.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    // The kernel's generator does not fail on Linux once booted; a failure
    // here would leave zeros, so it is not ignored.
    if let Err(e) = getrandom::fill(&mut b) {
        panic!("the kernel's random generator failed: {e}");
    }
    b
}

/// A password to type from a slip of paper: 12 letters and digits without
/// the ones read alike (0/O, 1/l/I): about 70 bits.
pub fn new_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789";
    let bytes = random_bytes::<12>();
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// The argon2id hash of a password, in the PHC string format.
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::encode_b64(&random_bytes::<16>())
        .unwrap_or_else(|e| panic!("a 16-byte salt always encodes: {e}"));
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .unwrap_or_else(|e| panic!("argon2 with its default parameters hashes: {e}"))
}

/// Password checks that run at once, each on a thread of its own kept for
/// the life of the server. A check takes argon2id's 19 MiB and a core for
/// a while: a crowd signing in together (a contest's start) ran hundreds
/// at once and took gigabytes; gated to two but run on whichever of the
/// hundreds of blocking threads was free, each thread's allocator arena
/// kept its own 19 MiB blocks. Two threads reuse two arenas' blocks.
pub const CHECKS_AT_ONCE: usize = 2;

/// A check to make, and where to tell its answer.
struct Check {
    hash: Option<String>,
    password: String,
    answer: tokio::sync::oneshot::Sender<bool>,
}

/// The queue of the checking threads (started on first use).
fn checkers() -> &'static std::sync::mpsc::SyncSender<Check> {
    static QUEUE: std::sync::OnceLock<std::sync::mpsc::SyncSender<Check>> =
        std::sync::OnceLock::new();
    QUEUE.get_or_init(|| {
        // Bounded: a crowd waits in line here, not in memory without end.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Check>(1024);
        let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
        for i in 0..CHECKS_AT_ONCE {
            let rx = std::sync::Arc::clone(&rx);
            std::thread::Builder::new()
                .name(format!("password-{i}"))
                .spawn(move || {
                    loop {
                        let next = rx
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .recv();
                        let Ok(c) = next else { return };
                        let ok = match &c.hash {
                            Some(h) => verify_password(h, &c.password),
                            None => {
                                // As long as a real check, so that timing
                                // does not tell which logins exist.
                                let _ = verify_password(decoy_hash(), &c.password);
                                false
                            }
                        };
                        let _ = c.answer.send(ok);
                    }
                })
                .unwrap_or_else(|e| panic!("cannot start a password thread: {e}"));
        }
        tx
    })
}

/// Whether `password` matches `hash` (`None`: no such account, checked
/// against a decoy all the same, and false), checked on one of the
/// [`CHECKS_AT_ONCE`] password threads in turn.
pub async fn check_password(hash: Option<String>, password: String) -> bool {
    let (answer, told) = tokio::sync::oneshot::channel();
    let check = Check {
        hash,
        password,
        answer,
    };
    // In line at once when there is room (a thread of the blocking pool
    // for each sign-in of a crowd cost more than the sending); a full line
    // waits without holding an async thread.
    let sent = match checkers().try_send(check) {
        Ok(()) => true,
        Err(std::sync::mpsc::TrySendError::Disconnected(_)) => false,
        Err(std::sync::mpsc::TrySendError::Full(check)) => {
            let queue = checkers().clone();
            let sent = tokio::task::spawn_blocking(move || queue.send(check).is_ok()).await;
            matches!(sent, Ok(true))
        }
    };
    sent && told.await.unwrap_or(false)
}

/// Whether `password` matches the stored hash, on the calling thread (the
/// server calls [`check_password`]).
pub fn verify_password(hash: &str, password: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash to check against when the login does not exist, so that a
/// wrong login takes as long as a wrong password.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("no account has this password"))
}

fn account_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    let role: String = r.get(3)?;
    Ok(Account {
        id: r.get(0)?,
        login: r.get(1)?,
        name: r.get(2)?,
        role: Role::parse(&role).unwrap_or(Role::Team),
    })
}

pub fn by_login(c: &Connection, login: &str) -> DbResult<Option<(Account, Option<String>)>> {
    c.prepare_cached("SELECT id, login, name, role, password_hash FROM accounts WHERE login = ?1")
        .and_then(|mut st| st.query_row([login], |r| Ok((account_of(r)?, r.get(4)?))))
        .optional()
        .what("cannot read an account")
}

pub fn by_id(c: &Connection, id: i64) -> DbResult<Option<Account>> {
    c.prepare_cached("SELECT id, login, name, role FROM accounts WHERE id = ?1")
        .and_then(|mut st| st.query_row([id], account_of))
        .optional()
        .what("cannot read an account")
}

/// Every account with a role, by login.
pub fn all(c: &Connection, role: Role) -> DbResult<Vec<Account>> {
    let mut st = c
        .prepare("SELECT id, login, name, role FROM accounts WHERE role = ?1 ORDER BY login")
        .what("cannot list accounts")?;
    let rows = st
        .query_map([role.name()], account_of)
        .what("cannot list accounts")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list accounts")
}

/// Creates the account or updates its name and role; sets the password
/// hash when one is given. Teams are logged as Contest API `teams`.
pub fn upsert(
    c: &Connection,
    login: &str,
    name: &str,
    role: Role,
    password_hash: Option<&str>,
) -> DbResult<i64> {
    let existing = by_login(c, login)?;
    let id = match &existing {
        Some((a, _)) => {
            c.execute(
                "UPDATE accounts SET name = ?1, role = ?2, password_hash = COALESCE(?3, password_hash) WHERE id = ?4",
                params![name, role.name(), password_hash, a.id],
            )
            .what("cannot update an account")?;
            a.id
        }
        None => {
            c.execute(
                "INSERT INTO accounts (login, name, role, password_hash, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![login, name, role.name(), password_hash, Millis::now().0],
            )
            .what("cannot create an account")?;
            c.last_insert_rowid()
        }
    };
    let changed = existing
        .as_ref()
        .is_none_or(|(a, _)| a.name != name || a.role != role);
    if role == Role::Team && changed {
        let op = if existing.is_some() {
            Op::Update
        } else {
            Op::Create
        };
        events::log(
            c,
            Kind::Teams,
            login,
            op,
            &json!({"id": login, "name": name, "display_name": name, "group_ids": []}),
        )?;
    }
    Ok(id)
}

/// One line of an accounts CSV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    pub login: String,
    pub name: String,
    pub role: Role,
}

/// Reads `login,name,role` rows (a header naming the columns; `name` and
/// `role` optional, role `team` by default).
pub fn read_csv(path: &Path) -> Result<Vec<Wanted>, String> {
    let text = crate::beneath::read_text(path, crate::beneath::TEXT_CAP)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut rows = crate::batch::contest::log::parse_csv(&text).into_iter();
    let Some((_, header)) = rows.next() else {
        return Err(format!(
            "{}: empty; expected a header login,name,role",
            path.display()
        ));
    };
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let login = col("login").ok_or_else(|| {
        format!(
            "{}:1: no `login` column; the header names login, and optionally name and role",
            path.display()
        )
    })?;
    let (name, role) = (col("name"), col("role"));
    let mut out: Vec<Wanted> = Vec::new();
    for (line, row) in rows {
        if row.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let field = |i: Option<usize>| {
            i.and_then(|i| row.get(i))
                .map(|s| s.trim().to_string())
                .unwrap_or_default()
        };
        let at = format!("{}:{line}", path.display());
        let l = field(Some(login));
        check_login(&l).map_err(|e| format!("{at}: {e}"))?;
        let r = field(role);
        let role = Role::parse(&r)
            .ok_or_else(|| format!("{at}: role `{r}` is none of team, student, jury, admin"))?;
        if out.iter().any(|w| w.login == l) {
            return Err(format!("{at}: `{l}` is listed twice"));
        }
        let n = field(name);
        out.push(Wanted {
            name: if n.is_empty() { l.clone() } else { n },
            login: l,
            role,
        });
    }
    Ok(out)
}

/// A printable page of slips: the contest, each person's login and
/// one-time password.
pub fn sheet_html(title: &str, url: Option<&str>, slips: &[(Wanted, String)]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Accounts: {0}</title>\n<style>\
         body{{font:14px/1.4 system-ui,sans-serif;margin:1em}}\
         .slip{{display:inline-block;width:20em;border:1px dashed #888;padding:.8em;margin:.3em;vertical-align:top;page-break-inside:avoid}}\
         .slip h2{{font-size:1.05em;margin:0 0 .4em}} code{{font-size:1.2em}}\
         </style>\n</head>\n<body>\n",
        escape(title)
    );
    for (w, password) in slips {
        let _ = writeln!(
            h,
            "<div class=\"slip\"><h2>{}</h2><div>{}</div><div>login: <code>{}</code></div><div>password: <code>{}</code></div>{}</div>",
            escape(title),
            escape(&w.name),
            escape(&w.login),
            escape(password),
            url.map(|u| format!("<div>{}</div>", escape(u)))
                .unwrap_or_default()
        );
    }
    h.push_str("</body>\n</html>\n");
    h
}

/// Gives every wanted account a new password; returns the slips.
pub fn create(c: &mut Connection, wanted: &[Wanted]) -> DbResult<Vec<(Wanted, String)>> {
    let slips: Vec<(Wanted, String)> = wanted.iter().map(|w| (w.clone(), new_password())).collect();
    let hashes: Vec<String> = slips.iter().map(|(_, p)| hash_password(p)).collect();
    let tx = c.transaction().what("cannot start a transaction")?;
    for ((w, _), hash) in slips.iter().zip(&hashes) {
        upsert(&tx, &w.login, &w.name, w.role, Some(hash))?;
        // A new password ends the sessions made with the old one.
        tx.execute(
            "DELETE FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE login = ?1)",
            [&w.login],
        )
        .what("cannot end old sessions")?;
    }
    tx.commit().what("cannot save the accounts")?;
    Ok(slips)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crowd signing in at once is checked on the password threads,
    /// [`CHECKS_AT_ONCE`] of them, whatever thread asked; each answer is
    /// the check's own.
    #[test]
    fn a_crowd_signing_in_is_checked_on_the_password_threads() {
        let h = hash_password("pw");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let answers = rt.block_on(async {
            let checks: Vec<_> = (0..8)
                .map(|i| {
                    let (hash, pw) = match i % 3 {
                        0 => (Some(h.clone()), "pw"),
                        1 => (Some(h.clone()), "wrong"),
                        _ => (None, "pw"),
                    };
                    tokio::spawn(check_password(hash, pw.to_string()))
                })
                .collect();
            let mut answers = Vec::new();
            for c in checks {
                answers.push(c.await.expect("a check ends"));
            }
            answers
        });
        let expected: Vec<bool> = (0..8).map(|i| i % 3 == 0).collect();
        assert_eq!(answers, expected);
        let names: Vec<String> = std::fs::read_dir("/proc/self/task")
            .expect("/proc/self/task")
            .filter_map(Result::ok)
            .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
            .filter(|n| n.starts_with("password-"))
            .collect();
        assert_eq!(names.len(), CHECKS_AT_ONCE, "{names:?}");
    }

    #[test]
    fn passwords_hash_and_verify() {
        let p = new_password();
        assert_eq!(p.len(), 12);
        let h = hash_password(&p);
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(verify_password(&h, &p));
        assert!(!verify_password(&h, "wrong"));
        assert!(!verify_password("not a hash", &p));
    }

    #[test]
    fn logins_are_checked() {
        assert!(check_login("team-1.a_b").is_ok());
        for bad in ["", ".hidden", "a b", "<x>", "é"] {
            assert!(check_login(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_csv_reads_roles_and_names() {
        let t = tempfile::tempdir().expect("tempdir");
        let p = t.path().join("people.csv");
        std::fs::write(
            &p,
            "login,name,role\nana,Ana Lee,\nbob,,jury\ncat,Cat,teacher\n",
        )
        .expect("write");
        let w = read_csv(&p).expect("reads");
        assert_eq!(
            w.iter()
                .map(|w| (w.login.as_str(), w.name.as_str(), w.role))
                .collect::<Vec<_>>(),
            [
                ("ana", "Ana Lee", Role::Team),
                ("bob", "bob", Role::Jury),
                ("cat", "Cat", Role::Admin)
            ]
        );
        std::fs::write(&p, "login,role\nana,king\n").expect("write");
        let e = read_csv(&p).expect_err("bad role");
        assert!(e.contains("people.csv:2") && e.contains("king"), "{e}");
    }

    #[test]
    fn the_sheet_escapes_names() {
        let w = Wanted {
            login: "ana".into(),
            name: "<b>Ana</b>".into(),
            role: Role::Team,
        };
        let h = sheet_html("Cup", None, &[(w, "pw".into())]);
        assert!(h.contains("&lt;b&gt;Ana") && !h.contains("<b>Ana"), "{h}");
    }
}
