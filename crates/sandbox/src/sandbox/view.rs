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

use std::collections::BTreeMap;
use std::ffi::CString;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
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
    /// Bind the folder behind a descriptor (`/proc/self/fd/N`) onto a path:
    /// read-only unless `writable`.
    Bind {
        source: CString,
        target: CString,
        writable: bool,
    },
    /// Every mount of the namespace read-only (an ordinary user's view).
    ReadOnlyEverywhere,
    /// A mount made read-only once filled (a tmpfs that replaces a folder
    /// in an ordinary user's view: the run owns it there).
    Seal(CString),
}

/// What a folder replaced in the view shows: paths beneath it (relative,
/// one component as root, whole paths for an ordinary user) and whether
/// each is writable.
type Cover = BTreeMap<PathBuf, bool>;

/// Plans the mounts. As root (`hidden` is `None`), for each path runs need,
/// the topmost folder on its way that others cannot pass becomes a tmpfs
/// holding the entry that leads on. For an ordinary user, everything is
/// read-only, each `hidden` folder becomes a tmpfs holding exactly the
/// paths runs need beneath it, and writable paths are bound writable. In
/// both, each `blind` folder present in the view becomes a tmpfs holding
/// exactly the paths runs need beneath it (usually none).
fn plan(
    roots: &[Root],
    toolchains: &[PathBuf],
    hidden: Option<&[PathBuf]>,
    blind: &[PathBuf],
) -> io::Result<Vec<Op>> {
    // Folder replaced → what it shows; folders shown writable in place.
    let mut covers: BTreeMap<PathBuf, Cover> = BTreeMap::new();
    let mut writable_here: Vec<PathBuf> = Vec::new();
    let mut need = |path: &Path, writable: bool| match hidden {
        None => {
            let mut dir = PathBuf::from("/");
            for part in path.components().skip(1) {
                if !traversable(&dir) {
                    let w = covers
                        .entry(dir.clone())
                        .or_default()
                        .entry(PathBuf::from(part.as_os_str()))
                        .or_insert(false);
                    *w |= writable;
                    return;
                }
                dir.push(part);
            }
        }
        Some(hidden) => {
            let top = hidden
                .iter()
                .filter(|h| path.starts_with(h) && path != h.as_path())
                .min_by_key(|h| h.components().count());
            match top.and_then(|h| Some((h, path.strip_prefix(h).ok()?))) {
                Some((h, rest)) => {
                    let w = covers
                        .entry(h.clone())
                        .or_default()
                        .entry(rest.to_path_buf())
                        .or_insert(false);
                    *w |= writable;
                }
                None if writable => writable_here.push(path.to_path_buf()),
                None => {}
            }
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
                entry.insert(PathBuf::from(name), *w);
            }
        }
    }
    // The home of an ordinary user is hidden as the blind folders are,
    // even when runs need nothing in it.
    let blind: Vec<PathBuf> = blind
        .iter()
        .chain(hidden.unwrap_or_default())
        .cloned()
        .collect();
    cover_blind(&mut covers, &mut writable_here, roots, toolchains, &blind);
    let user = hidden.is_some();
    let mut ops = Vec::new();
    if user {
        ops.push(Op::ReadOnlyEverywhere);
    }
    let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other);
    let proc_fd = |fd: usize| CString::new(format!("/proc/self/fd/{fd}")).map_err(io::Error::other);
    // Shallow folders first: a deeper cover lives inside a shallower one's
    // bind. A writable path shown in place is a cover of itself.
    // A folder that is replaced shows only what its cover chooses (a
    // writable bind of it first would be hidden by the cover, one after
    // would undo it).
    writable_here.retain(|p| !covers.contains_key(p));
    writable_here.sort();
    writable_here.dedup();
    let mut order: Vec<(PathBuf, Option<Cover>)> = covers
        .into_iter()
        .map(|(d, e)| (d, Some(e)))
        .chain(writable_here.into_iter().map(|p| (p, None)))
        .collect();
    order.sort_by_key(|(p, cover)| (p.components().count(), cover.is_some()));
    let mut next_fd = SOURCE_FD_BASE;
    for (dir, entries) in order {
        let Some(entries) = entries else {
            if dir.is_dir() {
                ops.push(Op::Open {
                    path: c(&dir)?,
                    fd: next_fd as i32,
                });
                ops.push(Op::Bind {
                    source: proc_fd(next_fd)?,
                    target: c(&dir)?,
                    writable: true,
                });
                next_fd += 1;
            }
            continue;
        };
        // A path inside another one shown is shown by it, unless it is
        // writable and the other is not.
        let shown: Vec<(PathBuf, bool)> = entries
            .iter()
            .filter(|(p, w)| {
                !entries
                    .iter()
                    .any(|(q, wq)| *q != **p && p.starts_with(q) && (*wq || !**w))
            })
            .map(|(p, w)| (p.clone(), *w))
            .collect();
        // Sources are opened before anything is mounted over them.
        let mut binds = Vec::new();
        let mut mkdirs = Vec::new();
        for (rest, writable) in shown {
            let source = dir.join(&rest);
            if !source.is_dir() {
                continue;
            }
            ops.push(Op::Open {
                path: c(&source)?,
                fd: next_fd as i32,
            });
            let mut way = dir.clone();
            for part in rest.components() {
                way.push(part);
                mkdirs.push(Op::Mkdir(c(&way)?));
            }
            binds.push(Op::Bind {
                source: proc_fd(next_fd)?,
                target: c(&source)?,
                writable,
            });
            next_fd += 1;
        }
        ops.push(Op::Tmpfs(c(&dir)?));
        ops.extend(mkdirs);
        ops.extend(binds);
        if user {
            ops.push(Op::Seal(c(&dir)?));
        }
    }
    Ok(ops)
}

/// Adds a cover for each `blind` folder that is in the view, shallowest
/// first (a folder that another cover does not show is not there to
/// hide), showing the whole paths of the roots (writable) and toolchains
/// beneath it. A folder runs need itself is not hidden. A writable path
/// beneath a hidden folder is shown by its cover, not bound in place.
fn cover_blind(
    covers: &mut BTreeMap<PathBuf, Cover>,
    writable_here: &mut Vec<PathBuf>,
    roots: &[Root],
    toolchains: &[PathBuf],
    blind: &[PathBuf],
) {
    let needed: Vec<(&Path, bool)> = roots
        .iter()
        .map(|r| (r.path.as_path(), true))
        .chain(toolchains.iter().map(|t| (t.as_path(), false)))
        .collect();
    let mut blind: Vec<&PathBuf> = blind.iter().collect();
    blind.sort_by_key(|b| b.components().count());
    for h in blind {
        if !h.is_dir() || needed.iter().any(|(p, _)| *p == h.as_path()) {
            continue;
        }
        let present = covers.iter().all(|(c, entries)| {
            !h.starts_with(c) || c == h || entries.keys().any(|e| h.starts_with(c.join(e)))
        });
        if !present {
            continue;
        }
        let cover = covers.entry(h.clone()).or_default();
        for (p, w) in &needed {
            if let Ok(rest) = p.strip_prefix(h)
                && !rest.as_os_str().is_empty()
            {
                *cover.entry(rest.to_path_buf()).or_insert(false) |= *w;
            }
        }
        writable_here.retain(|p| !(p.starts_with(h) && p != h));
    }
}

/// Builds the view in a short-lived child and keeps its namespace; with
/// `userns`, the child first joins that user namespace (an ordinary
/// user's zygote's, where it has the privilege to mount), which then owns
/// the view.
fn build(ops: &[Op], userns: Option<&OwnedFd>) -> io::Result<OwnedFd> {
    let tmpfs = c"tmpfs";
    let tmpfs_opts = c"mode=0755,size=1m";
    let userns = userns.map(|fd| fd.as_raw_fd());
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
        let code = build_in_child(ops, userns, tmpfs.as_ptr(), tmpfs_opts.as_ptr());
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

/// `mount_setattr(2)` on `path`: sets and clears mount attributes of that
/// mount alone (or, `recursive`, of every mount beneath it too), leaving
/// the others (`nodev`, `noexec`, atime) as they are: in a user namespace
/// those may be locked, and a `mount` remount would have to repeat them.
///
/// # Safety
/// `path` must be NUL-terminated.
unsafe fn set_attr(path: *const libc::c_char, recursive: bool, set: u64, clear: u64) -> bool {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const AT_RECURSIVE: libc::c_uint = 0x8000;
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: a system call on a NUL-terminated path and a local struct.
    unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path,
            if recursive { AT_RECURSIVE } else { 0 },
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ) == 0
    }
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;

/// In the helper child: a private mount namespace with the planned mounts.
/// Returns 0, or the 1-based number of the step that failed.
fn build_in_child(
    ops: &[Op],
    userns: Option<RawFd>,
    tmpfs: *const libc::c_char,
    opts: *const libc::c_char,
) -> usize {
    // SAFETY (whole function): system calls on NUL-terminated strings
    // prepared before the fork.
    unsafe {
        if let Some(ns) = userns
            && libc::setns(ns, libc::CLONE_NEWUSER) != 0
        {
            return 1;
        }
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
                    // A bind copies its source's attributes: in an
                    // ordinary user's view every source is read-only by
                    // now, so a writable one is made writable again.
                    bound
                        && if *writable {
                            userns.is_none()
                                || set_attr(target.as_ptr(), false, 0, MOUNT_ATTR_RDONLY)
                        } else {
                            set_attr(
                                target.as_ptr(),
                                false,
                                MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
                                0,
                            )
                        }
                }
                Op::ReadOnlyEverywhere => {
                    set_attr(c"/".as_ptr(), true, MOUNT_ATTR_RDONLY, 0) && {
                        // /proc stays as it was (a run lowers its own OOM
                        // score there); best effort, its files are not the
                        // judge's.
                        if !set_attr(c"/proc".as_ptr(), true, 0, MOUNT_ATTR_RDONLY) {
                            set_attr(c"/proc".as_ptr(), false, 0, MOUNT_ATTR_RDONLY);
                        }
                        true
                    }
                }
                Op::Seal(target) => set_attr(target.as_ptr(), false, MOUNT_ATTR_RDONLY, 0),
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
                Op::ReadOnlyEverywhere => "read-only".to_string(),
                Op::Seal(t) => format!("seal {}", t.to_string_lossy()),
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
        let ops = targets(&plan(&[root], std::slice::from_ref(&tool), None, &[]).expect("plan"));
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

    /// An ordinary user's view: everything read-only, the home replaced by
    /// a sealed tmpfs showing the whole path of a toolchain (not its first
    /// folder), the cache by one showing `bin` and `tmp`, and the working
    /// root (outside the home) bound writable in place.
    #[test]
    fn a_users_view_hides_the_home_and_the_cache_and_seals_the_rest() {
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("home");
        let tool = home.join("tools/python");
        let cache = home.join("cache");
        let work = t.path().join("work");
        for d in [&tool, &cache.join("bin"), &cache.join("answers"), &work] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        let roots = [
            Root {
                path: cache.clone(),
                expose: Some(vec![("bin".into(), false), ("tmp".into(), true)]),
            },
            Root {
                path: work.clone(),
                expose: None,
            },
        ];
        std::fs::create_dir_all(cache.join("tmp")).expect("mkdir");
        let ops = targets(
            &plan(
                &roots,
                std::slice::from_ref(&tool),
                Some(std::slice::from_ref(&home)),
                &[],
            )
            .expect("plan"),
        );
        let (h, c, w) = (home.display(), cache.display(), work.display());
        assert_eq!(
            ops,
            vec![
                "read-only".to_string(),
                format!("open {w}"),
                format!("bind {w} true"),
                format!("open {h}/cache"),
                format!("open {h}/tools/python"),
                format!("tmpfs {h}"),
                format!("mkdir {h}/cache"),
                format!("mkdir {h}/tools"),
                format!("mkdir {h}/tools/python"),
                format!("bind {h}/cache true"),
                format!("bind {h}/tools/python false"),
                format!("seal {h}"),
                format!("open {c}/bin"),
                format!("open {c}/tmp"),
                format!("tmpfs {c}"),
                format!("mkdir {c}/bin"),
                format!("mkdir {c}/tmp"),
                format!("bind {c}/bin false"),
                format!("bind {c}/tmp true"),
                format!("seal {c}"),
            ]
        );
    }

    /// A problems folder holding the cache (as root): it is emptied in the
    /// view but for the cache, which still shows only `bin`; a problems
    /// folder inside the cache's hidden part is not in the view at all, so
    /// it is not mounted over; one holding nothing runs need is just empty.
    #[test]
    fn a_hidden_folder_shows_only_the_judges_folders_beneath_it() {
        let t = tempfile::tempdir().expect("tempdir");
        let problems = t.path().join("problems");
        let cache = problems.join("cache");
        let inner = cache.join("answers/problems");
        let other = t.path().join("class");
        for d in [
            &cache.join("bin"),
            &inner,
            &other,
            &problems.join("nim/data"),
        ] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        let root = Root {
            path: cache.clone(),
            expose: Some(vec![("bin".into(), false)]),
        };
        let ops = targets(
            &plan(
                &[root],
                &[],
                None,
                &[inner.clone(), problems.clone(), other.clone()],
            )
            .expect("plan"),
        );
        let (p, c, o) = (problems.display(), cache.display(), other.display());
        assert_eq!(
            ops,
            vec![
                format!("tmpfs {o}"),
                format!("open {p}/cache"),
                format!("tmpfs {p}"),
                format!("mkdir {p}/cache"),
                format!("bind {p}/cache true"),
                format!("open {c}/bin"),
                format!("tmpfs {c}"),
                format!("mkdir {c}/bin"),
                format!("bind {c}/bin false"),
            ]
        );
    }

    /// An ordinary user's view: a hidden folder outside the home holding
    /// the working root shows it writable (and it is not bound twice); a
    /// hidden folder inside the home, which the home's cover does not
    /// show, is not mounted over, and the home is empty.
    #[test]
    fn a_users_hidden_folder_keeps_the_working_root_writable() {
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("home");
        let in_home = home.join("problems");
        let problems = t.path().join("problems");
        let work = problems.join("work");
        for d in [&in_home, &work] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        let roots = [Root {
            path: work.clone(),
            expose: None,
        }];
        let ops = targets(
            &plan(
                &roots,
                &[],
                Some(std::slice::from_ref(&home)),
                &[in_home.clone(), problems.clone()],
            )
            .expect("plan"),
        );
        let (h, p) = (home.display(), problems.display());
        assert_eq!(
            ops,
            vec![
                "read-only".to_string(),
                format!("tmpfs {h}"),
                format!("seal {h}"),
                format!("open {p}/work"),
                format!("tmpfs {p}"),
                format!("mkdir {p}/work"),
                format!("bind {p}/work true"),
                format!("seal {p}"),
            ]
        );
    }
}
