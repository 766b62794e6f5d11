//! The database's tables, as a list of migrations: migration `i` takes a
//! database at `PRAGMA user_version = i` to `i + 1`. A migration is never
//! edited once released; a change is a new one at the end.
//!
//! - `accounts`, `sessions`: who may do what (argon2id hashes; a session
//!   is kept as the SHA-256 of its cookie, so the table alone logs no one in);
//! - `submissions`: the bytes and when they came;
//! - `jobs`: the judging queue, each job leased by one judge at a time
//!   (`host`, `lease_token`, `lease_expires_ms`); an expired lease, or a
//!   local one found at start-up, is queued again;
//! - `judgings`: one per lease taken; at most one finished per job (the
//!   unique index), and one `valid` per submission (the one that counts);
//! - `runs`: each test's result as it comes;
//! - `clarifications`, `settings` (resolved times, the freeze), `audit`
//!   (refused requests) and `events`, the append-only log every change
//!   goes through, in the shape of the ICPC Contest API's event feed;
//! - `judgehosts` (migration 2): the judge hosts on other machines, each
//!   with its own token (kept as its SHA-256) that the organiser may
//!   revoke; `judgehost_refusals`: the problems a host said it cannot
//!   judge (and why), which it is not given again;
//! - migration 3: an index of jobs by submission, so that a submission's
//!   status (asked by every page that shows it) is found, not searched
//!   for through the whole queue; and of events by type (the last change
//!   of the teams tells whether a scoreboard computed before still holds).

pub const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    login TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('admin', 'jury', 'team')),
    password_hash TEXT,
    created_ms INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    problem TEXT NOT NULL,
    language TEXT NOT NULL,
    file_name TEXT NOT NULL,
    source BLOB NOT NULL,
    sha256 TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    contest_ms INTEGER NOT NULL,
    late INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX submissions_by_account ON submissions(account_id, id);
CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    submission_id INTEGER NOT NULL REFERENCES submissions(id),
    reason TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
    host TEXT,
    lease_token TEXT,
    lease_expires_ms INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL
);
CREATE INDEX jobs_by_state ON jobs(state, id);
CREATE TABLE judgings (
    id INTEGER PRIMARY KEY,
    submission_id INTEGER NOT NULL REFERENCES submissions(id),
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    host TEXT NOT NULL,
    started_ms INTEGER NOT NULL,
    finished_ms INTEGER,
    aborted INTEGER NOT NULL DEFAULT 0,
    verdict TEXT,
    score REAL,
    result_json TEXT,
    first_fail_input TEXT,
    valid INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX one_final_judging_per_job ON judgings(job_id) WHERE finished_ms IS NOT NULL;
CREATE UNIQUE INDEX one_valid_judging_per_submission ON judgings(submission_id) WHERE valid = 1;
CREATE INDEX judgings_by_submission ON judgings(submission_id, id);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    judging_id INTEGER NOT NULL REFERENCES judgings(id),
    ordinal INTEGER NOT NULL,
    test TEXT NOT NULL,
    test_group TEXT NOT NULL,
    verdict TEXT NOT NULL,
    time_ms REAL NOT NULL,
    at_ms INTEGER NOT NULL,
    UNIQUE (judging_id, ordinal)
);
CREATE TABLE clarifications (
    id INTEGER PRIMARY KEY,
    from_account INTEGER REFERENCES accounts(id),
    to_account INTEGER REFERENCES accounts(id),
    to_all INTEGER NOT NULL DEFAULT 0,
    reply_to INTEGER REFERENCES clarifications(id),
    problem TEXT,
    text TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    answered INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time_ms INTEGER NOT NULL,
    type TEXT NOT NULL,
    object_id TEXT NOT NULL,
    op TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
    data TEXT
);
CREATE TABLE audit (
    id INTEGER PRIMARY KEY,
    time_ms INTEGER NOT NULL,
    address TEXT,
    account TEXT,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER NOT NULL,
    what TEXT NOT NULL
);
"#,
    r#"
CREATE TABLE judgehosts (
    name TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    created_ms INTEGER NOT NULL,
    revoked_ms INTEGER,
    seen_ms INTEGER
);
CREATE TABLE judgehost_refusals (
    host TEXT NOT NULL,
    problem TEXT NOT NULL,
    reason TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (host, problem)
);
"#,
    r#"
CREATE INDEX jobs_by_submission ON jobs(submission_id, state);
CREATE INDEX events_by_type ON events(type, id);
"#,
];
