//! The Contest API's scoreboard and awards, from the scoreboard the pages
//! show (`serve::scoreboard`): frozen for the public and the teams, the
//! truth for the jury.

use serde_json::{Value, json};

use super::access::Access;
use super::objects::{group_ids, group_of};
use crate::batch::contest::score::{Row, Scoring};
use crate::serve::awards::Medal;
use crate::serve::config::Config;
use crate::serve::scoreboard::{Board, View};

/// Which scoreboard a client gets.
pub fn view(access: &Access) -> View {
    if access.is_admin() {
        View::Truth
    } else {
        View::Public
    }
}

/// The `rows` of the scoreboard object: by rank, then by team name.
pub fn rows(b: &Board) -> Vec<Value> {
    let s = &b.standings;
    let mut rows: Vec<_> = s.rows.iter().collect();
    rows.sort_by(|a, b| (a.rank, &a.name, &a.contestant).cmp(&(b.rank, &b.name, &b.contestant)));
    rows.into_iter()
        .map(|r| {
            let problems: Vec<Value> = s
                .problems
                .iter()
                .zip(&r.cells)
                .map(|(p, cell)| {
                    let pending = b
                        .pending
                        .get(&(r.contestant.clone(), p.id.clone()))
                        .copied()
                        .unwrap_or(0);
                    let mut o = json!({
                        "problem_id": p.id.as_str(),
                        "num_judged": cell.judged,
                        "num_pending": pending,
                    });
                    match s.scoring {
                        Scoring::Icpc => {
                            o["solved"] = json!(cell.solved_minute.is_some());
                            if let Some(m) = cell.solved_minute {
                                o["time"] = json!(m);
                            }
                        }
                        Scoring::Ioi => {
                            let best = cell.best.unwrap_or(0.0);
                            o["score"] = json!(best);
                            if best > 0.0
                                && let Some(sec) = cell.best_second
                            {
                                o["time"] = json!(sec / 60);
                            }
                        }
                    }
                    o
                })
                .collect();
            let score = match s.scoring {
                Scoring::Icpc => {
                    let mut o = json!({"num_solved": r.solved, "total_time": r.penalty});
                    if let Some(last) = r.cells.iter().filter_map(|c| c.solved_minute).max() {
                        o["time"] = json!(last);
                    }
                    o
                }
                Scoring::Ioi => json!({"score": r.total}),
            };
            json!({
                "rank": r.rank,
                "team_id": r.contestant,
                "score": score,
                "problems": problems,
            })
        })
        .collect()
}

/// The awards a scoreboard gives: the leaders (`winner`), the medals by
/// rank (`gold-medal`, `silver-medal`, `bronze-medal`, as many of each as
/// the contest file's `medals` says), each group's best team
/// (`group-winner-{group}`) and the first to solve each problem (ICPC),
/// as the client's scoreboard shows them. Only teams that scored win
/// anything. While that scoreboard is frozen, the winner, the medals and
/// the group winners are not given (they would tell the hidden results'
/// effect); the first to solve, earned before the freeze, are.
pub fn awards(b: &Board, config: &Config) -> Vec<Value> {
    let s = &b.standings;
    let scored: Vec<&Row> = s
        .rows
        .iter()
        .filter(|r| match s.scoring {
            Scoring::Icpc => r.solved > 0,
            Scoring::Ioi => r.total > 0.0,
        })
        .collect();
    let ids = |keep: &dyn Fn(&Row) -> bool| -> Vec<&str> {
        scored
            .iter()
            .filter(|r| keep(r))
            .map(|r| r.contestant.as_str())
            .collect()
    };
    let mut out = Vec::new();
    if !b.frozen {
        out.push(json!({"id": "winner", "citation": "Contest winner", "team_ids": ids(&|r| r.rank == 1)}));
        for medal in Medal::ALL {
            out.push(json!({
                "id": medal.award_id(),
                "citation": medal.citation(),
                "team_ids": ids(&|r| config.medals.of_rank(r.rank) == Some(medal)),
            }));
        }
        for group in group_ids(config) {
            let in_group = |r: &Row| group_of(config, &r.contestant) == Some(group);
            let best = scored.iter().filter(|r| in_group(r)).map(|r| r.rank).min();
            out.push(json!({
                "id": format!("group-winner-{group}"),
                "citation": format!("Winner of group {group}"),
                "team_ids": ids(&|r| in_group(r) && Some(r.rank) == best),
            }));
        }
    }
    if s.scoring == Scoring::Icpc {
        for (j, p) in s.problems.iter().enumerate() {
            let firsts: Vec<&str> = s
                .rows
                .iter()
                .filter(|r| r.cells.get(j).is_some_and(|c| c.first))
                .map(|r| r.contestant.as_str())
                .collect();
            out.push(json!({
                "id": format!("first-to-solve-{}", p.id),
                "citation": format!("First to solve problem {}", p.label),
                "team_ids": firsts,
            }));
        }
    }
    out
}
