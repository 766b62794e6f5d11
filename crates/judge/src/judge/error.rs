//! Why judging stopped: what the judge was doing, and the error that
//! stopped it, kept as the typed error it is rather than flattened into
//! text.
//!
//! The CLI prints an error as its chain (`{:#}`: "context: cause"), and
//! code that keeps the text (a batch record, a verify line) uses
//! [`Chain`], which writes the same; so the words a user reads do not
//! depend on where the error is shown.

use std::error::Error;
use std::fmt;

use thiserror::Error;

/// An error under another, boxed as it came.
pub type Source = Box<dyn Error + Send + Sync + 'static>;

/// Something that stops judging altogether (as opposed to a verdict). The
/// variant says whose fault it is, which decides the exit code (docs/reference.md:
/// 2 for the first three, 3 for `Io`).
#[derive(Debug, Error)]
pub enum JudgeError {
    /// The problem is broken: bad spec, missing reference, checker does not compile.
    #[error(transparent)]
    Problem(Because),
    /// The submission cannot be judged here: unreadable file, unknown language.
    #[error(transparent)]
    Submission(Because),
    /// The command asked for something the problem does not have
    /// (`--tests` naming no group of it).
    #[error(transparent)]
    Usage(Because),
    /// The judge itself failed: a working file could not be written, a
    /// program could not be run.
    #[error(transparent)]
    Io(Because),
}

impl JudgeError {
    /// What went wrong, whichever the variant.
    pub fn because(&self) -> &Because {
        match self {
            JudgeError::Problem(b)
            | JudgeError::Submission(b)
            | JudgeError::Usage(b)
            | JudgeError::Io(b) => b,
        }
    }

    /// The whole message, context then cause, as the CLI prints it: for
    /// the records and reports that keep an error as text.
    pub fn message(&self) -> String {
        Chain(self).to_string()
    }
}

/// What the judge was doing when it failed (`context`), and the error
/// that made it fail (`cause`); either may stand alone.
///
/// Its message is the context; the cause is its [`Error::source`]. With no
/// context, the cause is the whole story: its message is this error's and
/// there is no source, so a chain never says it twice.
#[derive(Debug)]
pub struct Because {
    context: Option<String>,
    cause: Option<Cause>,
}

impl Because {
    /// A failure that no other error caused (a usage mistake, a compile log).
    pub fn new(context: impl Into<String>) -> Because {
        Because {
            context: Some(context.into()),
            cause: None,
        }
    }

    /// A failure of `cause` while the judge did what `context` says.
    pub fn of(context: impl Into<String>, cause: impl Into<Source>) -> Because {
        Because {
            context: Some(context.into()),
            cause: Some(Cause(cause.into())),
        }
    }

    /// A failure whose cause's own message says all there is to say.
    pub fn cause(cause: impl Into<Source>) -> Because {
        Because {
            context: None,
            cause: Some(Cause(cause.into())),
        }
    }

    /// What the judge was doing, when that was said.
    pub fn context(&self) -> Option<&str> {
        self.context.as_deref()
    }

    /// The error that made it fail, typed: `downcast_ref` finds what it was.
    pub fn cause_error(&self) -> Option<&(dyn Error + Send + Sync + 'static)> {
        self.cause.as_ref().map(|c| &*c.0)
    }
}

impl fmt::Display for Because {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.context, &self.cause) {
            (Some(context), _) => f.write_str(context),
            (None, Some(cause)) => fmt::Display::fmt(cause, f),
            (None, None) => Ok(()),
        }
    }
}

impl Error for Because {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match (&self.context, &self.cause) {
            (Some(_), Some(cause)) => Some(cause),
            _ => None,
        }
    }
}

/// The cause of a [`Because`], shown by its own message and ending the chain.
///
/// Most error types of this crate (as many elsewhere) already end their
/// message with their source's, as `"{path}: cannot read: {source}"`; a
/// chain that went on through their `source()` would print that text
/// twice. The typed error stays reachable through
/// [`Because::cause_error`].
#[derive(Debug)]
pub struct Cause(Source);

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Error for Cause {}

/// An error and its sources, joined by ": ", as `anyhow` prints `{:#}`:
/// the text a user reads, for code that keeps an error as text.
pub struct Chain<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut next = self.0.source();
        while let Some(e) = next {
            write!(f, ": {e}")?;
            next = e.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_found() -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
    }

    #[test]
    fn the_chain_is_the_context_then_the_cause() {
        let e = JudgeError::Io(Because::of("cannot store a test input", not_found()));
        // Display is the context only; the cause is the source.
        assert_eq!(e.to_string(), "cannot store a test input");
        let source = e.source().map(ToString::to_string);
        assert_eq!(source.as_deref(), Some("no such file"));
        // What the CLI prints, and what `message` keeps, are the old text.
        let shown = format!("{:#}", anyhow::Error::from(e));
        assert_eq!(shown, "cannot store a test input: no such file");
        let e = JudgeError::Io(Because::of("cannot store a test input", not_found()));
        assert_eq!(e.message(), shown);
        // The cause is still the typed error.
        let io = e
            .because()
            .cause_error()
            .and_then(|c| c.downcast_ref::<std::io::Error>())
            .map(std::io::Error::kind);
        assert_eq!(io, Some(std::io::ErrorKind::NotFound));
    }

    #[test]
    fn a_cause_that_tells_its_own_source_is_not_repeated() {
        // An error whose message already ends with its source's, as the
        // crate's `"{path}: cannot read: {source}"` errors do.
        #[derive(Debug, thiserror::Error)]
        #[error("a.c: cannot read the source: {source}")]
        struct Read {
            source: std::io::Error,
        }
        let e = JudgeError::Problem(Because::of(
            "reference",
            Read {
                source: not_found(),
            },
        ));
        assert_eq!(
            format!("{:#}", anyhow::Error::from(e)),
            "reference: a.c: cannot read the source: no such file"
        );
        let alone = JudgeError::Submission(Because::cause(Read {
            source: not_found(),
        }));
        assert_eq!(
            alone.to_string(),
            "a.c: cannot read the source: no such file"
        );
        assert!(alone.source().is_none());
        assert_eq!(alone.message(), alone.to_string());
    }

    #[test]
    fn a_context_alone_is_the_whole_message() {
        let e = JudgeError::Usage(Because::new("--tests x: no such group"));
        assert!(e.source().is_none());
        assert_eq!(
            format!("{:#}", anyhow::Error::from(e)),
            "--tests x: no such group"
        );
    }
}
