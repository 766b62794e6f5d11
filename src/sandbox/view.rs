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
//! Landlock decides what a run may touch; the view and the uid are the
//! second line when Landlock is missing or wrong.

use std::collections::BTreeMap;
use std::ffi::CString;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A folder of the judge's, and the entries runs may see when it is
/// replaced in the view (`None`: shown whole).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Root {
    path: PathBuf,
    expose: Option<Vec<(String, bool)>>,
}

#[derive(Default)]
struct State {
    roots: Vec<Root>,
    toolchains: Vec<PathBuf>,
    /// The view for the current roots and toolchains.
    current: Option<Arc<OwnedFd>>,
}

static STATE: Mutex<State> = Mutex::new(State {
    roots: Vec::new(),
    toolchains: Vec::new(),
    current: None,
});

/// Registers a folder of the judge's that runs work in (`expose` empty) or
/// read programs from (`expose` names the entries runs may see, each
/// read-write or not). Makes it traversable by others but not listable.
pub fn register_root(path: &Path, expose: &[(&str, bool)]) -> io::Result<()> {
    let path = fs::canonicalize(path)?;
    let mode = fs::metadata(&path)?.permissions().mode();
    fs::set_permissions(&path, fs::Permissions::from_mode((mode & 0o7770) | 0o001))?;
    let expose = (!expose.is_empty()).then(|| {
        expose
            .iter()
            .map(|(name, rw)| {
                let _ = fs::create_dir_all(path.join(name));
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

/// Whether others may pass through `dir`.
fn traversable(dir: &Path) -> bool {
    fs::metadata(dir)
        .map(|m| m.mode() & 0o001 != 0)
        .unwrap_or(true)
}

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

/// The view that shows `toolchains` (read-only) and the registered roots.
pub fn view(toolchains: &[PathBuf]) -> io::Result<Arc<OwnedFd>> {
    let mut st = STATE
        .lock()
        .map_err(|_| io::Error::other("view state poisoned"))?;
    let mut changed = false;
    for t in toolchains {
        if !st.toolchains.contains(t) {
            st.toolchains.push(t.clone());
            changed = true;
        }
    }
    if changed {
        st.current = None;
    }
    if let Some(v) = &st.current {
        return Ok(v.clone());
    }
    let v = Arc::new(build(&st.roots, &st.toolchains)?);
    st.current = Some(v.clone());
    Ok(v)
}

/// Descriptor numbers the helper keeps bind sources at.
const SOURCE_FD_BASE: usize = 700;

/// One mount of the view, ready for the child (no allocation there).
enum Op {
    /// Open a bind source (inside the new namespace, as mounts must be) and
    /// keep it at a fixed descriptor number.
    Open {
        path: CString,
        fd: i32,
    },
    Tmpfs(CString),
    Mkdir(CString),
    /// Bind the folder behind a descriptor (`/proc/self/fd/N`) onto a path.
    Bind {
        source: CString,
        target: CString,
        writable: bool,
    },
}

/// Plans the mounts: for each path runs need, the topmost folder on its way
/// that others cannot pass becomes a tmpfs holding the entry that leads on.
fn plan(roots: &[Root], toolchains: &[PathBuf]) -> io::Result<Vec<Op>> {
    // Folder replaced → entries shown in it (name → writable).
    let mut covers: BTreeMap<PathBuf, BTreeMap<String, bool>> = BTreeMap::new();
    let mut need = |path: &Path, writable: bool| {
        let mut dir = PathBuf::from("/");
        for part in path.components().skip(1) {
            if !traversable(&dir) {
                let name = part.as_os_str().to_string_lossy().into_owned();
                let w = covers
                    .entry(dir.clone())
                    .or_default()
                    .entry(name)
                    .or_insert(false);
                *w |= writable;
                return;
            }
            dir.push(part);
        }
    };
    for t in toolchains {
        need(t, false);
    }
    for r in roots {
        need(&r.path, true);
    }
    for r in roots {
        if let Some(expose) = &r.expose {
            let entry = covers.entry(r.path.clone()).or_default();
            for (name, w) in expose {
                entry.insert(name.clone(), *w);
            }
        }
    }
    let mut ops = Vec::new();
    let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other);
    // Shallow folders first: a deeper cover lives inside a shallower one's bind.
    let mut order: Vec<_> = covers.into_iter().collect();
    order.sort_by_key(|(p, _)| p.components().count());
    let mut next_fd = SOURCE_FD_BASE;
    for (dir, entries) in order {
        // Sources are opened before anything is mounted over them.
        let mut binds = Vec::new();
        let mut mkdirs = Vec::new();
        for (name, writable) in entries {
            let source = dir.join(&name);
            if !source.is_dir() {
                continue;
            }
            ops.push(Op::Open {
                path: c(&source)?,
                fd: next_fd as i32,
            });
            mkdirs.push(Op::Mkdir(c(&source)?));
            binds.push(Op::Bind {
                source: CString::new(format!("/proc/self/fd/{next_fd}"))
                    .map_err(io::Error::other)?,
                target: c(&source)?,
                writable,
            });
            next_fd += 1;
        }
        ops.push(Op::Tmpfs(c(&dir)?));
        ops.extend(mkdirs);
        ops.extend(binds);
    }
    Ok(ops)
}

/// Builds the view in a short-lived child and keeps its namespace.
fn build(roots: &[Root], toolchains: &[PathBuf]) -> io::Result<OwnedFd> {
    let ops = plan(roots, toolchains)?;
    let tmpfs = c"tmpfs";
    let tmpfs_opts = c"mode=0755,size=1m";
    let mut pipe = [0; 2];
    // SAFETY: a valid array of two descriptors.
    if unsafe { libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these descriptors; we own them.
    let (rd, wr) = unsafe { (OwnedFd::from_raw_fd(pipe[0]), OwnedFd::from_raw_fd(pipe[1])) };
    // SAFETY: a fork-like clone; the child below only makes system calls
    // on memory prepared before the clone, then waits to be killed.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            libc::SIGCHLD as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        let code = build_in_child(&ops, tmpfs.as_ptr(), tmpfs_opts.as_ptr());
        let bytes = [code as u8, super::child::errno() as u8];
        // SAFETY: writing two bytes to our pipe, then waiting to be killed.
        unsafe {
            libc::write(wr.as_raw_fd(), bytes.as_ptr().cast(), 2);
            loop {
                libc::pause();
            }
        }
    }
    drop(wr);
    let pid = pid as libc::pid_t;
    let mut bytes = [255u8, 0];
    // SAFETY: reading two bytes into a local buffer.
    let n = unsafe { libc::read(rd.as_raw_fd(), bytes.as_mut_ptr().cast(), 2) };
    let ns = if n == 2 && bytes[0] == 0 {
        fs::File::open(format!("/proc/{pid}/ns/mnt")).map(OwnedFd::from)
    } else {
        let why = io::Error::from_raw_os_error(bytes[1] as i32);
        Err(io::Error::other(format!(
            "mount step {} failed: {why}",
            bytes[0]
        )))
    };
    // SAFETY: ending and reaping our own helper child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
    ns
}

/// In the helper child: a private mount namespace with the planned mounts.
/// Returns 0, or the 1-based number of the step that failed.
fn build_in_child(ops: &[Op], tmpfs: *const libc::c_char, opts: *const libc::c_char) -> usize {
    // SAFETY (whole function): system calls on NUL-terminated strings
    // prepared before the fork.
    unsafe {
        if libc::unshare(libc::CLONE_NEWNS) != 0 {
            return 1;
        }
        if libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return 2;
        }
        for (i, op) in ops.iter().enumerate() {
            let step = i + 3;
            let ok = match op {
                Op::Open { path, fd } => {
                    let f = libc::open(path.as_ptr(), libc::O_PATH | libc::O_DIRECTORY);
                    f >= 0 && libc::dup2(f, *fd) == *fd
                }
                Op::Tmpfs(target) => {
                    libc::mount(
                        tmpfs,
                        target.as_ptr(),
                        tmpfs,
                        libc::MS_NOSUID | libc::MS_NODEV,
                        opts.cast(),
                    ) == 0
                }
                Op::Mkdir(path) => {
                    libc::mkdir(path.as_ptr(), 0o755) == 0
                        || *libc::__errno_location() == libc::EEXIST
                }
                Op::Bind {
                    source,
                    target,
                    writable,
                } => {
                    let bound = libc::mount(
                        source.as_ptr(),
                        target.as_ptr(),
                        std::ptr::null(),
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    ) == 0;
                    bound
                        && (*writable
                            || libc::mount(
                                std::ptr::null(),
                                target.as_ptr(),
                                std::ptr::null(),
                                libc::MS_BIND
                                    | libc::MS_REMOUNT
                                    | libc::MS_RDONLY
                                    | libc::MS_NOSUID,
                                std::ptr::null(),
                            ) == 0)
                }
            };
            if !ok {
                return step.min(254);
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(ops: &[Op]) -> Vec<String> {
        ops.iter()
            .map(|op| match op {
                Op::Open { path, .. } => format!("open {}", path.to_string_lossy()),
                Op::Tmpfs(t) => format!("tmpfs {}", t.to_string_lossy()),
                Op::Mkdir(t) => format!("mkdir {}", t.to_string_lossy()),
                Op::Bind {
                    target, writable, ..
                } => format!("bind {} {writable}", target.to_string_lossy()),
            })
            .collect()
    }

    #[test]
    fn a_closed_folder_is_replaced_by_the_entries_runs_need() {
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("home");
        let tool = home.join("tools/python");
        let cache = home.join("cache");
        std::fs::create_dir_all(&tool).expect("mkdir");
        std::fs::create_dir_all(cache.join("bin")).expect("mkdir");
        std::fs::create_dir_all(cache.join("answers")).expect("mkdir");
        std::fs::set_permissions(&home, fs::Permissions::from_mode(0o700)).expect("chmod");
        let root = Root {
            path: cache.clone(),
            expose: Some(vec![("bin".into(), false)]),
        };
        let ops = targets(&plan(&[root], std::slice::from_ref(&tool)).expect("plan"));
        let h = home.display();
        let c = cache.display();
        assert_eq!(
            ops,
            vec![
                format!("open {h}/cache"),
                format!("open {h}/tools"),
                format!("tmpfs {h}"),
                format!("mkdir {h}/cache"),
                format!("mkdir {h}/tools"),
                format!("bind {h}/cache true"),
                format!("bind {h}/tools false"),
                format!("open {c}/bin"),
                format!("tmpfs {c}"),
                format!("mkdir {c}/bin"),
                format!("bind {c}/bin false"),
            ]
        );
    }
}
