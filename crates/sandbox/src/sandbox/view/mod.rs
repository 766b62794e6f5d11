//! What a run may reach by ordinary permissions when the judge is root.
//!
//! Runs of a root judge execute as an unprivileged uid, so every folder on
//! the way to what they need must let others through. Two kinds of folder
//! do not:
//!
//! - folders of the machine such as `/root` (mode 0700), which hold
//!   toolchains (pyenv's Python, rustup's sysroot) and the default cache. We
//!   never change their modes. Instead, runs enter a private mount namespace
//!   (the *view*), prepared once and joined with one `setns`, in which such
//!   a folder is replaced by an empty tmpfs holding read-only (toolchains)
//!   or read-write (the judge's folders) bind mounts of just the entries on
//!   the way to what runs need.
//! - the judge's own folders (its cache, its working root, each run's
//!   folder): they are registered with [`register_root`] and opened to
//!   traversal (`o+x`, never listing) where runs need to pass. In the view
//!   the cache shows only its `bin` (programs, read-only) and `tmp`
//!   (compilations) entries: its answers and tests are not there at all.
//!
//! An ordinary user's runs have the judge's own uid, so permissions hide
//! nothing from them, and Landlock does not cover `stat`, `chmod`,
//! `utime`, `setxattr` or `truncate` of what it does not let them open.
//! Their view is built in the user namespace of the judge's zygote (see
//! [`super::zygote`]), where making mounts needs no privilege: every mount
//! of the machine is read-only there (metadata included), `$HOME` is an
//! empty tmpfs showing, read-only, just the paths runs need (toolchains),
//! the cache shows only `bin` and `tmp` as for root, and only the judge's
//! working folders and the cache's `tmp` are writable. The program itself
//! holds no capability there (it executes as a non-zero uid of that
//! namespace) and a namespace it makes copies these mounts locked, so it
//! cannot undo them.
//!
//! Landlock decides what a run may touch; the view and the uid are the
//! second line when Landlock is missing or wrong.

mod mount;
mod plan;

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mount::build;
use plan::{Root, plan};

#[derive(Default)]
struct State {
    roots: Vec<Root>,
    toolchains: Vec<PathBuf>,
    /// Folders runs never need and must not even `stat` into (problems,
    /// class folders): empty in the view, but for the judge's own folders
    /// and toolchains that lie beneath them.
    blind: Vec<PathBuf>,
    /// The view for the current roots and toolchains.
    current: Option<Arc<OwnedFd>>,
    /// The user namespace (device, inode) that owns `current`, for an
    /// ordinary user's view: a new zygote is a new namespace, whose runs
    /// cannot join a view owned by the old one.
    owner: Option<(u64, u64)>,
}

static STATE: Mutex<State> = Mutex::new(State {
    roots: Vec::new(),
    toolchains: Vec::new(),
    blind: Vec::new(),
    current: None,
    owner: None,
});

/// Registers a folder of the judge's that runs work in (`expose` empty) or
/// read programs from (`expose` names the entries runs may see, each
/// read-write or not). With `open_to_others` (a root judge, whose runs have
/// another uid) makes a folder runs work in traversable by others but not
/// listable. A folder with chosen entries keeps its mode (the cache stays
/// closed to other users): the view replaces it by a tmpfs showing them.
pub fn register_root(path: &Path, expose: &[(&str, bool)], open_to_others: bool) -> io::Result<()> {
    let path = fs::canonicalize(path)?;
    if open_to_others && expose.is_empty() {
        let mode = fs::metadata(&path)?.permissions().mode();
        fs::set_permissions(&path, fs::Permissions::from_mode((mode & 0o7770) | 0o001))?;
    }
    let expose = (!expose.is_empty()).then(|| {
        expose
            .iter()
            .map(|(name, rw)| {
                use std::os::unix::fs::DirBuilderExt;
                let _ = fs::DirBuilder::new().mode(0o755).create(path.join(name));
                (name.to_string(), *rw)
            })
            .collect()
    });
    let root = Root { path, expose };
    let mut st = STATE
        .lock()
        .map_err(|_| io::Error::other("view state poisoned"))?;
    if !st.roots.contains(&root) {
        st.roots.retain(|r| r.path != root.path);
        st.roots.push(root);
        st.current = None;
    }
    Ok(())
}

/// Registers a folder that runs never need (a problem's folder, with its
/// answers and handmade tests; a class folder, with others' submissions):
/// the view shows it as an empty read-only tmpfs, but for the registered
/// roots and toolchains beneath it. Landlock already denies opening it;
/// this takes away `stat`, which reveals an answer's size. `/` and the
/// machine's own folders are never hidden (runs need them); a missing
/// folder is ignored.
pub fn register_hidden(path: &Path) -> io::Result<()> {
    let Ok(path) = fs::canonicalize(path) else {
        return Ok(());
    };
    if !path.is_dir() || SYSTEM.iter().any(|s| Path::new(s).starts_with(&path)) {
        return Ok(());
    }
    let mut st = STATE
        .lock()
        .map_err(|_| io::Error::other("view state poisoned"))?;
    if !st.blind.contains(&path) {
        st.blind.push(path);
        st.current = None;
    }
    Ok(())
}

/// The machine's folders every run reads: a folder that holds one of them
/// is never hidden.
const SYSTEM: &[&str] = &[
    "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin", "/etc", "/dev", "/proc", "/sys",
];

/// Opens to traversal the judge's folders between a registered root and
/// `path` (inclusive when `inclusive`), so that a run can reach it.
pub fn open_way(path: &Path, inclusive: bool) -> io::Result<()> {
    let roots: Vec<PathBuf> = match STATE.lock() {
        Ok(st) => st.roots.iter().map(|r| r.path.clone()).collect(),
        Err(_) => return Err(io::Error::other("view state poisoned")),
    };
    let Some(root) = roots
        .iter()
        .filter(|r| path.starts_with(r))
        .max_by_key(|r| r.as_os_str().len())
    else {
        return Ok(());
    };
    let mut dir = root.clone();
    let Ok(rest) = path.strip_prefix(root) else {
        return Ok(());
    };
    let parts: Vec<_> = rest.components().collect();
    for (i, part) in parts.iter().enumerate() {
        dir.push(part);
        if i + 1 == parts.len() && !inclusive {
            break;
        }
        let meta = fs::symlink_metadata(&dir)?;
        if meta.is_dir() && meta.mode() & 0o001 == 0 {
            fs::set_permissions(
                &dir,
                fs::Permissions::from_mode((meta.mode() & 0o7777) | 0o001),
            )?;
        }
    }
    Ok(())
}

/// The view that shows `toolchains` (read-only) and the registered roots:
/// a root judge's (`userns` is `None`), or an ordinary user's, built in the
/// user namespace behind `userns` (see the module's documentation).
pub fn view(toolchains: &[PathBuf], userns: Option<&OwnedFd>) -> io::Result<Arc<OwnedFd>> {
    let owner = match userns {
        Some(fd) => {
            let st = rustix::fs::fstat(fd)?;
            Some((st.st_dev, st.st_ino))
        }
        None => None,
    };
    let mut st = STATE
        .lock()
        .map_err(|_| io::Error::other("view state poisoned"))?;
    let mut changed = st.owner != owner;
    for t in toolchains {
        // A program in a folder whose entries the view chooses (the
        // cache's `bin`) is shown by that choice: not one more toolchain,
        // which would rebuild the view for every new program.
        let chosen = st
            .roots
            .iter()
            .any(|r| r.expose.is_some() && t.starts_with(&r.path));
        if !chosen && !st.toolchains.contains(t) {
            st.toolchains.push(t.clone());
            changed = true;
        }
    }
    if changed {
        st.current = None;
        st.owner = owner;
    }
    if let Some(v) = &st.current {
        return Ok(v.clone());
    }
    let hidden = userns.map(|_| hidden_folders());
    let ops = plan(&st.roots, &st.toolchains, hidden.as_deref(), &st.blind)?;
    let v = Arc::new(build(&ops, userns)?);
    st.current = Some(v.clone());
    Ok(v)
}

/// The folders an ordinary user's view replaces by an empty tmpfs (showing
/// only what runs need in them): the judge's `$HOME`, unless it is `/` or
/// missing.
fn hidden_folders() -> Vec<PathBuf> {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())
        .and_then(|h| fs::canonicalize(h).ok())
        .filter(|h| h.is_dir() && h.parent().is_some())
        .into_iter()
        .collect()
}
