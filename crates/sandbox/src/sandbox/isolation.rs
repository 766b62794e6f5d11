//! What isolation a sandboxed run gets: the mechanisms the probe found
//! (for the report), what a run lacks (for `grade`'s refusal), and the
//! preparation of a run's folders and mount view (as root, and as an
//! ordinary user with user namespaces).

use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::measure::disk_usage;
use super::probe::{Abilities, abilities};
use super::{Mode, RunLimits, SandboxError, cgroup, seccomp, view, zygote};

/// The mechanisms in force for sandboxed runs of this process.
pub(super) fn mechanisms() -> Vec<&'static str> {
    let mut m = mechanisms_of(
        abilities(),
        cgroup::runs_lacked_groups(),
        !USER_VIEW_LACKED.load(Ordering::SeqCst),
    );
    let a = abilities();
    if (a.root || a.user_namespace) && !SCRATCH_LACKED.load(Ordering::SeqCst) {
        let at = m.len().saturating_sub(1);
        m.insert(at, super::TMPFS_WORKDIR);
    }
    m
}

/// Set when a run that should have had a tmpfs working folder went
/// without one (the kernel refused it): the report then stops claiming it.
static SCRATCH_LACKED: AtomicBool = AtomicBool::new(false);

/// Notes that a run went without the tmpfs working folder it should have had.
pub(super) fn note_scratch_lacked() {
    SCRATCH_LACKED.store(true, Ordering::SeqCst);
}

/// Set when an ordinary user's mount view could not be built (the kernel
/// refused a mount in the user namespace): runs then go without it, and
/// the report and the weaknesses say so.
static USER_VIEW_LACKED: AtomicBool = AtomicBool::new(false);

/// Whether an ordinary user's runs get the mount view: built once here
/// (in the shared zygote's user namespace) if no run has tried yet, so
/// that `grade`'s check before any run is the truth.
pub(super) fn user_view() -> bool {
    static TRIED: std::sync::Once = std::sync::Once::new();
    let a = abilities();
    if a.root || !a.user_namespace {
        return false;
    }
    TRIED.call_once(|| {
        let _ = prepare_as_user(&[], Path::new("/"));
    });
    !USER_VIEW_LACKED.load(Ordering::SeqCst)
}

/// Whether runs are held to their memory limit by a memory group (every
/// run so far had one).
pub(super) fn memory_groups() -> bool {
    abilities().cgroups.is_some() && !cgroup::runs_lacked_groups()
}

/// The mechanisms that `a` gives a run; `lacked_groups` says some run had to
/// go without cgroups, so the report must not promise them.
/// `user_view`: an ordinary user's runs get their mount view.
fn mechanisms_of(a: &Abilities, lacked_groups: bool, user_view: bool) -> Vec<&'static str> {
    let mut m = Vec::new();
    match a.landlock {
        Some(v) if v >= 6 => m.push("landlock (files, tcp, signals)"),
        Some(v) if v >= 4 => m.push("landlock (files, tcp)"),
        Some(_) => m.push("landlock (files)"),
        None => {}
    }
    if a.seccomp && seccomp::filters(false).is_some() {
        m.push("seccomp (no sockets)");
    }
    if a.root {
        m.push("pid namespace");
        m.push("unprivileged uid");
        m.push("mount view");
        if a.cgroups.is_some() && !lacked_groups {
            m.push("cgroups (pids, memory, cpu)");
        }
    } else if a.user_namespace {
        m.push("user namespace");
        m.push("pid namespace");
        if user_view {
            m.push("mount view");
        }
    } else {
        m.push("subreaper");
    }
    m.push("no_new_privs");
    m
}

/// What a run lacks under abilities `a` (see [`super::Runner::weaknesses`]);
/// `user_view`: an ordinary user's runs get their mount view, in which
/// the judge's cache and home are not there and nothing else can be
/// changed.
pub(super) fn weaknesses_of(
    a: &Abilities,
    lacked_groups: bool,
    user_view: bool,
) -> Vec<&'static str> {
    let mut w = Vec::new();
    if a.landlock.is_none() {
        w.push("no Landlock: programs can read and write any file the judge's user can");
    }
    if !a.root {
        if !(a.user_namespace && user_view) {
            w.push(
                "not root: programs run as the judge's user and can stat and chmod its files \
                 (the size of a cached answer, the cache's permissions)",
            );
        }
        if !a.user_namespace {
            w.push("no user namespaces: a program's detached processes may outlive its run");
        }
    }
    // Without a memory group the watcher sums the memory of the run's
    // processes (`measure::tree_usage`), and seccomp refuses socket pairs,
    // whose buffers no process's memory shows, to all but the runtimes
    // without an address-space cap (the JVM needs one).
    if !a.root || a.cgroups.is_none() || lacked_groups {
        w.push(if a.seccomp && seccomp::filters(false).is_some() {
            "no memory cgroup: buffers of socket pairs are not counted (allowed only to \
             runtimes without an address-space cap, the JVM's)"
        } else {
            "no memory cgroup and no seccomp: memory held in socket buffers is not counted"
        });
    }
    w
}

/// The mechanisms a run under `l` gets in `mode`, for reports.
pub(super) fn in_force(mode: Mode, l: &RunLimits) -> Vec<&'static str> {
    let mut m = match mode {
        Mode::Off => vec!["sandbox off", "process group"],
        Mode::Auto => mechanisms(),
    };
    m.push("rlimits");
    // Where runs have a memory group it holds them to their limit, and no
    // address-space cap is set (see `process::run`).
    let groups = mode == Mode::Auto && memory_groups();
    if l.address_space.is_some() && !groups {
        m.push("address-space cap");
    }
    m.push("clean environment");
    m
}

fn setup(what: &str) -> impl Fn(io::Error) -> SandboxError + '_ {
    move |source| SandboxError::Setup {
        what: what.to_string(),
        source,
    }
}

/// As root: the run's uid owns its working folder, every folder it needs
/// can be passed through, and the mount view covers the rest.
pub(super) fn prepare_as_root(
    workdir: &Path,
    read: &[PathBuf],
    real: &Path,
    uid: u32,
    gid: u32,
) -> Result<OwnedFd, SandboxError> {
    std::os::unix::fs::chown(workdir, Some(uid), Some(gid))
        .map_err(setup("hand the working folder to the run"))?;
    view::open_way(workdir, false).map_err(setup("open the way to the working folder"))?;
    for p in read {
        view::open_way(p, true).map_err(setup("open the way to the program"))?;
    }
    // Toolchains outside the judge's folders (pyenv, rustup) are what the
    // view must show; the judge's folders are registered separately.
    let toolchains: Vec<PathBuf> = read
        .iter()
        .filter(|p| real.starts_with(p))
        .cloned()
        .collect();
    let v = view::view(&toolchains, None).map_err(setup("prepare the mount view"))?;
    // The view's namespace descriptor is shared; the child needs its own
    // number only for the duration of the clone.
    let fd = v.try_clone().map_err(setup("share the mount view"))?;
    Ok(fd)
}

/// As an ordinary user with user namespaces: the mount view (see
/// `view/`), built in the shared zygote's user namespace, where runs
/// are born. `None` when the kernel refuses it: the run goes without, and
/// from then on the report and the weaknesses no longer claim it.
pub(super) fn prepare_as_user(read: &[PathBuf], real: &Path) -> Option<OwnedFd> {
    if USER_VIEW_LACKED.load(Ordering::SeqCst) {
        return None;
    }
    let toolchains: Vec<PathBuf> = read
        .iter()
        .filter(|p| real.starts_with(p))
        .cloned()
        .collect();
    let built = zygote::with_shared_user_namespace(|userns| {
        view::view(&toolchains, Some(userns)).and_then(|v| v.try_clone())
    });
    match built {
        Ok(fd) => Some(fd),
        Err(_) => {
            USER_VIEW_LACKED.store(true, Ordering::SeqCst);
            None
        }
    }
}

/// After a run: the bytes its folder holds, and (as root) what the run uid
/// left there handed back to the judge's uid.
pub(super) fn tidy(workdir: &Path, run_uid: Option<u32>) -> u64 {
    use std::os::unix::fs::MetadataExt;
    if let Some(run_uid) = run_uid {
        // SAFETY: geteuid and getegid have no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        // Only what the run owns: a hard link it made to someone else's
        // file must not hand that file to the judge.
        for e in walkdir::WalkDir::new(workdir)
            .into_iter()
            .filter_map(Result::ok)
        {
            if e.metadata().is_ok_and(|m| m.uid() == run_uid) {
                let _ = std::os::unix::fs::lchown(e.path(), Some(uid), Some(gid));
            }
        }
    }
    disk_usage(workdir)
}

/// Gives the folder `workdir` itself back to the judge (as root) if the
/// run uid owns it: [`tidy`] for a folder the run never saw.
pub(super) fn untake(workdir: &Path, run_uid: Option<u32>) {
    use std::os::unix::fs::MetadataExt;
    if let Some(run_uid) = run_uid
        && std::fs::symlink_metadata(workdir).is_ok_and(|m| m.uid() == run_uid)
    {
        // SAFETY: geteuid and getegid have no preconditions.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let _ = std::os::unix::fs::lchown(workdir, Some(uid), Some(gid));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root_with_groups() -> Abilities {
        Abilities {
            landlock: Some(6),
            seccomp: false,
            root: true,
            user_namespace: false,
            cgroups: Some(cgroup::Hierarchies {
                pids: "/sys/fs/cgroup/pids".into(),
                memory: "/sys/fs/cgroup/memory".into(),
                cpuacct: "/sys/fs/cgroup/cpuacct".into(),
            }),
        }
    }

    #[test]
    fn cgroups_are_claimed_only_while_every_run_had_them() {
        let a = root_with_groups();
        let claims = |lacked| {
            mechanisms_of(&a, lacked, false)
                .iter()
                .any(|m| m.starts_with("cgroups"))
        };
        assert!(claims(false));
        assert!(!claims(true), "{:?}", mechanisms_of(&a, true, false));
        // The rest of the line stays as it was.
        let mut without = mechanisms_of(&a, false, false);
        without.retain(|m| !m.starts_with("cgroups"));
        assert_eq!(without, mechanisms_of(&a, true, false));
    }

    #[test]
    fn weaknesses_name_what_an_ordinary_user_lacks() {
        let root = root_with_groups();
        assert!(weaknesses_of(&root, false, false).is_empty());
        assert_eq!(weaknesses_of(&root, true, false).len(), 1);
        let mut user = root_with_groups();
        user.root = false;
        user.user_namespace = true;
        // With the mount view, the judge's files are out of reach.
        let w = weaknesses_of(&user, false, true);
        assert!(!w.iter().any(|x| x.contains("chmod")), "{w:?}");
        assert!(w.iter().any(|x| x.contains("memory cgroup")), "{w:?}");
        // Without it (the kernel refused it), they are not.
        let w = weaknesses_of(&user, false, false);
        assert!(w.iter().any(|x| x.contains("chmod")), "{w:?}");
        // The memory of several processes is measured without a group, and
        // socket pairs are refused where seccomp is but to the JVM.
        user.seccomp = true;
        let w = weaknesses_of(&user, false, true);
        assert!(!w.iter().any(|x| x.contains("several processes")), "{w:?}");
        assert!(w.iter().any(|x| x.contains("the JVM's")), "{w:?}");
        user.seccomp = false;
        user.user_namespace = false;
        user.landlock = None;
        assert_eq!(weaknesses_of(&user, false, true).len(), 4);
    }

    #[test]
    fn an_ordinary_user_never_gets_root_mechanisms() {
        let mut a = root_with_groups();
        a.root = false;
        a.user_namespace = true;
        let m = mechanisms_of(&a, false, true);
        assert!(m.contains(&"user namespace"), "{m:?}");
        assert!(m.contains(&"mount view"), "{m:?}");
        assert!(!mechanisms_of(&a, false, false).contains(&"mount view"));
        assert!(
            !m.iter()
                .any(|x| x.starts_with("cgroups") || *x == "unprivileged uid")
        );
    }
}
