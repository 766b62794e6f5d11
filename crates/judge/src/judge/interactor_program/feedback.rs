//! The interactor's files: the test's input and answer placed where its
//! run can read them, and the feedback files of a multi-pass test carried
//! from one pass to the next.

use std::path::Path;

/// Copies `from` into `to`, readable by the run whatever uid it has.
pub(super) fn place(from: &Path, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::copy(from, to)?;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o644))
}

/// Copies the files directly in `from` into `to` (replacing any of the
/// same name), but those named in `except`. They are left writable by
/// anyone: the interactor's run may have another uid than the judge and
/// appends to them (`judgemessage.txt`); the folder itself is private.
/// What the run left is read without following a link, and at most
/// [`CARRIED_CAP`] bytes of each.
pub(super) fn carry(from: &Path, to: &Path, except: &[&str]) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if !entry.file_type()?.is_file() || except.iter().any(|e| entry.file_name() == **e) {
            continue;
        }
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let Some(bytes) = crate::beneath::read(from, &name, CARRIED_CAP)? else {
            continue;
        };
        crate::beneath::write(to, &name, &bytes)?;
        std::fs::set_permissions(to.join(&name), std::fs::Permissions::from_mode(0o666))?;
    }
    Ok(())
}

/// The most of each feedback file carried from one pass to the next.
const CARRIED_CAP: u64 = 16 << 20;
