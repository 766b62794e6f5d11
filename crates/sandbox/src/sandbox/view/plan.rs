//! The plan of a view: which folders are replaced by a tmpfs, what each
//! one shows and which paths are bound writable, as a list of mount steps
//! made before the helper child that mounts them starts (it may not
//! allocate).

use std::collections::BTreeMap;
use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A folder of the judge's, and the entries runs may see when it is
/// replaced in the view (`None`: shown whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Root {
    pub(super) path: PathBuf,
    pub(super) expose: Option<Vec<(String, bool)>>,
}

/// Whether others may pass through `dir`.
fn traversable(dir: &Path) -> bool {
    fs::metadata(dir)
        .map(|m| m.mode() & 0o001 != 0)
        .unwrap_or(true)
}

/// Descriptor numbers the helper keeps bind sources at.
const SOURCE_FD_BASE: usize = 700;

/// One mount of the view, ready for the child (no allocation there).
pub(super) enum Op {
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
/// each folder on its way that others cannot pass becomes a tmpfs holding
/// the entry that leads on. For an ordinary user, everything is
/// read-only, each `hidden` folder becomes a tmpfs holding exactly the
/// paths runs need beneath it, and writable paths are bound writable. In
/// both, each `blind` folder present in the view becomes a tmpfs holding
/// exactly the paths runs need beneath it (usually none).
pub(super) fn plan(
    roots: &[Root],
    toolchains: &[PathBuf],
    hidden: Option<&[PathBuf]>,
    blind: &[PathBuf],
) -> io::Result<Vec<Op>> {
    // Folder replaced → what it shows; folders shown writable in place.
    let mut covers: BTreeMap<PathBuf, Cover> = BTreeMap::new();
    let mut writable_here: Vec<PathBuf> = Vec::new();
    let mut need = |path: &Path, writable: bool| match hidden {
        // Every closed folder on the way, not only the topmost: the entry
        // a cover shows is the folder itself, bound, and closed too when
        // it was (root's `~/.cache` under root's `~`, both 0700).
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

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

    /// Two closed folders on the way (root's cache in `~/.cache`, both
    /// 0700): each is replaced, the deeper one inside the shallower one's
    /// bind, so that runs reach the cache through both.
    #[test]
    fn every_closed_folder_on_the_way_is_replaced() {
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("home");
        let dot = home.join(".cache");
        let cache = dot.join("grundy");
        std::fs::create_dir_all(cache.join("tmp")).expect("mkdir");
        std::fs::create_dir_all(dot.join("other")).expect("mkdir");
        for d in [&home, &dot] {
            std::fs::set_permissions(d, fs::Permissions::from_mode(0o700)).expect("chmod");
        }
        let root = Root {
            path: cache.clone(),
            expose: Some(vec![("tmp".into(), true)]),
        };
        let ops = targets(&plan(&[root], &[], None, &[]).expect("plan"));
        let (h, d, c) = (home.display(), dot.display(), cache.display());
        assert_eq!(
            ops,
            vec![
                format!("open {h}/.cache"),
                format!("tmpfs {h}"),
                format!("mkdir {h}/.cache"),
                format!("bind {h}/.cache true"),
                format!("open {d}/grundy"),
                format!("tmpfs {d}"),
                format!("mkdir {d}/grundy"),
                format!("bind {d}/grundy true"),
                format!("open {c}/tmp"),
                format!("tmpfs {c}"),
                format!("mkdir {c}/tmp"),
                format!("bind {c}/tmp true"),
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
