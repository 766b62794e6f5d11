#!/usr/bin/env bash
# Per-run wall time of a trivial C program with the sandbox on and off,
# interleaved in one process so both modes see the same machine load.
#
#   bench/sandbox.sh [RUNS]        (default 1000)
#
# Run it as root to measure the root mechanisms (run uid, mount view,
# cgroups) and as an ordinary user for the user-namespace ones.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf 'int main(void) { return 0; }\n' > "$work/true.c"
gcc -O2 -o "$work/true" "$work/true.c"
chmod 755 "$work" "$work/true"
cargo build --release --quiet --example sandbox_bench
"$(bash bench/release_dir.sh)/examples/sandbox_bench" "$work/true" "$runs"
