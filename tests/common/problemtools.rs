//! problemtools, the ICPC package format's reference tools (installed from
//! PyPI by `.ci/setup.sh --tests`): `verifyproblem`, `problem2html` and
//! `problem2pdf`, run the way a contest's judges would run them here.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether problemtools' `tool` is installed. A missing tool skips the
/// test with a message, except under CI=true, where it fails it.
pub fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{tool} is missing: `bash .ci/setup.sh --tests` installs problemtools"
        );
        eprintln!("skipped: {tool} is not installed (`bash .ci/setup.sh --tests` installs it)");
    }
    found
}

/// The problemtools `languages.yaml` overrides this machine needs: the JDK
/// here is 17 (problemtools asks javac for `-source 21`), and Python runs on
/// CPython as in grundy's own table (problemtools defaults to PyPy).
const LANGUAGES_YAML: &str = "java:
    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
python3:
    name: 'Python 3'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 \"{mainfile}\"'
";

/// A configuration folder (for `XDG_CONFIG_HOME`) holding those overrides.
pub fn config(dir: &Path) -> PathBuf {
    let config = dir.join("config");
    std::fs::create_dir_all(config.join("problemtools")).expect("mkdir");
    std::fs::write(config.join("problemtools/languages.yaml"), LANGUAGES_YAML).expect("write");
    config
}

/// What `verifyproblem` said of a package.
pub struct Verified {
    pub name: String,
    /// It exited 0 and reported `0 errors`.
    pub ok: bool,
    /// Its ERROR lines and its closing line.
    pub errors: String,
}

/// Runs verifyproblem with the time limit the package's `.timelimit` gives
/// (`-t`; without it problemtools derives one from the accepted runs, as
/// Kattis does).
pub fn verifyproblem(pkg: &Path, config: &Path) -> Verified {
    let limit = std::fs::read_to_string(pkg.join(".timelimit"))
        .unwrap_or_else(|e| panic!("{}/.timelimit: {e}", pkg.display()));
    let out = Command::new("verifyproblem")
        .arg("-t")
        .arg(limit.trim())
        .arg(pkg)
        .env("XDG_CONFIG_HOME", config)
        .output()
        .expect("run verifyproblem");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let name = pkg
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ok = out.status.success() && text.contains(&format!("{name} tested: 0 errors"));
    let errors: String = text
        .lines()
        .filter(|l| l.contains("ERROR") || l.contains("tested:"))
        .collect::<Vec<_>>()
        .join("\n");
    Verified { name, ok, errors }
}
