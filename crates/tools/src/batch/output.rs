//! Writing the output folder: the plan, and the file names of the reports
//! a finished class gets (written by `report::Files`, a consumer of the
//! run's events).
//!
//! Every file is written to a temporary name and renamed into place, so an
//! interrupt while writing leaves the previous version or the new one,
//! never half a file.

use std::io::{self, Write};
use std::path::Path;

use super::BatchError;
use super::model::Plan;
use crate::judge::Because;

pub const PLAN_FILE: &str = "plan.json";
pub const REPORT_JSON: &str = "report.json";
pub const GRADES_CSV: &str = "grades.csv";
pub const JUNIT_XML: &str = "junit.xml";
pub const REPORT_HTML: &str = "report.html";
pub const FEEDBACK_DIR: &str = "feedback";

/// Writes `bytes` to `path` through a temporary file in the same folder.
/// The file gets the mode any tool's new file gets (0666 less the umask),
/// not a temporary file's private 0600: reports are published as they are.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn internal(path: &Path) -> impl Fn(io::Error) -> BatchError + '_ {
    move |e| BatchError::Internal(Because::of(format!("cannot write {}", path.display()), e))
}

pub fn write_plan(out: &Path, plan: &Plan) -> Result<(), BatchError> {
    let path = out.join(PLAN_FILE);
    let text =
        serde_json::to_vec_pretty(plan).map_err(|e| BatchError::Internal(Because::cause(e)))?;
    atomic_write(&path, &text).map_err(internal(&path))
}

/// Reads `OUT/plan.json`; `None` when there is none.
pub fn read_plan(out: &Path) -> Result<Option<Plan>, BatchError> {
    let path = out.join(PLAN_FILE);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(BatchError::Usage(Because::of(
                format!("{}: cannot read", path.display()),
                e,
            )));
        }
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        BatchError::Usage(Because::new(format!(
            "{}:{}:{}: not a grundy plan ({e}); was this folder written by grundy grade?",
            path.display(),
            e.line(),
            e.column()
        )))
    })
}
