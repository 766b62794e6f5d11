#!/usr/bin/env bash
# Prints the folder `cargo build --release` puts the executables in:
# `target/<this machine's target>/release` (.cargo/config.toml names the
# target, so that `grundy` can be linked statically).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
host=$(rustc -vV | sed -n 's/^host: //p')
echo "$root/target/$host/release"
