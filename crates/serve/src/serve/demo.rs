//! `grundy serve --demo`: a contest ready to try, on catalog problems,
//! started now for five hours (frozen in the last hour), with three teams,
//! a jury and an organiser whose passwords are made up at start.

use std::path::{Path, PathBuf};

use super::accounts::{Role, Wanted};

/// The demo's contest file.
pub const CONTEST: &str = "\
title: grundy demo contest
scoring: icpc
start: now
duration: 5h
freeze: 1h
penalty: 20
problems: [nim, misere-nim, nim-play]
teams:
  - {id: team1, name: The Grundy Numbers}
  - {id: team2, name: Misère Lovers}
  - {id: team3, name: Wythoff's Queens}
feedback: first-fail
";

/// Writes the demo's contest file into `dir`; returns its path.
pub fn write(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join("contest.yaml");
    std::fs::write(&path, CONTEST)?;
    Ok(path)
}

/// The demo's accounts.
pub fn people() -> Vec<Wanted> {
    let w = |login: &str, name: &str, role| Wanted {
        login: login.into(),
        name: name.into(),
        role,
    };
    vec![
        w("admin", "Organiser", Role::Admin),
        w("jury", "Jury", Role::Jury),
        w("team1", "The Grundy Numbers", Role::Team),
        w("team2", "Misère Lovers", Role::Team),
        w("team3", "Wythoff's Queens", Role::Team),
    ]
}
