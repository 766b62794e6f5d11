//! `grundy game PROBLEM`: a described game explored — one heap's Grundy
//! values, their period and its proof, small P-positions, and a
//! position's winning moves (`grundy::catalog::described::explore`).

use anyhow::anyhow;
use serde_json::json;

use super::exit::{self, Failure, usage};
use super::out::out;
use super::{Global, find};

// What `grundy game` was asked (a plain comment: a doc comment would
// be taken for the subcommand's about, replacing the one `Command` gives).
#[derive(clap::Args)]
pub struct Ask {
    /// Problem id, or a folder holding problem.yaml
    pub problem: String,
    /// Show the Grundy values of one heap of 0..N-1 tokens
    #[arg(long, value_name = "N")]
    pub values: Option<u64>,
    /// A position to look at: its heaps, e.g. "3 4 5"
    #[arg(long, value_name = "HEAPS")]
    pub position: Option<String>,
    /// A parameter's value, for games whose moves use one (repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Print JSON: {"values": [...], "period": {...} | null} (and "position")
    #[arg(long)]
    pub json: bool,
}

/// Values shown when `--values` is not given.
const DEFAULT_VALUES: u64 = 40;
/// The most values one call computes.
const MAX_VALUES: u64 = 1_000_000;

pub fn run(g: &Global, ask: Ask) -> Result<u8, Failure> {
    let id = &ask.problem;
    let problem = find(g, id)?;
    let Some(game) = &problem.game else {
        return Err(usage(anyhow!(
            "{}: problem {id} describes no game (no `game:` section); `grundy game` explores described games",
            problem.spec_path.display()
        )));
    };
    let n = ask.values.unwrap_or(DEFAULT_VALUES);
    if n > MAX_VALUES {
        return Err(usage(anyhow!("--values {n}: at most {MAX_VALUES}")));
    }
    let params = game
        .parameter_values(&ask.set)
        .map_err(|e| usage(anyhow!(e)))?;
    let explored = game.explore(&params, n).map_err(|e| usage(anyhow!(e)))?;
    let position = match &ask.position {
        Some(text) => Some(game.look_at(&params, text).map_err(|e| usage(anyhow!(e)))?),
        None => None,
    };
    if ask.json {
        // Written key by key: `values` first, as documented.
        let period = explored
            .period
            .map(|p| json!({"from": p.from, "length": p.length, "proven": true}));
        let mut v = format!(
            "{{\"values\": {}, \"period\": {}",
            json!(explored.values),
            period.unwrap_or(serde_json::Value::Null)
        );
        if let Some(p) = &position {
            v.push_str(&format!(", \"position\": {}", json!(p)));
        }
        out!("{v}}}\n");
        return Ok(exit::OK);
    }
    let mut text = format!("{}: {}\n", problem.id, problem.title);
    for m in game.describe_moves() {
        text.push_str(&format!("  move: {m}\n"));
    }
    text.push_str(&format!(
        "  ending: {}\n",
        match game.rules.ending {
            grundy::games::search::Ending::Normal => "normal (whoever cannot move loses)",
            grundy::games::search::Ending::Misere => "misère (whoever cannot move wins)",
        }
    ));
    let shown: Vec<String> = explored.values.iter().map(u64::to_string).collect();
    text.push_str(&format!(
        "Grundy values of one heap, G(0..{}):\n  {}\n",
        n.saturating_sub(1),
        shown.join(" ")
    ));
    match explored.period {
        Some(p) => text.push_str(&format!(
            "period: {} from n = {}, proven\n",
            p.length, p.from
        )),
        None => text.push_str("period: none proven\n"),
    }
    text.push_str(&format!("how: {}\n", explored.how));
    let mut sorted: Vec<Vec<u64>> = explored
        .p_positions
        .iter()
        .map(|p| {
            let mut p = p.clone();
            p.sort_unstable();
            p
        })
        .collect();
    sorted.sort_by_key(|p| (p.len(), p.iter().sum::<u64>(), p.clone()));
    let ps: Vec<String> = sorted
        .iter()
        .map(|p| {
            let heaps: Vec<String> = p.iter().map(u64::to_string).collect();
            format!("[{}]", heaps.join(" "))
        })
        .collect();
    text.push_str(&format!(
        "P-positions (the player to move loses), smallest first:\n  {}\n",
        if ps.is_empty() {
            "none among the small positions".to_string()
        } else {
            ps.join(" ")
        }
    ));
    if let Some(p) = position {
        let heaps: Vec<String> = p.heaps.iter().map(u64::to_string).collect();
        let value = p
            .value
            .map(|v| format!(", Grundy value {v}"))
            .unwrap_or_default();
        text.push_str(&format!(
            "position `{}`{value}: the first player {}\n",
            heaps.join(" "),
            if p.first_player_wins { "wins" } else { "loses" }
        ));
        if !p.winning_moves.is_empty() {
            let count = p
                .winning_move_count
                .as_deref()
                .map(|c| format!(" ({c} in all)"))
                .unwrap_or_default();
            let moves: Vec<String> = p.winning_moves.iter().map(|m| format!("`{m}`")).collect();
            text.push_str(&format!("  winning moves{count}: {}\n", moves.join(" ")));
        }
    }
    out!("{text}");
    Ok(exit::OK)
}
