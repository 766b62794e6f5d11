#!/usr/bin/env bash
# Prints the folder `cargo build --release` puts the executables in:
# `target/<this machine's target>/release` (.cargo/config.toml names the
# target, so that `grundy` can be linked statically), under the folder
# given (the repository by default).
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
host=$(rustc -vV | sed -n 's/^host: //p')
echo "$root/target/$host/release"
