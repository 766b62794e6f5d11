//! The replay of a lost game in `report.html`: the start position and every
//! move of the failing game, drawn so that a student can step through it
//! and see where the game slipped away. Nim piles are bars; Wythoff's two
//! heaps are a point on a grid walking towards the origin.
//!
//! The page stays self-contained: the transcript travels in a data
//! attribute (HTML-escaped JSON, heap sizes as strings because JavaScript
//! numbers cannot hold every size up to 10^18), one inline script draws
//! inline SVG, and nothing is fetched. Without script the numbered list of
//! moves, written here, still tells the whole game.

use std::fmt::Write as _;

use serde::Serialize;

use crate::games::play::{Side, Transcript};
use crate::markup::escape;

/// Styles of the replay, appended to the page's own.
pub(crate) const CSS: &str = "
.replay{border:1px solid #ccc;border-radius:.3em;padding:.5em 1em;margin:1em 0;max-width:760px}
.replay:focus{outline:2px solid #90caf9}
.replay-controls button{font:inherit;margin-right:.3em}
.replay-step{margin-left:.5em;font-variant-numeric:tabular-nums}
.replay svg{display:block;margin:.5em 0;background:#fafafa;border:1px solid #e0e0e0}
.replay svg.at-mistake{border-color:#c62828;box-shadow:0 0 0 2px #ef9a9a}
.replay rect.pile{fill:#1e88e5}
.replay rect.pile.changed{fill:#fb8c00}
.replay circle.token{fill:#1e88e5;stroke:#0d47a1;stroke-width:2}
.replay circle.cold{fill:#a5d6a7}
.replay polyline.trail{fill:none;stroke:#fb8c00;stroke-width:2}
.replay .caption{min-height:1.4em}
.replay .caption .mistake{color:#c62828;font-weight:bold}
.replay ol.replay-moves{max-height:12em;overflow:auto;font-family:monospace;margin:.3em 0}
.replay ol.replay-moves li.current{background:#fff3e0}
.replay ol.replay-moves li.wrong{color:#c62828;font-weight:bold}
.replay ol.replay-moves li.gap{list-style:none;color:#777;font-style:italic}
";

/// How many moves the page shows at each end of a long game. A game may
/// have 10^5 moves (the protocol's bound); the page stays small by showing
/// the opening, the moves around the mistake and the end, and saying how
/// many moves it leaves out. The JSON report keeps every move.
const SHOWN_AT_ENDS: usize = 200;
/// Moves shown on either side of the mistake when it falls in the middle.
const SHOWN_AROUND_MISTAKE: usize = 5;

/// The transcript as the page's script reads it.
#[derive(Serialize)]
struct Data<'a> {
    rules: &'a str,
    start: Vec<String>,
    /// The moves shown, in order; a gap between two is a run of moves left
    /// out, after which the position is given again (`from`).
    moves: Vec<Move<'a>>,
    /// Every move of the game, shown or not.
    total: usize,
    /// Steps (moves played) after which the player stood lost; 0 is the
    /// choice of side.
    lost_after: Option<u64>,
}

#[derive(Serialize)]
struct Move<'a> {
    /// The move's number in the game (1-based).
    n: usize,
    you: bool,
    #[serde(rename = "move")]
    text: &'a str,
    /// The position before this move, when the moves before it are not
    /// all shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<Vec<String>>,
}

/// Which moves (0-based) the page shows: all of a short game; of a long
/// one, both ends and the moves around the mistake.
fn shown(total: usize, lost_after: Option<u64>) -> Vec<bool> {
    if total <= 2 * SHOWN_AT_ENDS + SHOWN_AROUND_MISTAKE {
        return vec![true; total];
    }
    let mut show = vec![false; total];
    show[..SHOWN_AT_ENDS].fill(true);
    show[total - SHOWN_AT_ENDS..].fill(true);
    if let Some(k) = lost_after
        .and_then(|k| usize::try_from(k).ok())
        .filter(|k| *k >= 1)
    {
        let lo = (k - 1).saturating_sub(SHOWN_AROUND_MISTAKE);
        let hi = (k + SHOWN_AROUND_MISTAKE).min(total);
        show[lo..hi].fill(true);
    }
    show
}

/// The position after `text` is played from `cur`, read as the page's
/// script reads it (`k v`: pile k now holds v; Wythoff: the two heaps).
fn apply(rules: &str, cur: &mut Vec<String>, text: &str) {
    let words: Vec<&str> = text.split_whitespace().collect();
    if rules == "wythoff-play" {
        if let [a, b, ..] = words.as_slice() {
            *cur = vec![a.to_string(), b.to_string()];
        }
    } else if let [k, v, ..] = words.as_slice()
        && let Ok(k) = k.parse::<usize>()
        && (1..=cur.len()).contains(&k)
    {
        cur[k - 1] = v.to_string();
    }
}

/// Appends the replay of `t` (the game of the test at `id`), if the
/// transcript says which game it is.
pub(crate) fn replay(h: &mut String, id: &str, t: &Transcript) {
    let Some(rules) = t.rules.as_deref() else {
        return;
    };
    if !matches!(rules, "nim-play" | "misere-nim-play" | "wythoff-play") {
        return;
    }
    let show = shown(t.moves.len(), t.lost_after);
    let mut cur: Vec<String> = t.start.iter().map(u64::to_string).collect();
    let mut moves = Vec::new();
    let mut after_gap = false;
    for (i, m) in t.moves.iter().enumerate() {
        if show[i] {
            moves.push(Move {
                n: i + 1,
                you: m.by == Side::Submission,
                text: &m.text,
                from: after_gap.then(|| cur.clone()),
            });
        }
        after_gap = !show[i];
        apply(rules, &mut cur, &m.text);
    }
    let data = Data {
        rules,
        start: t.start.iter().map(u64::to_string).collect(),
        moves,
        total: t.moves.len(),
        lost_after: t.lost_after,
    };
    let json = serde_json::to_string(&data).unwrap_or_else(|_| "null".into());
    let start: Vec<String> = t.start.iter().map(u64::to_string).collect();
    let _ = writeln!(
        h,
        "<div class=\"replay\" id=\"{id}\" tabindex=\"0\" data-rules=\"{rules}\" data-step=\"0\" data-replay=\"{}\">",
        escape(&json)
    );
    let _ = writeln!(
        h,
        "<h4>Replay: game {} of {}, from {}</h4>",
        t.game,
        t.games,
        escape(&start.join(" "))
    );
    let choice = match &t.choice {
        Some(c) if *c == t.right_choice => format!("You chose to move {c}, the winning choice."),
        Some(c) => format!(
            "You chose to move {c}; the winning choice was {}: the game was lost from the start.",
            t.right_choice
        ),
        None => "You did not choose a side.".to_string(),
    };
    let _ = writeln!(h, "<p class=\"replay-choice\">{}</p>", escape(&choice));
    h.push_str(
        "<p class=\"replay-controls\"><button type=\"button\" class=\"first\">« start</button>\
         <button type=\"button\" class=\"prev\">◀ previous</button>\
         <button type=\"button\" class=\"next\">next ▶</button>\
         <button type=\"button\" class=\"last\">end »</button>",
    );
    if t.lost_after.is_some() {
        h.push_str("<button type=\"button\" class=\"mistake\">where it went wrong</button>");
    }
    h.push_str(
        "<span class=\"replay-step\"></span> <small>(or the ← → keys)</small></p>\n\
         <svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"></svg>\n\
         <p class=\"caption\"></p>\n<ol class=\"replay-moves\">\n",
    );
    let mut hidden = 0usize;
    for (i, m) in t.moves.iter().enumerate() {
        if !show[i] {
            hidden += 1;
            continue;
        }
        gap_line(h, &mut hidden);
        let you = m.by == Side::Submission;
        let wrong = you && t.lost_after == Some(i as u64 + 1);
        let _ = writeln!(
            h,
            "<li value=\"{n}\" data-step=\"{n}\" class=\"{}{}\">{} {}{}</li>",
            if you { "you" } else { "judge" },
            if wrong { " wrong" } else { "" },
            if you { "you:" } else { "judge:" },
            escape(&m.text),
            if wrong {
                " ← from here on you were losing"
            } else {
                ""
            },
            n = i + 1,
        );
    }
    gap_line(h, &mut hidden);
    let _ = writeln!(
        h,
        "</ol>\n<p class=\"replay-result\">{}</p>\n</div>",
        escape(&t.result)
    );
}

/// The line standing for `hidden` moves left out of the list, if any.
fn gap_line(h: &mut String, hidden: &mut usize) {
    if *hidden > 0 {
        let _ = writeln!(
            h,
            "<li class=\"gap\">… {} move{} not shown (the JSON report has every move)</li>",
            *hidden,
            if *hidden == 1 { "" } else { "s" }
        );
        *hidden = 0;
    }
}

/// The script that draws every replay of the page; included once, at the
/// end, only on a page that has a replay.
pub(crate) const SCRIPT: &str = r#"<script>
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var replays = [];
  var active = null;
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  /* A scale from 0..max onto 0..px: linear for small heaps, logarithmic
     when they are large, so that a pile of 3 next to one of 10^9 still
     shows. */
  function scaler(max, px) {
    if (max <= 0) return function () { return 0; };
    if (max <= 1000) return function (v) { return v / max * px; };
    var l = Math.log1p(max);
    return function (v) { return Math.log1p(v) / l * px; };
  }
  function positions(d) {
    var out = [d.start.slice()];
    var cur = d.start.slice();
    var changed = [[]];
    for (var i = 0; i < d.moves.length; i++) {
      /* After moves left out of a long game, the position is given. */
      if (d.moves[i].from) cur = d.moves[i].from.slice();
      var p = d.moves[i].move.split(/\s+/);
      var c = [];
      if (d.rules === 'wythoff-play') {
        if (p[0] !== cur[0]) c.push(0);
        if (p[1] !== cur[1]) c.push(1);
        cur = [p[0], p[1]];
      } else {
        cur = cur.slice();
        var k = parseInt(p[0], 10) - 1;
        if (k >= 0 && k < cur.length) { cur[k] = p[1]; c.push(k); }
      }
      out.push(cur);
      changed.push(c);
    }
    return {pos: out, changed: changed};
  }
  function drawNim(r, step) {
    var svg = r.svg, pos = r.pos[step], n = pos.length;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var W = 640, H = 240, top = 24, bottom = 24, plot = H - top - bottom;
    svg.setAttribute('width', W); svg.setAttribute('height', H);
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    var slot = (W - 20) / n, bw = Math.max(2, Math.min(48, slot * 0.7));
    var scale = scaler(r.max, plot);
    var changed = r.changed[step];
    for (var i = 0; i < n; i++) {
      var v = Number(pos[i]);
      var h = v > 0 ? Math.max(2, scale(v)) : 0;
      var x = 10 + slot * i + (slot - bw) / 2;
      var rect = el('rect', {'class': 'pile' + (changed.indexOf(i) >= 0 ? ' changed' : ''),
        x: x.toFixed(1), y: (top + plot - h).toFixed(1), width: bw.toFixed(1),
        height: h.toFixed(1), 'data-pile': i + 1, 'data-stones': pos[i]}, svg);
      el('title', {}, rect).textContent = 'pile ' + (i + 1) + ': ' + pos[i];
      if (n <= 24) {
        var t = el('text', {x: (x + bw / 2).toFixed(1), y: (top + plot - h - 4).toFixed(1),
          'text-anchor': 'middle', 'font-size': 11}, svg);
        t.textContent = pos[i];
        var u = el('text', {x: (x + bw / 2).toFixed(1), y: H - 8, 'text-anchor': 'middle',
          'font-size': 10, fill: '#777'}, svg);
        u.textContent = '#' + (i + 1);
      }
    }
    el('line', {x1: 5, x2: W - 5, y1: top + plot, y2: top + plot, stroke: '#999'}, svg);
    if (r.max > 1000) {
      el('text', {x: W - 8, y: 14, 'text-anchor': 'end', 'font-size': 10, fill: '#777'}, svg)
        .textContent = 'heights on a log scale';
    }
  }
  function drawWythoff(r, step) {
    var svg = r.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var S = 300, pad = 30, plot = S - 2 * pad;
    svg.setAttribute('width', S); svg.setAttribute('height', S);
    svg.setAttribute('viewBox', '0 0 ' + S + ' ' + S);
    var scale = scaler(r.max, plot);
    function X(v) { return pad + scale(Number(v)); }
    function Y(v) { return S - pad - scale(Number(v)); }
    if (r.max <= 20) {
      for (var g = 0; g <= r.max; g++) {
        el('line', {x1: X(g), x2: X(g), y1: Y(0), y2: Y(r.max), stroke: '#e6e6e6'}, svg);
        el('line', {x1: X(0), x2: X(r.max), y1: Y(g), y2: Y(g), stroke: '#e6e6e6'}, svg);
      }
    }
    if (r.max <= 60) {
      /* The cold (losing-to-move) positions: the pairs the winner moves to. */
      var phi = (1 + Math.sqrt(5)) / 2;
      for (var k = 0; Math.floor(k * phi) <= r.max; k++) {
        var a = Math.floor(k * phi), b = a + k;
        [[a, b], [b, a]].forEach(function (p) {
          if (p[0] <= r.max && p[1] <= r.max)
            el('circle', {'class': 'cold', cx: X(p[0]), cy: Y(p[1]), r: 3}, svg);
        });
      }
    }
    el('line', {x1: X(0), x2: X(0) + plot, y1: Y(0), y2: Y(0), stroke: '#999'}, svg);
    el('line', {x1: X(0), x2: X(0), y1: Y(0), y2: Y(0) - plot, stroke: '#999'}, svg);
    el('text', {x: S - pad, y: S - 8, 'text-anchor': 'end', 'font-size': 10, fill: '#777'}, svg)
      .textContent = 'first heap →' + (r.max > 1000 ? ' (log scale)' : '');
    el('text', {x: 4, y: 14, 'font-size': 10, fill: '#777'}, svg).textContent = '↑ second heap';
    if (r.max <= 60) {
      el('text', {x: S - 4, y: 14, 'text-anchor': 'end', 'font-size': 10, fill: '#2e7d32'}, svg)
        .textContent = 'green: lost for the player to move';
    }
    var pts = [];
    for (var i = 0; i <= step; i++) pts.push(X(r.pos[i][0]).toFixed(1) + ',' + Y(r.pos[i][1]).toFixed(1));
    el('polyline', {'class': 'trail', points: pts.join(' ')}, svg);
    var p = r.pos[step];
    var c = el('circle', {'class': 'token', cx: X(p[0]).toFixed(1), cy: Y(p[1]).toFixed(1), r: 7,
      'data-a': p[0], 'data-b': p[1]}, svg);
    el('title', {}, c).textContent = p[0] + ' ' + p[1];
  }
  function show(r, step) {
    var last = r.pos.length - 1;
    step = Math.max(0, Math.min(last, step));
    r.step = step;
    r.root.setAttribute('data-step', step);
    if (r.data.rules === 'wythoff-play') drawWythoff(r, step); else drawNim(r, step);
    var atMistake = r.mistake !== null && step === r.mistake;
    r.svg.setAttribute('class', 'board' + (atMistake ? ' at-mistake' : ''));
    var number = step === 0 ? 0 : r.data.moves[step - 1].n;
    r.counter.textContent = 'move ' + number + ' of ' + r.data.total;
    var cap = '';
    if (step === 0) {
      cap = 'Start: ' + r.pos[0].join(' ') + '.';
    } else {
      var m = r.data.moves[step - 1];
      cap = 'Move ' + m.n + ', ' + (m.you ? 'you' : 'the judge') + ': ' + m.move +
        '. Position: ' + r.pos[step].join(' ') + '.';
    }
    r.caption.textContent = cap;
    if (atMistake) {
      var s = document.createElement('span');
      s.className = 'mistake';
      s.textContent = step === 0
        ? ' Your choice of side already lost this game.'
        : ' This move left the judge a winning position: here the game was lost.';
      r.caption.appendChild(s);
    }
    var items = r.root.querySelectorAll('ol.replay-moves li[data-step]');
    for (var i = 0; i < items.length; i++) {
      items[i].classList.toggle('current', Number(items[i].getAttribute('data-step')) === number && step > 0);
    }
  }
  function setup(root) {
    var data;
    try { data = JSON.parse(root.getAttribute('data-replay')); } catch (e) { return; }
    if (!data || !data.start) return;
    var p = positions(data);
    var max = 0;
    data.start.forEach(function (v) { max = Math.max(max, Number(v)); });
    /* The step (index into the shown moves) where the game was lost. */
    var mistake = null;
    if (data.lost_after === 0) mistake = 0;
    for (var j = 0; j < data.moves.length; j++) if (data.moves[j].n === data.lost_after) mistake = j + 1;
    var r = {root: root, data: data, pos: p.pos, changed: p.changed, max: max, step: 0, mistake: mistake,
      svg: root.querySelector('svg.board'), counter: root.querySelector('.replay-step'),
      caption: root.querySelector('.caption')};
    function on(cls, f) {
      var b = root.querySelector('button.' + cls);
      if (b) b.addEventListener('click', function () { active = r; f(); });
    }
    on('first', function () { show(r, 0); });
    on('prev', function () { show(r, r.step - 1); });
    on('next', function () { show(r, r.step + 1); });
    on('last', function () { show(r, r.pos.length - 1); });
    on('mistake', function () { if (mistake !== null) show(r, mistake); });
    root.addEventListener('focus', function () { active = r; });
    root.addEventListener('click', function () { active = r; });
    replays.push(r);
    show(r, 0);
  }
  var roots = document.querySelectorAll('.replay');
  for (var i = 0; i < roots.length; i++) setup(roots[i]);
  document.addEventListener('keydown', function (e) {
    var r = active || replays[0];
    if (!r || e.altKey || e.ctrlKey || e.metaKey) return;
    var moves = {ArrowRight: 1, ArrowLeft: -1};
    if (e.key in moves) { show(r, r.step + moves[e.key]); e.preventDefault(); }
    else if (e.key === 'Home') { show(r, 0); e.preventDefault(); }
    else if (e.key === 'End') { show(r, r.pos.length - 1); e.preventDefault(); }
  });
})();
</script>
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::play::PlayedMove;

    fn transcript() -> Transcript {
        Transcript {
            game: 2,
            games: 3,
            start: vec![1, 2, 1_000_000_000_000_000_000],
            choice: Some("first".into()),
            right_choice: "first".into(),
            moves: vec![
                PlayedMove {
                    by: Side::Submission,
                    text: "3 0".into(),
                },
                PlayedMove {
                    by: Side::Judge,
                    text: "2 1".into(),
                },
            ],
            result: "game 2 of 3: the judge <won>".into(),
            rules: Some("nim-play".into()),
            lost_after: Some(1),
        }
    }

    #[test]
    fn the_replay_carries_the_game_escaped_and_marks_the_mistake() {
        let mut h = String::new();
        replay(&mut h, "replay-0", &transcript());
        assert!(h.contains("data-rules=\"nim-play\""), "{h}");
        // Heap sizes travel as strings: 10^18 is not a JavaScript integer.
        assert!(h.contains("&quot;1000000000000000000&quot;"), "{h}");
        assert!(!h.contains("the judge <won>"), "{h}");
        assert!(h.contains("the judge &lt;won&gt;"), "{h}");
        assert!(h.contains("class=\"you wrong\">you: 3 0 ←"), "{h}");
        assert!(h.contains("class=\"judge\">judge: 2 1</li>"), "{h}");
        assert!(
            h.contains("button type=\"button\" class=\"mistake\""),
            "{h}"
        );
    }

    #[test]
    fn a_transcript_without_rules_has_no_replay() {
        let mut t = transcript();
        t.rules = None;
        let mut h = String::new();
        replay(&mut h, "replay-0", &t);
        assert!(h.is_empty());
    }

    /// A game of `n` moves on one pile of `n` stones, one stone a move.
    fn long_game(n: usize, lost_after: Option<u64>) -> Transcript {
        let mut t = transcript();
        t.start = vec![n as u64, 7];
        t.moves = (0..n)
            .map(|i| PlayedMove {
                by: if i % 2 == 0 {
                    Side::Submission
                } else {
                    Side::Judge
                },
                text: format!("1 {}", n - i - 1),
            })
            .collect();
        t.lost_after = lost_after;
        t
    }

    #[test]
    fn a_huge_game_shows_its_ends_and_its_mistake_and_counts_the_rest() {
        let n = 100_000;
        let mistake = 50_001; // an odd move: the submission's
        let mut h = String::new();
        replay(&mut h, "replay-0", &long_game(n, Some(mistake)));
        let listed = h.matches("<li value=").count();
        let around = (mistake as usize - SHOWN_AROUND_MISTAKE - 1)
            ..(mistake as usize + SHOWN_AROUND_MISTAKE);
        assert_eq!(listed, 2 * SHOWN_AT_ENDS + around.len(), "moves listed");
        let before = around.start - SHOWN_AT_ENDS;
        let after = n - SHOWN_AT_ENDS - around.end;
        assert!(
            h.contains(&format!("… {before} moves not shown")),
            "first gap"
        );
        assert!(
            h.contains(&format!("… {after} moves not shown")),
            "second gap"
        );
        assert!(h.contains("<li value=\"1\" "), "first move");
        assert!(h.contains(&format!("<li value=\"{n}\" ")), "last move");
        assert!(h.contains(&format!(
            "<li value=\"{mistake}\" data-step=\"{mistake}\" class=\"you wrong\">"
        )));
        assert!(
            !h.contains(&format!("<li value=\"{}\" ", SHOWN_AT_ENDS + 1)),
            "a hidden move is listed"
        );
        // The data carries only the moves shown, each gap closed by the
        // position it ends at: move k leaves n - k stones.
        assert_eq!(h.matches("&quot;n&quot;:").count(), listed);
        let first_after_gap = around.start + 1;
        assert!(
            h.contains(&format!(
                "{{&quot;n&quot;:{first_after_gap},&quot;you&quot;:false,&quot;move&quot;:&quot;1 {}&quot;,&quot;from&quot;:[&quot;{}&quot;,&quot;7&quot;]}}",
                n - first_after_gap,
                n - first_after_gap + 1
            )),
            "the position after the first gap"
        );
        assert!(h.contains(&format!("&quot;total&quot;:{n}")));
        // Small enough to open: ten times the moves, the same lines (only
        // the numbers grow by a digit).
        let mut bigger = String::new();
        replay(&mut bigger, "replay-0", &long_game(10 * n, Some(mistake)));
        assert_eq!(bigger.lines().count(), h.lines().count());
        assert!(
            bigger.len() < h.len() * 11 / 10,
            "{} vs {}",
            bigger.len(),
            h.len()
        );
    }

    #[test]
    fn a_short_game_is_listed_whole() {
        let n = 2 * SHOWN_AT_ENDS + SHOWN_AROUND_MISTAKE;
        let mut h = String::new();
        replay(&mut h, "replay-0", &long_game(n, None));
        assert_eq!(h.matches("<li value=").count(), n);
        assert!(!h.contains("not shown"));
        assert!(!h.contains("&quot;from&quot;"));
    }
}
