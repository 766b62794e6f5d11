//! The scoreboard tables as last rendered: every page and every live
//! update asks for the table, and between two results it is the same, so
//! it is rendered once per scoreboard and handed out as text.
//!
//! A table is kept with the scoreboard it was rendered from
//! (`scoreboard::Boards` gives out the same one until a result, a new
//! submission or a new team changes it, and one per view and freeze): a
//! page asking with another scoreboard gets a new rendering, so a page is
//! never older than the scoreboard. Only the table is kept; the frame
//! around it (who is signed in, the clock) is drawn for each request.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Bytes;
use maud::{Markup, PreEscaped};

use crate::serve::scoreboard::Board;

/// How many renderings are kept: one per view in use (the jury's, the
/// public's frozen or not) and one spare for the moment a result comes in.
const KEPT: usize = 4;

#[derive(Default)]
pub struct Tables {
    last: Mutex<Vec<(Arc<Board>, Bytes)>>,
    /// One rendering at a time: the pages a result sends back for the
    /// table wait for one rendering instead of each making its own.
    rendering: Mutex<()>,
    rendered: AtomicUsize,
}

impl Tables {
    /// How many tables were rendered so far.
    pub fn rendered(&self) -> usize {
        self.rendered.load(Ordering::Relaxed)
    }

    /// The table of `board` if rendered already.
    pub fn kept(&self, board: &Arc<Board>) -> Option<Table> {
        // The same allocation: the scoreboard kept here cannot be freed
        // and another take its place.
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|(b, _)| Arc::ptr_eq(b, board))
            .map(|(_, html)| Table(html.clone()))
    }

    /// The table of `board` as `render` draws it, rendered again only for
    /// another scoreboard.
    pub fn get(&self, board: &Arc<Board>, render: impl FnOnce(&Board) -> Markup) -> Table {
        let lock = || self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(table) = self.kept(board) {
            return table;
        }
        let _alone = self
            .rendering
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(table) = self.kept(board) {
            return table;
        }
        let html = Bytes::from(render(board).into_string());
        self.rendered.fetch_add(1, Ordering::Relaxed);
        let mut last = lock();
        if last.len() >= KEPT {
            last.remove(0);
        }
        last.push((Arc::clone(board), html.clone()));
        Table(html)
    }
}

/// A rendered table: the body of the live update, or put in a page.
#[derive(Clone)]
pub struct Table(Bytes);

impl Table {
    /// In a page (the rendering was maud's, so escaped already).
    pub fn markup(&self) -> PreEscaped<std::borrow::Cow<'_, str>> {
        PreEscaped(String::from_utf8_lossy(&self.0))
    }

    /// As the answer to a request.
    pub fn html(&self) -> axum::response::Html<Bytes> {
        axum::response::Html(self.0.clone())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use maud::html;

    use super::*;
    use crate::batch::contest::score::{self, Attempt, ContestProblem, Scoring};
    use crate::problem::ProblemId;
    use crate::verdict::Verdict;

    /// Ana's and Ben's scoreboard on one problem after `attempts` (ana's).
    fn board(verdicts: &[Verdict]) -> Arc<Board> {
        let attempts: Vec<Attempt> = verdicts
            .iter()
            .enumerate()
            .map(|(i, &verdict)| Attempt {
                contestant: "ana".into(),
                problem: ProblemId("nim".into()),
                time: 60 * (i as u64 + 1),
                file: format!("{i:012}"),
                verdict,
                score: 0.0,
            })
            .collect();
        let standings = score::standings(
            "c",
            Scoring::Icpc,
            20,
            &[ContestProblem {
                id: ProblemId("nim".into()),
                label: "A".into(),
            }],
            &[("ana".into(), "Ana".into()), ("ben".into(), "Ben".into())],
            &attempts,
        );
        Arc::new(Board {
            standings,
            pending: BTreeMap::new(),
            frozen: false,
        })
    }

    fn render(b: &Board) -> Markup {
        html! {
            @for r in &b.standings.rows {
                p { (r.contestant) " " (r.solved) " " (r.penalty) }
            }
        }
    }

    fn text(t: &Table) -> String {
        t.markup().0.into_owned()
    }

    /// Many requests for one scoreboard render its table once, also when
    /// they come at once; a scoreboard a verdict changed is rendered anew,
    /// and its table is never the one of the scoreboard before.
    #[test]
    fn a_table_is_rendered_once_per_scoreboard() {
        let tables = Tables::default();
        let before = board(&[Verdict::WA]);
        let first = text(&tables.get(&before, render));
        assert!(first.contains("ana 0 0"), "{first}");
        for _ in 0..100 {
            assert_eq!(text(&tables.get(&before, render)), first);
        }
        assert_eq!(
            tables.rendered(),
            1,
            "one scoreboard rendered more than once"
        );

        let after = board(&[Verdict::WA, Verdict::AC]);
        let at_once = std::sync::Barrier::new(8);
        let got: Vec<String> = std::thread::scope(|s| {
            let asks: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        at_once.wait();
                        text(&tables.get(&after, render))
                    })
                })
                .collect();
            asks.into_iter()
                .map(|a| a.join().expect("a page"))
                .collect()
        });
        for t in &got {
            // Solved in minute 2 with one rejected try: 2 + 20.
            assert!(
                t.contains("ana 1 22"),
                "the page is older than the verdict: {t}"
            );
        }
        assert_eq!(
            tables.rendered(),
            2,
            "pages asking at once rendered it each"
        );
        // The one before is still at hand (another view's, say).
        assert_eq!(text(&tables.get(&before, render)), first);
        assert_eq!(tables.rendered(), 2);
        // An equal scoreboard computed again is another one: rendered.
        let again = board(&[Verdict::WA, Verdict::AC]);
        assert_eq!(text(&tables.get(&again, render)), got[0]);
        assert_eq!(tables.rendered(), 3);
    }
}
