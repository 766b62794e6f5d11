//! The Landlock ruleset of one run: what it may read, where it may write,
//! and that it may neither use TCP nor signal or connect outside itself.
//!
//! The ruleset is built in the judge (with the `landlock` crate) and only
//! enforced in the child, which costs the child one system call. Folders
//! that every run may read are opened once per process and reused.

use std::ffi::OsStr;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
};

/// Read-only runtime every program may need: the C library and loader,
/// system compilers and JVMs, configuration such as `ld.so.cache`, time
/// zones and `/etc/java-*`, and the CPU count runtimes size themselves by.
/// No home folders, no `/tmp`, no `/proc`, no cgroup files (which would show
/// other runs' usage).
const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/libx32",
    "/bin",
    "/sbin",
    "/etc",
    "/sys/devices/system/cpu",
];

/// Files a program may read: devices, and the CPU's description, which
/// nothing else of `/proc` comes with (PyPy sizes its nursery by the
/// caches it lists, and without it writes a warning on stderr, where a
/// validator's reason is read).
const DEVICES_READ: &[&str] = &[
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/full",
    "/proc/cpuinfo",
];

/// The newest ABI this code knows; older kernels get what they support.
fn abi() -> ABI {
    ABI::V6
}

struct SystemRules {
    read: Vec<PathFd>,
    devices: Vec<PathFd>,
    null: Option<PathFd>,
}

fn system() -> &'static SystemRules {
    static SYSTEM: OnceLock<SystemRules> = OnceLock::new();
    SYSTEM.get_or_init(|| {
        let open = |paths: &[&str]| {
            paths
                .iter()
                .filter_map(|p| PathFd::new(p).ok())
                .collect::<Vec<_>>()
        };
        SystemRules {
            read: open(SYSTEM_READ),
            devices: open(DEVICES_READ),
            null: PathFd::new("/dev/null").ok(),
        }
    })
}

fn read_access() -> BitFlags<AccessFs> {
    AccessFs::from_read(abi())
}

fn file_read() -> BitFlags<AccessFs> {
    AccessFs::ReadFile.into()
}

/// The read-only folders a command needs besides the system's: the
/// toolchain its program belongs to (`/X` for `/X/bin/prog`, e.g. a pyenv
/// Python or a rustup sysroot) and the folders of the files it names (the
/// compiled program, a Java class path, a Python source). The command line
/// is the judge's, never the submission's.
/// `real` is the program's path with every link resolved (the caller
/// resolves it once for the run's other uses).
pub fn command_paths(real: &Path, args: &[&OsStr]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = real.parent() {
        let prefix = dir
            .file_name()
            .filter(|n| *n == "bin" || *n == "sbin")
            .and_then(|_| dir.parent())
            .filter(|p| p.parent().is_some());
        out.push(prefix.unwrap_or(dir).to_path_buf());
    }
    for arg in args {
        let p = Path::new(arg);
        if !p.is_absolute() {
            continue;
        }
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => out.push(p.to_path_buf()),
            Ok(_) => out.extend(p.parent().map(Path::to_path_buf)),
            Err(_) => {}
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The kernel or the crate refused a rule of a run's ruleset.
#[derive(Debug, thiserror::Error)]
#[error("landlock: {0}")]
pub struct LandlockError(#[source] Box<dyn std::error::Error + Send + Sync>);

fn fail<E: std::error::Error + Send + Sync + 'static>(e: E) -> LandlockError {
    LandlockError(Box::new(e))
}

/// Builds the ruleset of one run: `read` and the system folders read-only,
/// `workdir` fully writable, no TCP, no signals or abstract sockets beyond
/// the run. Returns the ruleset's descriptor, or `None` when the kernel
/// enforces nothing.
pub fn ruleset(read: &[PathBuf], workdir: &Path) -> Result<Option<OwnedFd>, LandlockError> {
    let abi = abi();
    let mut rs = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .map_err(fail)?
        .handle_access(AccessNet::from_all(abi))
        .map_err(fail)?
        .scope(Scope::from_all(abi))
        .map_err(fail)?
        .create()
        .map_err(fail)?;
    let sys = system();
    for fd in &sys.read {
        rs = rs
            .add_rule(PathBeneath::new(fd.as_fd(), read_access()))
            .map_err(fail)?;
    }
    for fd in &sys.devices {
        rs = rs
            .add_rule(PathBeneath::new(fd.as_fd(), file_read()))
            .map_err(fail)?;
    }
    if let Some(fd) = &sys.null {
        let rw = AccessFs::ReadFile | AccessFs::WriteFile;
        rs = rs
            .add_rule(PathBeneath::new(fd.as_fd(), rw))
            .map_err(fail)?;
    }
    for p in read {
        // A folder that vanished is simply not granted.
        if let Ok(fd) = PathFd::new(p) {
            rs = rs
                .add_rule(PathBeneath::new(fd, read_access()))
                .map_err(fail)?;
        }
    }
    let work = PathFd::new(workdir).map_err(fail)?;
    rs = rs
        .add_rule(PathBeneath::new(work, work_access_of(abi)))
        .map_err(fail)?;
    Ok(rs.into())
}

/// Everything a run may do beneath its working folder, as the kernel's bit
/// mask (for the rule of a tmpfs over that folder, see `child::Scratch`),
/// limited to what a kernel of Landlock ABI `version` handles (the ruleset
/// is built best-effort, and a rule may not name an access it does not
/// handle).
pub fn work_access(version: u32) -> u64 {
    // Filesystem rights by ABI: 13 at first, then REFER (2), TRUNCATE (3)
    // and IOCTL_DEV (5).
    let known = match version {
        ..=1 => 0x1fff,
        2 => 0x3fff,
        3 | 4 => 0x7fff,
        _ => 0xffff,
    };
    work_access_of(abi()).bits() & known
}

fn work_access_of(abi: ABI) -> BitFlags<AccessFs> {
    AccessFs::from_all(abi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolchain_is_its_prefix_and_named_files_their_folders() {
        let t = tempfile::tempdir().expect("tempdir");
        let bin = t.path().join("py/bin");
        std::fs::create_dir_all(&bin).expect("mkdir");
        std::fs::write(bin.join("python3"), "").expect("write");
        let art = t.path().join("cache/bin/ab/cdef");
        std::fs::create_dir_all(&art).expect("mkdir");
        std::fs::write(art.join("main.py"), "").expect("write");
        let real = |p: PathBuf| std::fs::canonicalize(p).expect("canonicalize");
        let src = art.join("main.py");
        let python = real(bin.join("python3"));
        let paths = command_paths(&python, &[OsStr::new("-c"), src.as_os_str()]);
        assert_eq!(paths, vec![real(art.clone()), real(t.path().join("py"))]);
        // A compiled program in the cache: its own folder, not `cache/bin`.
        std::fs::write(art.join("main"), "").expect("write");
        assert_eq!(command_paths(&real(art.join("main")), &[]), vec![real(art)]);
    }
}
