//! The interactor of an exported interactive problem. The package format
//! runs the output validator as the interactor (`validation: custom
//! interactive`), so a built-in game becomes a program: a Python
//! interactor that plays the game by the same rules (a winning move when
//! there is one, from the same closed forms the built-in player uses), so
//! that any judge that reads the format plays it without grundy.

use super::{CheckerParts, ExportError};
use crate::judge::Because;
use crate::spec::{InteractorSpec, Problem};

/// The interactor source for the built-in games; `@GAME@` is the game.
const PLAY_PY: &str = include_str!("interactor/play.py");

/// `validation`, `validator_flags`, and the interactor program.
pub(super) fn parts(problem: &Problem, i: &InteractorSpec) -> Result<CheckerParts, ExportError> {
    let validation = "custom interactive".to_string();
    match i {
        InteractorSpec::Builtin(name) => {
            if crate::games::play::Game::from_name(name).is_none() {
                return Err(ExportError::Usage(Because::new(format!(
                    "the interactor `{name}` has no program to export"
                ))));
            }
            Ok((
                validation,
                String::new(),
                Some(("play.py".into(), PLAY_PY.replace("@GAME@", name))),
            ))
        }
        InteractorSpec::Icpc { program, args } => {
            let path = problem.dir.join(program);
            let source = std::fs::read_to_string(&path).map_err(|e| {
                ExportError::Usage(Because::of(
                    format!("cannot read the interactor {}", path.display()),
                    e,
                ))
            })?;
            let file = program
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "interactor".into());
            Ok((validation, args.join(" "), Some((file, source))))
        }
        InteractorSpec::Described => Err(ExportError::Usage(Because::new(format!(
            "{}: a described game played against the judge has no interactor program to export yet",
            problem.spec_path.display()
        )))),
        InteractorSpec::Testlib(p) => Err(ExportError::Usage(Because::new(format!(
            "{}: the testlib interactor {} speaks another protocol than the format's interactors; rewrite it as an ICPC interactor (`interactor: {{icpc: …}}`) to export",
            problem.spec_path.display(),
            p.display()
        )))),
    }
}
