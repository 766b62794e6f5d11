//! A package whose tests `generators/generators.yaml` describes.

use std::path::Path;

use super::constants::Constants;
use super::generators::{self, Plan};
use super::schema::RawTestdata;
use super::testdata::{self, SecretGroup};
use crate::problem::{Group, Sample, SpecError, TestSource};

pub const FILE: &str = "generators/generators.yaml";

/// The plan of the package in `dir`, when it has a `generators.yaml`:
/// then it, not `data/`, says what the tests are (BAPCtools: every
/// test under `data/` is made by it).
pub fn read(
    dir: &Path,
    constants: &Constants,
    notes: &mut Vec<String>,
) -> Result<Option<Plan>, SpecError> {
    let path = dir.join(FILE);
    if !path.is_file() {
        return Ok(None);
    }
    // Tests already generated (and committed) are the tests: the file
    // is then the record of how they were made. It makes them when
    // `data/secret/` has none, as BAPCtools' own packages ship.
    let made = walkdir::WalkDir::new(dir.join("data").join("secret"))
        .into_iter()
        .filter_map(Result::ok)
        .any(|e| e.path().extension().is_some_and(|x| x == "in"));
    if made {
        notes.push(format!(
            "{FILE}: not run; the tests are the .in/.ans files under data/"
        ));
        return Ok(None);
    }
    let text = crate::problem::file::read_text(&path).map_err(|source| SpecError::Read {
        path: path.clone(),
        source,
    })?;
    crate::yaml::check(&path, &text).map_err(crate::problem::yaml::located)?;
    let mut plan = generators::plan(&text, constants).map_err(|e| SpecError::Refused {
        path: path.clone(),
        source: e.into(),
    })?;
    // `copy:` takes the answer too when there is one; else the
    // solution writes it.
    let all = plan
        .samples
        .iter_mut()
        .chain(plan.secret.iter_mut().flat_map(|(_, t)| t.iter_mut()));
    for t in all {
        if let TestSource::File { answer, .. } = t
            && answer.as_ref().is_some_and(|a| !dir.join(a).is_file())
        {
            *answer = None;
        }
    }
    // A command whose program grundy cannot build is skipped, said,
    // before judging: the rest of the tests are made.
    let mut skipped = Vec::new();
    let runnable = |t: &TestSource, skipped: &mut Vec<String>| {
        let TestSource::Command { program, args } = t else {
            return true;
        };
        let shown = format!("{} {}", program.display(), args.join(" "));
        match generator_problem(&dir.join(program)) {
            None => true,
            Some(why) => {
                skipped.push(format!("generators.yaml: `{shown}`: skipped: {why}"));
                false
            }
        }
    };
    plan.samples.retain(|t| runnable(t, &mut skipped));
    for (_, tests) in &mut plan.secret {
        tests.retain(|t| runnable(t, &mut skipped));
    }
    plan.secret.retain(|(_, t)| !t.is_empty());
    notes.push("data/: made from generators/generators.yaml when judged (the files under data/ are not read)".into());
    notes.append(&mut skipped);
    notes.append(&mut plan.notes);
    Ok(Some(plan))
}

/// Why the generator at `path` cannot be run here, if it cannot.
fn generator_problem(path: &Path) -> Option<String> {
    if path.is_file() {
        return (!super::validators::has_source_extension(path))
            .then(|| "not a source file in one of grundy's languages".to_string());
    }
    if crate::language::is_scripted(path) {
        return None;
    }
    if path.is_dir() {
        let entries = super::validators::visible_entries(path).unwrap_or_default();
        let sources = entries
            .iter()
            .any(|e| e.is_file() && super::validators::has_source_extension(e));
        return (!sources)
            .then(|| "a folder built and run by its `build`/`run` scripts (not run)".to_string());
    }
    Some("no such program in generators/".into())
}

/// The secret groups, and the output validator arguments in force for
/// them (inherited down the inline settings; one setting per problem).
pub fn secret(
    plan: &Plan,
    spec: &Path,
    notes: &mut Vec<String>,
) -> Result<(Vec<SecretGroup>, Vec<String>), SpecError> {
    let dir = spec.parent().unwrap_or(Path::new("."));
    let mut groups = Vec::new();
    let mut chosen: Option<(Vec<String>, String)> = None;
    for (folder, tests) in &plan.secret {
        let settings = settings_for(plan, folder);
        let args = testdata::validator_args(&settings).map_err(|e| SpecError::Invalid {
            path: dir.join(FILE),
            message: format!("data/{folder}: {e}"),
        })?;
        match &chosen {
            None => chosen = Some((args, folder.clone())),
            Some((first, other)) if *first != args => {
                notes.push(format!(
                    "data/{folder}/: skipped: its output validator arguments `{}` differ from those of data/{other}/ (`{}`), and grundy judges a problem with one validator setting",
                    args.join(" "),
                    first.join(" ")
                ));
                continue;
            }
            Some(_) => {}
        }
        let problem_args = chosen.as_ref().map(|c| c.0.clone()).unwrap_or_default();
        let mut tests = tests.clone();
        retain_cases(plan, folder, &mut tests, &settings, &problem_args, notes).map_err(
            |(case, e)| SpecError::Invalid {
                path: dir.join(FILE),
                message: format!("{case}: {e}"),
            },
        )?;
        if tests.is_empty() {
            continue;
        }
        let rel = folder
            .strip_prefix("secret")
            .unwrap_or(folder)
            .trim_start_matches('/');
        let name = if rel.is_empty() {
            testdata::SECRET_GROUP.to_string()
        } else {
            testdata::group_name(Path::new(rel))
        };
        groups.push(SecretGroup {
            group: Group {
                name,
                points: 1.0,
                tests,
            },
            folder: dir.join("data").join(folder),
        });
    }
    Ok((groups, chosen.map(|(a, _)| a).unwrap_or_default()))
}

/// Keeps the tests of `folder` that its test cases' own `yaml:` lets
/// grundy judge with `problem_args` (see `test_yaml`); notes the rest.
fn retain_cases(
    plan: &Plan,
    folder: &str,
    tests: &mut Vec<TestSource>,
    settings: &RawTestdata,
    problem_args: &[String],
    notes: &mut Vec<String>,
) -> Result<(), (String, testdata::ValidatorArgsError)> {
    let mut kept = Vec::with_capacity(tests.len());
    for t in tests.drain(..) {
        if let Some(c) = plan
            .cases
            .iter()
            .find(|c| c.folder == folder && c.test == t)
        {
            let shown = format!("generators.yaml: data/{}", c.name);
            if let Some(why) =
                super::test_yaml::skip_reason(&c.settings, settings, problem_args, &shown, notes)
                    .map_err(|e| (shown.clone(), e))?
            {
                notes.push(format!("{shown}: skipped: {why}"));
                continue;
            }
        }
        kept.push(t);
    }
    *tests = kept;
    Ok(())
}

/// A test's settings: those in force in its folder, overridden by its
/// own `yaml:`. `test` is found in the plan by what it is.
pub fn test_settings(plan: &Plan, test: &TestSource) -> Option<RawTestdata> {
    if let Some(c) = plan.cases.iter().find(|c| c.test == *test) {
        return Some(testdata::merge(
            settings_for(plan, &c.folder),
            c.settings.clone(),
        ));
    }
    let folder = if plan.samples.contains(test) {
        "sample".to_string()
    } else {
        plan.secret
            .iter()
            .find(|(_, tests)| tests.contains(test))
            .map(|(f, _)| f.clone())?
    };
    Some(settings_for(plan, &folder))
}

/// The settings in force in `folder` (see [`Plan::settings_for`]).
pub fn settings_for(plan: &Plan, folder: &str) -> RawTestdata {
    plan.settings_for(folder)
}

/// The samples as text when every one is given as text or files with
/// their answers; else they become a group `sample` worth nothing, made
/// and answered when judged like the secret tests.
pub fn samples(dir: &Path, plan: &Plan) -> (Vec<Sample>, Option<Group>) {
    let text: Option<Vec<Sample>> = plan
        .samples
        .iter()
        .map(|t| match t {
            TestSource::Inline {
                input,
                answer: Some(output),
            } => Some(Sample {
                input: input.clone(),
                output: output.clone(),
            }),
            TestSource::File {
                input,
                answer: Some(answer),
            } => Some(Sample {
                input: crate::problem::file::read_text(&dir.join(input)).ok()?,
                output: crate::problem::file::read_text(&dir.join(answer)).ok()?,
            }),
            _ => None,
        })
        .collect();
    match text {
        Some(samples) => (samples, None),
        None => (
            Vec::new(),
            Some(Group {
                name: crate::generate::SAMPLE_GROUP.into(),
                points: 0.0,
                tests: plan.samples.clone(),
            }),
        ),
    }
}
