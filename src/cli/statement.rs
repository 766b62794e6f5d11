//! `grundy statement`: a problem's statement as an HTML page
//! (`grundy::export::statement_html`); `grade` writes one beside its reports.

use std::path::Path;

use anyhow::{Context as _, anyhow};

use super::exit::{self, Failure, internal};
use super::out::out;
use super::{Global, find};

pub fn run(g: &Global, id: &str, out_file: Option<&Path>) -> Result<u8, Failure> {
    let problem = find(g, id)?;
    let page = grundy::export::statement_html(&problem)?;
    match out_file {
        Some(f) => {
            std::fs::write(f, page)
                .with_context(|| format!("cannot write {}", f.display()))
                .map_err(internal)?;
            eprintln!("wrote the statement of {} to {}", problem.id, f.display());
        }
        None => out!("{page}"),
    }
    Ok(exit::OK)
}

/// After `grade`: `OUT/statements/<id>.html` for each problem in
/// `OUT/report.json`, so the class gets the statements with their reports.
/// A problem without a statement is passed over with a note.
pub fn beside_reports(g: &Global, out_dir: &Path) {
    let Ok(text) = std::fs::read_to_string(out_dir.join("report.json")) else {
        return;
    };
    let Ok(report) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    let mut ids: Vec<&str> = report["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["problem"].as_str())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        let written = find(g, id)
            .map_err(|f| f.error)
            .and_then(|p| grundy::export::statement_html(&p).map_err(|e| anyhow!(e)))
            .and_then(|page| {
                let dir = out_dir.join("statements");
                std::fs::create_dir_all(&dir)?;
                let file = dir.join(format!("{id}.html"));
                std::fs::write(&file, page)?;
                Ok(file)
            });
        match written {
            Ok(file) => eprintln!("grundy: statement of {id}: {}", file.display()),
            Err(e) => eprintln!("grundy: note: no statement page for {id}: {e:#}"),
        }
    }
}
