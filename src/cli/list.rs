//! `grundy list`: the problems with their titles, limits and sources.

use super::out::outln;
use anyhow::anyhow;
use grundy::markup::terminal;

use super::exit::{Failure, internal, usage};
use super::{Global, problem_set};

pub fn run(g: &Global, json: bool) -> Result<u8, Failure> {
    let problems = problem_set(g).all().map_err(|e| usage(anyhow!(e)))?;
    if json {
        let rows: Vec<_> = problems
            .iter()
            .map(|p| {
                serde_json::json!({
                    "id": p.id.0, "title": p.title, "source": p.source,
                    "time_ms": p.limits.time.as_millis() as u64,
                    "memory_kib": p.limits.memory.kib(),
                    "output_kib": p.limits.output.kib(),
                    "groups": p.groups.iter().map(|g| &g.name).collect::<Vec<_>>(),
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&rows).map_err(|e| internal(anyhow!(e)))?
        );
        return Ok(0);
    }
    // Ids, titles and sources come from the problems' files: escaped for
    // the terminal, and measured as shown.
    let shown: Vec<_> = problems
        .iter()
        .map(|p| (terminal(&p.id.0), terminal(&p.title), terminal(&p.source)))
        .collect();
    let width = shown
        .iter()
        .map(|(id, _, _)| id.chars().count())
        .max()
        .unwrap_or(2)
        .max(2);
    // Titles are counted in characters, not bytes (`Misère`).
    let title_width = shown
        .iter()
        .map(|(_, title, _)| title.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    outln!(
        "{:<width$}  {:<title_width$} {:>6} {:>8}  source",
        "id",
        "title",
        "time",
        "memory"
    );
    for (p, (id, title, source)) in problems.iter().zip(&shown) {
        outln!(
            "{:<width$}  {:<title_width$} {:>5}s {:>8}  {}",
            id,
            title,
            p.limits.time.as_secs_f64(),
            p.limits.memory.to_string(),
            source
        );
    }
    Ok(0)
}
