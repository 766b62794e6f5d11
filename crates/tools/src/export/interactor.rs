//! The interactor of an exported interactive problem. The package format
//! runs the output validator as the interactor (`validation: custom
//! interactive`), so a built-in game becomes a program: a Python
//! interactor that plays the game by the same rules (a winning move when
//! there is one, from the same closed forms the built-in player uses), so
//! that any judge that reads the format plays it without grundy.

use super::{CheckerParts, ExportError};
use crate::judge::Because;
use crate::problem::{InteractorSpec, Problem};

/// The interactor source for the built-in games; `@GAME@` is the game.
const PLAY_PY: &str = include_str!("interactor/play.py");
/// The interactor source for a described game; `@…@` are its moves and
/// one heap's values.
const DESCRIBED_PY: &str = include_str!("interactor/described.py");
/// The protocol both share (reading the games, the submission's tokens,
/// the turns, the verdict), written into each at `@PROTOCOL@`: one file
/// each, as the package format runs it.
const PROTOCOL_PY: &str = include_str!("interactor/protocol.py");

/// A game's interactor source with the shared protocol written in.
fn with_protocol(game: &str) -> String {
    game.replace("@PROTOCOL@", PROTOCOL_PY.trim_end())
}

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
                Some((
                    "play.py".into(),
                    with_protocol(PLAY_PY).replace("@GAME@", name),
                )),
            ))
        }
        InteractorSpec::Icpc { program, args } => {
            let path = problem.dir.join(program);
            let source = crate::problem::file::read_text(&path).map_err(|e| {
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
        InteractorSpec::Described => {
            let source = described_interactor(problem)?;
            Ok((
                validation,
                String::new(),
                Some(("described.py".into(), source)),
            ))
        }
        InteractorSpec::Testlib(p) => Err(ExportError::Usage(Because::new(format!(
            "{}: the testlib interactor {} speaks another protocol than the format's interactors; rewrite it as an ICPC interactor (`interactor: {{icpc: …}}`) to export",
            problem.spec_path.display(),
            p.display()
        )))),
    }
}

/// The Python interactor of a described played game: its moves and one
/// heap's Grundy values written into [`DESCRIBED_PY`]. Only a sum of heaps
/// under normal play whose values are known for every heap the statement
/// allows can be written so.
fn described_interactor(problem: &Problem) -> Result<String, ExportError> {
    use crate::games::described::Theory;
    let refuse = |why: &str| {
        ExportError::Usage(Because::new(format!(
            "{}: the described game cannot be exported as an interactor program: {why}",
            problem.spec_path.display()
        )))
    };
    let game = problem.game.as_ref().ok_or_else(|| refuse("no `game:`"))?;
    let analysis = game
        .first_analysis()
        .ok_or_else(|| refuse("its moves need parameters"))?;
    let values = match (analysis.theory(), analysis.heap_values()) {
        (Theory::Sum, Some(h)) => h,
        _ => {
            return Err(refuse(
                "only normal play with moves on one heap is written out",
            ));
        }
    };
    if let Some(b) = values.known_below()
        && b <= game.heap_size().max
    {
        return Err(refuse(
            "one heap's values are not known for every heap the statement allows",
        ));
    }
    let m = analysis.moves();
    let list = |v: &[u64]| {
        let items: Vec<String> = v.iter().map(u64::to_string).collect();
        format!("[{}]", items.join(", "))
    };
    let octal: Vec<u64> = m.octal.iter().map(|&d| u64::from(d)).collect();
    let python_bool = |b: bool| if b { "True" } else { "False" };
    Ok(
        super::heap_values::write_into(&with_protocol(DESCRIBED_PY), values.known())
            .replace("@TAKE_ANY@", python_bool(m.take_any))
            .replace("@SETS@", &format!("set({})", list(&m.sets)))
            .replace("@UP_TO@", &m.up_to.to_string())
            .replace(
                "@FRACTION@",
                &m.fraction
                    .map_or("None".to_string(), |(n, d)| format!("({n}, {d})")),
            )
            .replace("@OCTAL@", &list(&octal))
            .replace("@SPLITS@", python_bool(m.splits())),
    )
}
