//! A run's limits by name, and which of them a run crossed: the words the
//! sandbox reports in and verdicts are decided from. They live below both
//! so that the sandbox knows nothing of verdicts.

/// One of a run's limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    Cpu,
    Wall,
    Memory,
    Output,
}

/// Which limits the run crossed: every one of them, not a ranking. The
/// sandbox fills it from what it measured and enforced; [`Crossed::first`]
/// is the order verdicts rank them in (`verdict::decide::run_verdict`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Crossed {
    pub cpu: bool,
    pub wall: bool,
    /// Peak memory over the limit, or the run's memory group full.
    pub memory: bool,
    pub output: bool,
}

impl Crossed {
    /// Marks `limit` as crossed.
    pub fn mark(&mut self, limit: LimitHit) {
        match limit {
            LimitHit::Cpu => self.cpu = true,
            LimitHit::Wall => self.wall = true,
            LimitHit::Memory => self.memory = true,
            LimitHit::Output => self.output = true,
        }
    }

    /// Whether any limit was crossed.
    pub fn any(&self) -> bool {
        self.cpu || self.wall || self.memory || self.output
    }

    /// The limit a run is judged by when it crossed several: the order of
    /// the verdicts (MLE, TLE, OLE), CPU before wall. Messages about
    /// trusted programs (a reference, a compiler, a validator) name this one.
    pub fn first(&self) -> Option<LimitHit> {
        [
            (self.memory, LimitHit::Memory),
            (self.cpu, LimitHit::Cpu),
            (self.wall, LimitHit::Wall),
            (self.output, LimitHit::Output),
        ]
        .into_iter()
        .find_map(|(crossed, limit)| crossed.then_some(limit))
    }
}
