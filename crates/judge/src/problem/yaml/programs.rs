//! The programs `problem.yaml` names as its `checker:` and `interactor:`:
//! a bare name or a one-key map, read by hand (serde_yaml's enums do not
//! read them) and checked where they are written.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};

use super::Refusal;
use crate::problem::CheckerSpec;

/// `interactor:` names a built-in game interactor (`nim-play`), or a
/// program: a path (an ICPC-style interactor), `{icpc: PROGRAM}`,
/// `{icpc: {program, args}}` or `{testlib: PROGRAM}`. Checked where it is
/// written.
#[derive(Debug, Deserialize)]
#[serde(try_from = "serde_yaml::Value")]
pub(super) struct RawInteractor(pub(super) crate::problem::InteractorSpec);

pub(super) const INTERACTOR_HELP: &str =
    "a built-in interactor name, a program path, {icpc: PROGRAM} or {testlib: PROGRAM}";

impl TryFrom<serde_yaml::Value> for RawInteractor {
    type Error = Refusal;
    fn try_from(v: serde_yaml::Value) -> Result<Self, Refusal> {
        use crate::problem::InteractorSpec;
        match v {
            serde_yaml::Value::String(s) => {
                if crate::games::play::Game::from_name(&s).is_some() {
                    return Ok(RawInteractor(InteractorSpec::Builtin(s)));
                }
                // A program is a file name with an extension; a bare word
                // is a misspelt built-in name.
                if Path::new(&s).extension().is_some() {
                    return Ok(RawInteractor(InteractorSpec::Icpc {
                        program: PathBuf::from(s),
                        args: Vec::new(),
                    }));
                }
                Err(Refusal::UnknownInteractor { name: s })
            }
            serde_yaml::Value::Mapping(m) if m.len() == 1 => {
                let Some((k, v)) = m.into_iter().next() else {
                    return Err(Refusal::InteractorShape);
                };
                match k.as_str() {
                    Some("icpc") => match icpc_checker(v)? {
                        CheckerSpec::Icpc { program, args } => {
                            Ok(RawInteractor(InteractorSpec::Icpc { program, args }))
                        }
                        _ => Err(Refusal::InteractorShape),
                    },
                    Some("testlib") => match v.as_str() {
                        Some(p) => Ok(RawInteractor(InteractorSpec::Testlib(PathBuf::from(p)))),
                        None => Err(Refusal::TestlibInteractor),
                    },
                    _ => Err(Refusal::InteractorKind {
                        kind: k.as_str().unwrap_or("?").to_string(),
                    }),
                }
            }
            _ => Err(Refusal::InteractorShape),
        }
    }
}

/// `checker:` is either a bare name (`tokens`, `exact`) or a one-key map
/// (`{game: nim-winning-move}`), which serde_yaml's enum support does not
/// read, hence the hand-written visitor.
#[derive(Debug, Default)]
pub(super) struct RawChecker(pub(super) CheckerSpec);

const CHECKER_HELP: &str = "`tokens`, `exact`, or one of {float: {abs, rel}}, {game: NAME}, {testlib: PROGRAM}, {icpc: PROGRAM}";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFloat {
    #[serde(default)]
    abs: f64,
    #[serde(default)]
    rel: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIcpcFull {
    program: PathBuf,
    #[serde(default)]
    args: Vec<String>,
}

struct CheckerVisitor;

impl<'de> Visitor<'de> for CheckerVisitor {
    type Value = RawChecker;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(CHECKER_HELP)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<RawChecker, E> {
        match v {
            "tokens" => Ok(RawChecker(CheckerSpec::Tokens)),
            "exact" => Ok(RawChecker(CheckerSpec::Exact)),
            _ => Err(E::custom(format!(
                "unknown checker `{v}`, expected {CHECKER_HELP}"
            ))),
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawChecker, A::Error> {
        let Some(key) = map.next_key::<String>()? else {
            return Err(de::Error::custom(format!(
                "empty checker, expected {CHECKER_HELP}"
            )));
        };
        let spec = match key.as_str() {
            "float" => {
                let f: RawFloat = map.next_value()?;
                if !(f.abs >= 0.0 && f.rel >= 0.0 && (f.abs > 0.0 || f.rel > 0.0)) {
                    return Err(de::Error::custom(
                        "float checker: give `abs` and/or `rel` as non-negative tolerances, at least one above 0",
                    ));
                }
                CheckerSpec::Float {
                    abs: f.abs,
                    rel: f.rel,
                }
            }
            "game" => CheckerSpec::Game(map.next_value()?),
            "testlib" => CheckerSpec::Testlib(map.next_value()?),
            "icpc" => {
                let v: serde_yaml::Value = map.next_value()?;
                icpc_checker(v).map_err(de::Error::custom)?
            }
            other => {
                return Err(de::Error::custom(format!(
                    "unknown checker kind `{other}`, expected {CHECKER_HELP}"
                )));
            }
        };
        if map.next_key::<String>()?.is_some() {
            return Err(de::Error::custom("a checker map has exactly one key"));
        }
        Ok(RawChecker(spec))
    }
}

pub(super) fn icpc_checker(v: serde_yaml::Value) -> Result<CheckerSpec, Refusal> {
    if let Some(p) = v.as_str() {
        return Ok(CheckerSpec::Icpc {
            program: PathBuf::from(p),
            args: Vec::new(),
        });
    }
    let full: RawIcpcFull =
        serde_yaml::from_value(v).map_err(|source| Refusal::IcpcChecker { source })?;
    Ok(CheckerSpec::Icpc {
        program: full.program,
        args: full.args,
    })
}

impl<'de> Deserialize<'de> for RawChecker {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckerVisitor)
    }
}
