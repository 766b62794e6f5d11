//! One test of an interactive problem: the submission runs in the sandbox
//! with pipes for its stdin and stdout, and a built-in game interactor
//! ([`crate::games::play`]) plays against it from this thread.
//!
//! The interactor is trusted code and runs in-process, so only the
//! submission's CPU time, wall time and memory are measured and limited.
//! The judge never blocks on the submission: both pipe ends on its side
//! are non-blocking and watched with `poll`, what the submission does not
//! read yet waits in a buffer, and an idleness clock runs whenever the
//! judge waits for a line. So a submission that never reads, one that
//! floods its output, one that forgets to flush, and a pipe full in both
//! directions all end, by a verdict, within the limits.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

mod talk;

use super::context::Context;
use super::exec::{STDERR_CAP, run_limits, text_head};
use super::prepared::{PlayedGame, Prepared, PreparedTest};
use super::result::TestResult;
use crate::games::play::{self, Interactor, Outcome, PlayRules, Side, Transcript};
use crate::language::Compiled;
use crate::run_kind::RunKind;
use crate::sandbox::{self, Pipes, RunLimits, RunOutcome};
use crate::units::Bytes;
use crate::verdict::Verdict;
use crate::verdict::decide::{Decision, RunFacts, run_verdict};
use crate::verdict::interactive::{GameSaid, Stop};
use talk::{Stopped, Talk};

/// The shortest idleness limit (docs/reference.md: 3 s or the time limit, whichever
/// is larger).
const MIN_IDLE: Duration = Duration::from_secs(3);
/// How many of the last moves the terminal view shows.
const SHOWN_MOVES: usize = 12;

/// The rules a test is played by, and its start positions.
type Starts = (Arc<dyn PlayRules>, Vec<Vec<u64>>);

impl PlayedGame {
    /// The rules and the start positions of a test input, each checked:
    /// a start the judge cannot decide is the problem's fault.
    fn read(&self, id: &str, text: &str) -> Result<Starts, String> {
        match self {
            PlayedGame::Builtin(game) => {
                let starts = play::parse_games(*game, text)
                    .map_err(|e| format!("bad test input for {}: {e}", game.name()))?;
                Ok((Arc::new(*game), starts))
            }
            PlayedGame::Described(spec) => {
                let format = spec.input_format();
                format
                    .check_text(text)
                    .map_err(|e| format!("bad test input for {id}: {e}"))?;
                let cases = format
                    .parse(text)
                    .map_err(|e| format!("bad test input for {id}: {e}"))?;
                let analysis = spec.first_analysis().ok_or_else(|| {
                    format!("{id}: the game's moves have no parameters to play with")
                })?;
                let starts: Vec<Vec<u64>> = cases.into_iter().map(|c| c.items).collect();
                if let Some(p) = starts.iter().find(|p| analysis.mover_wins(p).is_none()) {
                    return Err(format!(
                        "the judge cannot decide the start position `{}`: {}",
                        p.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
                        analysis.explain()
                    ));
                }
                let rules = crate::games::described::play::DescribedPlay::new(id, analysis);
                Ok((Arc::new(rules), starts))
            }
        }
    }
}

/// Runs and judges one test against the judge's player of `game`.
pub fn judge_test(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    test: &PreparedTest,
    game: &PlayedGame,
) -> TestResult {
    let mut r = TestResult::unjudged(&test.name, &test.group);
    let read = std::fs::read_to_string(&test.input)
        .map_err(|e| format!("cannot read {}: {e}", test.input.display()))
        .and_then(|text| game.read(prepared.problem.id.as_str(), &text));
    let (rules, starts) = match read {
        Ok(s) => s,
        Err(why) => {
            r.message = why;
            return r;
        }
    };
    let seed = seed_of(&test.name, prepared.problem.seed);
    let interactor = Interactor::with_rules(rules, starts, seed);
    let limits = run_limits(program, &prepared.problem.limits);
    let played = match play(
        program,
        interactor,
        limits,
        prepared.problem.limits.memory,
        ctx.workroot.path(),
        &ctx.sandbox,
    ) {
        Ok(p) => p,
        Err(e) => {
            r.not_run(e, "the judge could not run the program");
            return r;
        }
    };
    let o = &played.outcome;
    r.record_run(o);
    r.moves = Some(played.moves);
    match verdict(&played, &limits, prepared.problem.limits.memory) {
        Ok((verdict, message)) => {
            r.verdict = verdict;
            r.message = message;
        }
        Err(d) => r.decided_by_run(d),
    }
    if r.verdict != Verdict::AC {
        r.diff = Some(super::result::Diff::plain(last_moves(&played.transcript)));
        r.game = Some(played.transcript);
        r.stderr = played.stderr_head;
    }
    r
}

/// Plays `input` (a test input of the played game: `T`, then the start
/// positions) as a test named `name`, outside the problem's test list:
/// `mutants` plays a player on positions the tests do not hold. The name
/// seeds the judge's probing moves, as it does for a test of that name.
pub fn play_input(
    prepared: &Prepared,
    ctx: &Context,
    program: &Compiled,
    game: &PlayedGame,
    name: &str,
    input: &str,
) -> Result<TestResult, super::JudgeError> {
    let file = tempfile::Builder::new()
        .prefix("games-")
        .suffix(".in")
        .tempfile_in(ctx.workroot.path())
        .map_err(|e| super::JudgeError::Io(super::Because::of("cannot create a games file", e)))?;
    std::fs::write(file.path(), input)
        .map_err(|e| super::JudgeError::Io(super::Because::of("cannot write a games file", e)))?;
    let test = PreparedTest {
        name: name.to_string(),
        group: String::new(),
        input: file.path().to_path_buf(),
        answer: Ok(file.path().to_path_buf()),
    };
    Ok(judge_test(prepared, ctx, program, &test, game))
}

/// The seed of the judge's probing moves: the same test always sees the
/// same game, whoever is judged.
fn seed_of(name: &str, base: u64) -> u64 {
    name.bytes().fold(base ^ 0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// What happened in one connected run.
pub struct Played {
    pub outcome: RunOutcome,
    pub result: Outcome,
    pub transcript: Transcript,
    /// Moves played in the run, both sides.
    pub moves: u64,
    stopped: Option<Stopped>,
    idle_limit: Duration,
    pub stderr_head: String,
}

/// The verdict of a played run, by the rules of
/// [`crate::verdict::interactive::game`]; `Err` when the run decided.
fn verdict(
    p: &Played,
    limits: &RunLimits,
    problem_memory: Bytes,
) -> Result<(Verdict, String), Decision> {
    let stop = p.stopped.map(|s| match s {
        Stopped::Decided => Stop::Decided,
        Stopped::Idle => Stop::Idle { idle: p.idle_limit },
        Stopped::NotExited => Stop::NotExited { idle: p.idle_limit },
        Stopped::Flooded => Stop::Flooded {
            output: limits.output,
        },
    });
    let said = match &p.result {
        Outcome::Accepted => GameSaid::Accepted,
        Outcome::Wrong(why) => GameSaid::Wrong(why.clone()),
        Outcome::Unfinished(why) => GameSaid::Unfinished(why.clone()),
    };
    crate::verdict::interactive::game(stop, &said, || {
        run_verdict(
            &RunFacts::of(&p.outcome, &p.stderr_head),
            limits,
            problem_memory,
        )
    })
}

/// The failing game's last moves, for the terminal and feedback views.
fn last_moves(t: &Transcript) -> String {
    let start: Vec<String> = t.start.iter().map(u64::to_string).collect();
    let mut s = format!(
        "game {} of {}, start: {}\n",
        t.game,
        t.games,
        start.join(" ")
    );
    if let Some(c) = &t.choice {
        s.push_str(&format!(
            "you chose {c} (the winning choice was {})\n",
            t.right_choice
        ));
    }
    let skip = t.moves.len().saturating_sub(SHOWN_MOVES);
    if skip > 0 {
        s.push_str(&format!("… {skip} earlier moves\n"));
    }
    for (i, m) in t.moves.iter().enumerate().skip(skip) {
        let who = match m.by {
            Side::Judge => "judge",
            Side::Submission => "you  ",
        };
        s.push_str(&format!("{:>5}. {who} {}\n", i + 1, m.text));
    }
    s.push_str(&t.result);
    s
}

fn setup(what: &str) -> impl FnOnce(io::Error) -> sandbox::SandboxError {
    let what = what.to_string();
    move |source| sandbox::SandboxError::Setup { what, source }
}

/// A pipe whose ends are closed on exec; the judge's end is made
/// non-blocking by the caller.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: a valid array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned these descriptors; we own them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Plays one run: the submission in the sandbox on one thread, the
/// interactor on this one.
pub fn play(
    program: &Compiled,
    mut interactor: Interactor,
    limits: RunLimits,
    problem_memory: crate::problem::Bytes,
    root: &Path,
    runner: &sandbox::Runner,
) -> Result<Played, sandbox::SandboxError> {
    let dir = tempfile::Builder::new()
        .prefix("run-")
        .tempdir_in(root)
        .map_err(setup("create the run folder"))?;
    let workdir = dir.path().join("work");
    std::fs::create_dir(&workdir).map_err(setup("create the working folder"))?;
    let (their_in, our_in) = pipe().map_err(setup("create the input pipe"))?;
    let (our_out, their_out) = pipe().map_err(setup("create the output pipe"))?;
    set_nonblocking(&our_in).map_err(setup("set up the input pipe"))?;
    set_nonblocking(&our_out).map_err(setup("set up the output pipe"))?;
    let stop = Arc::new(AtomicBool::new(false));
    let spec = RunKind::Submission
        .spec(
            program.argv(problem_memory),
            &workdir,
            dir.path().join("stdout"),
            limits,
        )
        .stdin(dir.path().join("stdin"))
        .build();
    let pid: Arc<std::sync::OnceLock<libc::pid_t>> = Arc::default();
    let pipes = Pipes {
        stdin: their_in,
        stdout: their_out,
        stop: Arc::clone(&stop),
        ended: Arc::default(),
        pid: Arc::clone(&pid),
    };
    let idle_limit = limits.cpu.max(MIN_IDLE);
    let (tx, rx) = std::sync::mpsc::channel();
    let (stopped, ran) = std::thread::scope(|s| {
        let spec = &spec;
        s.spawn(move || {
            let _ = tx.send(runner.run_connected(spec, pipes));
        });
        let mut talk = Talk {
            to: Some(our_in),
            from: Some(our_out),
            pending: interactor.take_output(),
            written: 0,
            read: 0,
        };
        talk.play_out(
            &mut interactor,
            &rx,
            idle_limit,
            limits.output.0,
            (&stop, &pid),
        )
    });
    let outcome = ran?;
    let stderr_head = program.messages(&text_head(&outcome.stderr_head, STDERR_CAP));
    let result = interactor
        .outcome()
        .cloned()
        .unwrap_or(Outcome::Unfinished("the run ended".into()));
    Ok(Played {
        outcome,
        result,
        transcript: interactor.transcript().clone(),
        moves: interactor.moves(),
        stopped,
        idle_limit,
        stderr_head,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::play::Game;
    use crate::problem::Bytes;
    use crate::sandbox::{Exit, Isolation};
    use std::sync::OnceLock;
    use std::sync::atomic::Ordering;
    use std::sync::mpsc;

    fn limits() -> RunLimits {
        RunLimits {
            cpu: Duration::from_secs(2),
            wall: RunLimits::wall_for(Duration::from_secs(2)),
            memory: Bytes::mib(256),
            address_space: None,
            output: Bytes::mib(1),
        }
    }

    /// A run that exited with `code` by itself.
    fn exited(code: i32) -> RunOutcome {
        RunOutcome {
            exit: Exit::Code(code),
            cpu: Duration::from_millis(1),
            wall: Duration::from_millis(1),
            peak_memory: Bytes(0),
            output_size: Bytes(0),
            limit: None,
            crossed: Default::default(),
            stderr_head: Vec::new(),
            isolation: Isolation {
                mechanisms: Vec::new(),
            },
        }
    }

    /// The order in which the judge learns two things about one run: what
    /// it wrote, and that it ended.
    #[derive(Debug, Clone, Copy)]
    enum Seen {
        /// Its lines are read while it still runs; its end comes after the
        /// judge stopped it.
        OutputFirst,
        /// Its end is known before the judge read a byte (a scheduler that
        /// ran the judge's thread late).
        EndFirst,
    }

    /// Plays a one-game Nim run whose submission wrote `wrote` and then
    /// exited with `code`, the judge learning of the two in the order
    /// `seen`; the verdict as the judge gives it.
    fn verdict_of(wrote: &[u8], code: i32, seen: Seen) -> (Option<Stopped>, Verdict, String) {
        let (their_in, our_in) = pipe().expect("input pipe");
        let (our_out, their_out) = pipe().expect("output pipe");
        set_nonblocking(&our_in).expect("non-blocking");
        set_nonblocking(&our_out).expect("non-blocking");
        // One pile of 3: `first`, then `1 0` wins at once.
        let mut interactor = Interactor::new(Game::Nim, vec![vec![3]], 7);
        let mut talk = Talk {
            to: Some(our_in),
            from: Some(our_out),
            pending: interactor.take_output(),
            written: 0,
            read: 0,
        };
        // The submission: its lines, then its end (its stdout closed).
        let mut out = std::fs::File::from(their_out);
        std::io::Write::write_all(&mut out, wrote).expect("write the submission's lines");
        drop(out);
        let (tx, rx) = mpsc::channel();
        let stop = AtomicBool::new(false);
        let pid = OnceLock::new();
        let (why, ran) = std::thread::scope(|s| {
            match seen {
                Seen::EndFirst => tx.send(Ok(exited(code))).expect("send"),
                Seen::OutputFirst => {
                    let stop = &stop;
                    s.spawn(move || {
                        // The run ends only once the judge has stopped it.
                        while !stop.load(Ordering::SeqCst) {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        let _ = tx.send(Ok(exited(code)));
                    });
                }
            }
            talk.play_out(
                &mut interactor,
                &rx,
                Duration::from_secs(600),
                Bytes::mib(1).0,
                (&stop, &pid),
            )
        });
        drop(their_in);
        let played = Played {
            outcome: ran.expect("the run's result"),
            result: interactor.outcome().cloned().expect("decided"),
            transcript: interactor.transcript().clone(),
            moves: interactor.moves(),
            stopped: why,
            idle_limit: Duration::from_secs(600),
            stderr_head: String::new(),
        };
        let (v, message) = match verdict(&played, &limits(), Bytes(0)) {
            Ok(v) => v,
            Err(d) => (d.verdict, format!("decided by the run: {:?}", d.reason)),
        };
        (why, v, message)
    }

    /// An illegal line followed by a crash is `WA` (docs/reference.md: "whatever the
    /// submission does next") whether the judge reads the line before it
    /// sees the crash or after.
    #[test]
    fn a_line_that_decides_the_game_wins_over_the_end_however_it_is_seen() {
        for seen in [Seen::OutputFirst, Seen::EndFirst] {
            let (why, v, message) = verdict_of(b"garbage\n", 134, seen);
            assert_eq!(why, Some(Stopped::Decided), "{seen:?}");
            assert_eq!(v, Verdict::WA, "{seen:?}: {message}");
            assert!(
                message.contains("`first` or `second`"),
                "{seen:?}: {message}"
            );
        }
    }

    /// Output after the last game is `WA` both ways too, and a run that
    /// wins and exits 0 is `AC`.
    #[test]
    fn after_the_last_game_the_order_seen_changes_nothing() {
        for seen in [Seen::OutputFirst, Seen::EndFirst] {
            let (_, v, message) = verdict_of(b"first\n1 0\nextra\n", 0, seen);
            assert_eq!(v, Verdict::WA, "{seen:?}: {message}");
            assert!(message.contains("after the last game"), "{message}");
        }
        let (why, v, message) = verdict_of(b"first\n1 0\n", 0, Seen::EndFirst);
        assert_eq!((why, v), (None, Verdict::AC), "{message}");
    }

    /// After the last game the player's input ends: a player that reads
    /// until the end of its input (and would wait for ever on an open
    /// pipe) then exits, and is `AC`.
    #[test]
    fn after_the_last_game_the_input_is_closed() {
        let (their_in, our_in) = pipe().expect("input pipe");
        let (our_out, their_out) = pipe().expect("output pipe");
        set_nonblocking(&our_in).expect("non-blocking");
        set_nonblocking(&our_out).expect("non-blocking");
        let mut interactor = Interactor::new(Game::Nim, vec![vec![3]], 7);
        let mut talk = Talk {
            to: Some(our_in),
            from: Some(our_out),
            pending: interactor.take_output(),
            written: 0,
            read: 0,
        };
        let (tx, rx) = mpsc::channel();
        let stop = AtomicBool::new(false);
        let pid = OnceLock::new();
        let idle = Duration::from_secs(5);
        let (why, ran) = std::thread::scope(|s| {
            let stop = &stop;
            s.spawn(move || {
                // The player: wins the one game, then reads until its
                // input ends, and exits 0; or is stopped by the judge.
                let mut out = std::fs::File::from(their_out);
                std::io::Write::write_all(&mut out, b"first\n1 0\n").expect("write");
                let mut input = std::fs::File::from(their_in);
                set_nonblocking_file(&input);
                let mut buf = [0u8; 256];
                loop {
                    match std::io::Read::read(&mut input, &mut buf) {
                        Ok(0) => break,
                        Ok(_) => continue,
                        Err(_) if stop.load(Ordering::SeqCst) => {
                            let _ = tx.send(Ok(exited(137)));
                            return;
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
                drop(out);
                let _ = tx.send(Ok(exited(0)));
            });
            talk.play_out(&mut interactor, &rx, idle, Bytes::mib(1).0, (stop, &pid))
        });
        let played = Played {
            outcome: ran.expect("the run's result"),
            result: interactor.outcome().cloned().expect("decided"),
            transcript: interactor.transcript().clone(),
            moves: interactor.moves(),
            stopped: why,
            idle_limit: idle,
            stderr_head: String::new(),
        };
        let (v, message) = verdict(&played, &limits(), Bytes(0)).expect("no limit crossed");
        assert_eq!((why, v), (None, Verdict::AC), "{message}");
    }

    /// A player that has won every game and does not exit is told so.
    #[test]
    fn a_player_that_won_and_did_not_exit_is_told_so() {
        let mut interactor = Interactor::new(Game::Nim, vec![vec![3]], 7);
        interactor.feed(b"first\n1 0\n");
        assert!(interactor.all_games_won());
        interactor.stop("stopped: all games were won; the program did not exit");
        let played = Played {
            outcome: exited(137),
            result: interactor.outcome().cloned().expect("decided"),
            transcript: interactor.transcript().clone(),
            moves: interactor.moves(),
            stopped: Some(Stopped::NotExited),
            idle_limit: Duration::from_secs(3),
            stderr_head: String::new(),
        };
        let (v, message) = verdict(&played, &limits(), Bytes(0)).expect("decided by the judge");
        assert_eq!(v, Verdict::TLE);
        assert!(
            message.starts_with("all games were won; the program did not exit"),
            "{message}"
        );
    }

    fn set_nonblocking_file(f: &std::fs::File) {
        // SAFETY: fcntl on a descriptor the file owns.
        unsafe {
            let flags = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
            assert!(libc::fcntl(f.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) == 0);
        }
    }
}
