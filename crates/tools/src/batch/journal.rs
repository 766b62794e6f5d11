//! The append-only journal: `OUT/journal.jsonl`, one JSON [`Record`] a line.
//!
//! Each record is written with a single `write` of the whole line on a file
//! opened for appending, then `fsync`ed, as soon as it is produced. After
//! Ctrl-C, `kill -9` or a power cut the file holds every record finished
//! before, plus at worst one torn last line, which reading ignores and
//! resuming cuts off before appending. The file is locked while a run
//! writes to it, so two runs cannot interleave their lines.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use super::model::Record;

pub const FILE_NAME: &str = "journal.jsonl";

/// What reading a journal found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub records: Vec<Record>,
    /// The last line was cut short (or unreadable) and is ignored.
    pub torn_tail: bool,
    /// Line numbers (from 1) of unreadable lines before the last one.
    pub bad_lines: Vec<usize>,
    /// Bytes up to the end of the last good line.
    good_len: u64,
}

/// Reads a journal; a missing file is an empty journal.
pub fn read(path: &Path) -> io::Result<Loaded> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Loaded::default()),
        Err(e) => return Err(e),
    };
    let mut loaded = Loaded::default();
    let mut start = 0usize;
    let mut line_no = 0;
    while start < bytes.len() {
        line_no += 1;
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| start + i);
        let line = &bytes[start..end.unwrap_or(bytes.len())];
        let next = end.map_or(bytes.len(), |e| e + 1);
        let last = next >= bytes.len();
        let parsed = if end.is_some() {
            serde_json::from_slice::<Record>(line).ok()
        } else {
            None // no newline: the write was cut short
        };
        match parsed {
            Some(r) => {
                loaded.records.push(r);
                loaded.good_len = next as u64;
            }
            None if last => loaded.torn_tail = true,
            None if line.iter().all(u8::is_ascii_whitespace) => loaded.good_len = next as u64,
            None => {
                loaded.bad_lines.push(line_no);
                loaded.good_len = next as u64;
            }
        }
        start = next;
    }
    Ok(loaded)
}

/// A journal open for appending, locked against other runs.
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens (creating) the journal in `dir`, takes its lock, reads what is
    /// there and cuts off a torn last line so appends start on a fresh line.
    pub fn open(dir: &Path) -> io::Result<(Journal, Loaded)> {
        let path = dir.join(FILE_NAME);
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .read(true)
            .open(&path)?;
        lock(&file).map_err(|e| {
            if e.kind() == io::ErrorKind::WouldBlock {
                io::Error::other(format!(
                    "{} is in use by another grundy run (wait for it to finish, or use another --out)",
                    path.display()
                ))
            } else {
                e
            }
        })?;
        // The new file's name must survive a crash too.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        let loaded = read(&path)?;
        if loaded.torn_tail {
            file.set_len(loaded.good_len)?;
            file.sync_data()?;
        }
        Ok((Journal { file, path }, loaded))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one record durably: one write of the whole line, then fsync.
    pub fn append(&mut self, record: &Record) -> io::Result<()> {
        let mut line = serde_json::to_vec(record).map_err(io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.sync_data()
    }
}

fn lock(file: &File) -> io::Result<()> {
    // SAFETY: flock on a descriptor we own; released when it is closed,
    // which the kernel does even after kill -9.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(student: &str) -> Record {
        Record {
            student: student.into(),
            problem: crate::problem::ProblemId("nim".into()),
            file: format!("{student}/nim.c"),
            sha: "00".into(),
            problem_key: "k".into(),
            result: None,
            error: Some("x".into()),
            first_fail_input: None,
            smallest_failing_input: None,
        }
    }

    #[test]
    fn torn_tail_is_ignored_and_cut() {
        let t = tempfile::tempdir().expect("tempdir");
        {
            let (mut j, loaded) = Journal::open(t.path()).expect("open");
            assert!(loaded.records.is_empty());
            j.append(&record("a")).expect("append");
            j.append(&record("b")).expect("append");
        }
        let path = t.path().join(FILE_NAME);
        let mut f = OpenOptions::new().append(true).open(&path).expect("open");
        f.write_all(b"{\"student\":\"c\",\"prob").expect("write");
        drop(f);
        let (mut j, loaded) = Journal::open(t.path()).expect("reopen");
        assert!(loaded.torn_tail);
        assert_eq!(loaded.records.len(), 2);
        j.append(&record("d")).expect("append");
        drop(j);
        let again = read(&path).expect("read");
        let names: Vec<_> = again.records.iter().map(|r| r.student.as_str()).collect();
        assert_eq!(names, ["a", "b", "d"]);
        assert!(!again.torn_tail && again.bad_lines.is_empty());
    }

    #[test]
    fn a_second_writer_is_refused() {
        let t = tempfile::tempdir().expect("tempdir");
        let _first = Journal::open(t.path()).expect("open");
        let second = Journal::open(t.path());
        assert!(second.is_err());
    }
}
