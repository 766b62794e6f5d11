//! The inputs `stress` tries, round by round: small versions of the spec's
//! generated entries first, then the spec itself, then fresh seeds.

use crate::generate::Rng;
use crate::judge::{self, Context, JudgeError};
use crate::problem::{Problem, TestSource};

/// The inputs of round `round` of a search: tiny and small versions of the
/// spec's generated entries first (a small counterexample needs little
/// shrinking), then the spec itself, then fresh seeds from `seed` at the
/// three sizes in turn. Public so that `mutants` samples inputs the same way.
pub fn round_inputs(
    problem: &Problem,
    ctx: &Context,
    round: u64,
    seed: u64,
) -> Result<Vec<String>, JudgeError> {
    let (size, seed) = match round {
        0 => (Some(3), problem.seed),
        1 => (Some(10), problem.seed),
        2 => (None, problem.seed),
        r => (
            [Some(3), Some(10), None][(r as usize - 3) % 3],
            seed.wrapping_add(r - 3),
        ),
    };
    let generated: Vec<Vec<u8>> = match size {
        Some(cap) => scaled_inputs(problem, cap, seed),
        None => {
            let mut p = problem.clone();
            p.seed = seed;
            judge::cases(&p, ctx)?
                .into_iter()
                .map(|c| c.input)
                .collect()
        }
    };
    Ok(generated
        .into_iter()
        .filter_map(|i| String::from_utf8(i).ok())
        .collect())
}

/// The generator knobs that set how big an input is (counts of piles,
/// lines, cases): the catalog's families all name them so.
const SIZE_KNOBS: [&str; 6] = ["n", "lines", "cases", "t", "c", "m"];

/// Inputs from every generated entry of the spec with its size knobs
/// capped at `cap` (a knob the entry leaves at its default is added where
/// the family takes it); a test the family cannot build so is skipped.
fn scaled_inputs(problem: &Problem, cap: u64, seed: u64) -> Vec<Vec<u8>> {
    let families = problem.families();
    let mut out = Vec::new();
    for group in &problem.groups {
        for (e, test) in group.tests.iter().enumerate() {
            let TestSource::Generated {
                family,
                params,
                count,
                ..
            } = test
            else {
                continue;
            };
            if !families.has(family) {
                continue;
            }
            let generate = |params: &crate::generate::Params, rng: &mut Rng| {
                families
                    .generate(family, params, rng)
                    .unwrap_or_else(|| Err(crate::generate::GenError::Missing(family.clone())))
            };
            let mut params = params.clone();
            let mut too_big = false;
            for knob in SIZE_KNOBS {
                let Ok((lo, hi)) = params.range_or(knob, (1, cap)) else {
                    continue;
                };
                let mut changed = params.clone();
                let value =
                    serde_yaml::Value::Sequence(vec![lo.min(cap).into(), hi.min(cap).into()]);
                changed.0.insert(knob.to_string(), value);
                let works = (0..4).any(|s| generate(&changed, &mut Rng::new(seed ^ s)).is_ok());
                if works {
                    params = changed;
                } else if params.0.contains_key(knob) {
                    // The entry cannot be made this small: leave it to bigger rounds.
                    too_big = true;
                }
            }
            if too_big {
                continue;
            }
            for k in 0..*count {
                let mut rng = Rng::derive(seed, &format!("stress/{}/{e}/{k}/{cap}", group.name));
                if let Ok(text) = generate(&params, &mut rng) {
                    out.push(text.into_bytes());
                }
            }
        }
    }
    out
}
