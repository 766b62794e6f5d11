//! The accepted program of an exported described game that has no
//! reference: a Python program answering from the theorem grundy uses
//! (Sprague–Grundy with the proven values, misère Nim, Moore's, staircase
//! Nim), so that the package has the accepted submission the format
//! requires and judges it against the same answers.

use std::path::{Path, PathBuf};

use crate::catalog::described::{GameSpec, Position, Question};
use crate::problem::Problem;

use super::{ExportError, Exported, write_bytes};
use crate::catalog::format::Framing;
use crate::games::described::values::Known;
use crate::games::described::{Amount, Move, Theory};

const ANSWERS_PY: &str = include_str!("answers.py");

/// Writes the program as `submissions/accepted/` of a described game with
/// no reference (or a note saying why it cannot); the path written.
pub(super) fn write_accepted(
    problem: &Problem,
    to: &Path,
    out: &mut Exported,
) -> Result<Option<PathBuf>, ExportError> {
    let Some(g) = problem.game.as_ref().filter(|g| !g.played()) else {
        return Ok(None);
    };
    if problem.reference.is_some() {
        return Ok(None);
    }
    match program(g) {
        Ok(source) => {
            let rel = PathBuf::from("submissions/accepted/grundy_answers.py");
            write_bytes(&to.join(&rel), source.as_bytes())?;
            out.submissions.push(rel.clone());
            Ok(Some(rel))
        }
        Err(why) => {
            out.notes.push(format!(
                "no accepted submission written from the game's description: {why}"
            ));
            Ok(None)
        }
    }
}

/// The program's source, or why the description cannot be written so.
pub(super) fn program(game: &GameSpec) -> Result<String, String> {
    let Question::Winner { win, lose } = &game.question else {
        return Err("only the question of who wins is written out".into());
    };
    let analysis = game
        .first_analysis()
        .ok_or("the moves' parameters have no values")?;
    let one_heap_parameters = game
        .rules
        .moves
        .iter()
        .any(|m| m.one_heap() && m.parameter().is_some());
    let (theory, values) = match analysis.theory() {
        Theory::Sum if !one_heap_parameters => {
            let h = analysis.heap_values().ok_or("no values of one heap")?;
            if h.known_below().is_some_and(|b| b <= game.heap_size().max) {
                return Err(
                    "one heap's values are not known for every heap the statement allows".into(),
                );
            }
            ("(\"sum\",)".to_string(), h.known().clone())
        }
        Theory::MisereNim => ("(\"misere-nim\",)".to_string(), Known::Identity),
        Theory::Moore(_) => {
            let k = game.rules.moves.iter().find_map(|m| match m {
                Move::Heaps(a) => Some(a),
                _ => None,
            });
            let theory = match k {
                Some(Amount::Number(k)) => format!("(\"moore\", {k}, None)"),
                Some(Amount::Parameter(p)) => {
                    let i = game
                        .parameters
                        .iter()
                        .position(|(n, _)| n == p)
                        .ok_or("an undeclared parameter")?;
                    format!("(\"moore\", None, {i})")
                }
                None => return Err("no `heaps` move".into()),
            };
            (theory, Known::Identity)
        }
        Theory::Staircase => ("(\"staircase\",)".to_string(), Known::Identity),
        _ => return Err("no theorem decides every position of this game".into()),
    };
    let framing = match game.cases {
        Framing::Single => "single",
        Framing::Counted(_) => "counted",
        Framing::UntilEof { .. } => "eof",
        Framing::UntilZero => "zero",
    };
    let heaps = matches!(game.position, Position::Heaps { .. });
    Ok(super::heap_values::write_into(ANSWERS_PY, &values)
        .replace("@FRAMING@", framing)
        .replace("@HEAPS@", if heaps { "True" } else { "False" })
        .replace("@PARAMS@", &game.parameters.len().to_string())
        .replace("@THEORY@", &theory)
        .replace("@WIN@", win)
        .replace("@LOSE@", lose))
}
