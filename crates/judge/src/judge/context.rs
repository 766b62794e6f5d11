//! What a judge needs besides the problem: the cache, the languages, the
//! working root and how runs are made. Every kind of test and every step
//! of preparing a problem reads it; it imports none of them.

use std::borrow::Cow;
use std::path::Path;

use super::{Because, JudgeError};
use crate::cache::Cache;
use crate::language::{CompileOutcome, Compiled, Languages, compile};
use crate::problem::Problem;
use crate::sandbox::Runner;

/// What a judge needs besides the problem.
pub struct Context {
    pub cache: Cache,
    pub languages: Languages,
    /// Replaces the spec's base seed (`gen --seed`).
    pub seed: Option<u64>,
    /// Runs and scratch files live here; removed when the context is dropped.
    pub workroot: super::workroot::Workroot,
    /// How every run of this judge is made (mode, cancellation).
    pub sandbox: Runner,
}

impl Drop for Context {
    /// Every run folder lives below the working root: whatever a program
    /// left there is removed without recursion (see `workroot::remove_tree`).
    fn drop(&mut self) {
        let _ = super::workroot::remove_tree(self.workroot.path());
    }
}

impl Context {
    pub fn new(cache: Cache, languages: Languages, sandbox: Runner) -> Result<Context, JudgeError> {
        let base = super::user_tmp::folder();
        super::workroot::remove_stale(&base);
        let workroot = super::workroot::Workroot::create(&base)
            .map_err(|e| JudgeError::Io(Because::of("cannot create a working folder", e)))?;
        sandbox
            .register_judge_folders(cache.root(), workroot.path())
            .map_err(|e| {
                JudgeError::Io(Because::of(
                    "cannot prepare the folders for sandboxed runs",
                    e,
                ))
            })?;
        Ok(Context {
            cache,
            languages,
            seed: None,
            workroot,
            sandbox,
        })
    }

    /// The language table `problem`'s programs and submissions are built and
    /// run with: for a problem package, Python 3 as its format's tools run
    /// it (see `Languages::for_problem`); for grundy's own problems, the
    /// table itself. Every command asks here, so a package's Python
    /// submission gets the same interpreter, and so the same verdict,
    /// whether `judge`, `grade`, `contest` or `serve` runs it.
    pub fn languages_for(&self, problem: &Problem) -> Cow<'_, Languages> {
        if problem.package.is_some() {
            Cow::Owned(self.languages.for_problem(true))
        } else {
            Cow::Borrowed(&self.languages)
        }
    }

    /// Compiles a program that belongs to the problem (reference, checker,
    /// generator): a failure here is the problem's fault, never a submission's.
    pub fn compile_trusted(
        &self,
        problem: &Problem,
        path: &Path,
        what: &str,
    ) -> Result<Compiled, JudgeError> {
        // A package's programs are built from a copy read beneath the
        // package, with its `{{constants}}` replaced (see `stage`).
        let staged = crate::problem::stage(path, problem, &self.cache)
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?;
        let path = staged.as_deref().unwrap_or(path);
        let languages = self.languages_for(problem);
        if crate::language::is_scripted(path) {
            return match crate::language::build_scripted(
                path,
                &languages,
                &self.cache,
                &self.sandbox,
            )
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?
            {
                CompileOutcome::Ready(c) => Ok(c),
                CompileOutcome::Failed { log, .. } => {
                    Err(JudgeError::Problem(Because::new(format!(
                        "{what} {} does not build:\n{}",
                        path.display(),
                        log.trim_end()
                    ))))
                }
            };
        }
        let lang = languages
            .detect(path)
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?;
        match compile(lang, path, &self.cache, &self.sandbox)
            .map_err(|e| JudgeError::Problem(Because::of(what, e)))?
        {
            CompileOutcome::Ready(c) => Ok(c),
            CompileOutcome::Failed { log, .. } => Err(JudgeError::Problem(Because::new(format!(
                "{what} {} does not compile:\n{}",
                path.display(),
                log.trim_end()
            )))),
        }
    }
}
