//! `grundy cache show|clear`: where the compile cache is, what it holds,
//! and emptying it. The logic is in `grundy::cache`.

use std::collections::BTreeMap;

use anyhow::anyhow;
use grundy::cache::{Cache, Policy};
use grundy::units::Bytes;

use super::Global;
use super::exit::{Failure, usage};
use super::out::outln;

#[derive(clap::Subcommand)]
pub enum CacheCommand {
    /// Location, limits, entries and size of the cache
    Show {
        /// Print a JSON object instead
        #[arg(long)]
        json: bool,
    },
    /// Remove every entry (refused while another grundy uses the cache)
    Clear,
}

pub fn run(g: &Global, command: &CacheCommand) -> Result<u8, Failure> {
    let root = g.cache.clone().unwrap_or_else(Cache::default_location);
    let policy = Policy::from_env().map_err(|e| usage(anyhow!(e)))?;
    match command {
        CacheCommand::Show { json } => {
            let entries = Cache::entries(&root).map_err(super::cache_failure)?;
            let mut kinds: BTreeMap<&str, (usize, u64)> = BTreeMap::new();
            for e in &entries {
                let k = kinds.entry(e.kind.as_str()).or_default();
                k.0 += 1;
                k.1 += e.size;
            }
            let total: u64 = entries.iter().map(|e| e.size).sum();
            let days = policy.max_age.as_secs() / 86_400;
            if *json {
                let kinds: serde_json::Map<_, _> = kinds
                    .iter()
                    .map(|(k, (n, b))| {
                        (k.to_string(), serde_json::json!({"entries": n, "bytes": b}))
                    })
                    .collect();
                let v = serde_json::json!({
                    "location": root.display().to_string(),
                    "entries": entries.len(),
                    "bytes": total,
                    "max_bytes": policy.max_size.0,
                    "max_age_days": days,
                    "kinds": kinds,
                });
                outln!("{v:#}");
            } else {
                outln!("location  {}", root.display());
                outln!(
                    "limits    {} (GRUNDY_CACHE_MAX_SIZE), {days} days unused (GRUNDY_CACHE_MAX_AGE)",
                    policy.max_size
                );
                outln!("entries   {} ({})", entries.len(), Bytes(total).human());
                // Kinds in a column as wide as the longest (`timelimits`).
                let w = kinds.keys().map(|k| k.len()).max().unwrap_or(0);
                for (k, (n, b)) in &kinds {
                    outln!("  {k:<w$}  {n} ({})", Bytes(*b).human());
                }
            }
            Ok(0)
        }
        CacheCommand::Clear => match Cache::clear(&root) {
            Ok(t) => {
                outln!(
                    "removed {} entries ({}) from {}",
                    t.entries,
                    Bytes(t.bytes).human(),
                    root.display()
                );
                Ok(0)
            }
            Err(e) => Err(super::cache_failure(e)),
        },
    }
}
