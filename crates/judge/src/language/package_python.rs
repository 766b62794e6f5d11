//! Python 3 in a problem package: the format's reference tool
//! (problemtools) runs a package's Python 3 programs with PyPy, so a
//! package's time limit and its time-limit-exceeded programs are meant for
//! PyPy, often several times faster than CPython. Where `pypy3` is
//! installed, a package's Python 3 runs with it; where it is not, with
//! CPython, and the language's name says so (it appears wherever a time
//! limit is said to be measured with it). grundy's own problems keep
//! CPython, and so does a languages file that sets Python's commands.

use super::{Language, Languages, toolchain};

/// The interpreter problemtools runs Python 3 with.
pub const PYPY: &str = "pypy3";

/// The built-in Python 3's id.
const PYTHON: &str = "python";

/// Python 3 run by PyPy, for a package.
const PYPY_NAME: &str = "Python 3 (PyPy)";

/// Python 3 run by CPython in a package, where PyPy is missing.
const CPYTHON_NAME: &str = "Python 3 (CPython: no pypy3 here)";

impl Languages {
    /// The table a problem's programs are judged with: for a package
    /// (`package`), Python 3 as its format's tools run it.
    pub fn for_problem(&self, package: bool) -> Languages {
        let mut out = self.clone();
        if !package || self.commands_set.iter().any(|id| id == PYTHON) {
            return out;
        }
        let pypy = toolchain::resolve(PYPY).is_some();
        if let Some(python) = out.table.iter_mut().find(|l| l.id == PYTHON) {
            if pypy {
                run_with_pypy(python);
            } else {
                python.name = CPYTHON_NAME.into();
            }
        }
        out
    }
}

/// `python` (the built-in entry) made to check and run with PyPy.
fn run_with_pypy(python: &mut Language) {
    python.name = PYPY_NAME.into();
    if let Some(compile) = python.compile.as_mut().and_then(|c| c.first_mut()) {
        *compile = PYPY.into();
    }
    if let Some(run) = python.run.first_mut() {
        *run = PYPY.into();
    }
    // PyPy's garbage collector and JIT reserve address space far beyond
    // what they use (its nursery does not start under a 300 MiB cap):
    // its memory is held by the memory group, as the JVM's is. No memory
    // allowance: a package's limits get none, whatever the language.
    python.cap_address_space = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn python(l: &Languages) -> &Language {
        l.by_id(PYTHON).expect("python")
    }

    #[test]
    fn a_problem_of_our_own_keeps_cpython() {
        let base = Languages::default();
        assert_eq!(python(&base.for_problem(false)), python(&base));
    }

    #[test]
    fn a_package_runs_python_with_pypy_where_installed_and_says_cpython_elsewhere() {
        let base = Languages::default();
        let package = base.for_problem(true);
        let p = python(&package);
        if toolchain::resolve(PYPY).is_some() {
            assert_eq!(p.name, PYPY_NAME);
            assert_eq!(p.run, ["pypy3", "{src}"]);
            assert_eq!(p.compile.as_ref().and_then(|c| c.first()).unwrap(), "pypy3");
            assert!(!p.cap_address_space);
        } else {
            assert_eq!(p.name, CPYTHON_NAME);
            assert_eq!(p.run, python(&base).run);
        }
        // Nothing else changes.
        for (a, b) in package.table.iter().zip(&base.table) {
            if a.id != PYTHON {
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn a_languages_file_that_sets_python_is_kept_for_packages() {
        let dir = std::env::temp_dir().join(format!("grundy-pypy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let file = dir.join("languages.yaml");
        std::fs::write(
            &file,
            "languages:\n  - id: python\n    run: [python3, \"{src}\"]\n",
        )
        .expect("write");
        let base = Languages::with_config(&file).expect("config");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(python(&base.for_problem(true)), python(&base));
        assert_eq!(python(&base).name, "Python 3");
    }
}
