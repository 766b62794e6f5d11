#!/usr/bin/env bash
# Load on `grundy serve`, loopback only, bounded in time and count:
# simulated teams (300 by default) each hold the live event stream open,
# read the scoreboard and their page every 10 s, and submit 10 times over
# 5 minutes (accepted, wrong and too slow programs of the catalog's `nim`),
# judged with --jobs 2. Prints p50/p99 of the scoreboard, the team page and
# the submit POST, submission-to-verdict (also with an empty queue), the
# server's CPU (also by part: web side, judging, password checks) and
# memory, whether every submission was stored and judged once; then the
# same load with judging paused. --paused-only: that phase alone (the web
# side by itself; the server's pid is printed, to profile it).
#
# usage: bench/serve_load.sh [--teams N] [--submissions K] [--minutes M]
#                            [--jobs J] [--page-every S] [--drain S]
#                            [--no-paused | --paused-only] [--keep-db FILE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release --quiet --bin grundy --bin grundy-serve
exec python3 bench/serve_load.py --grundy "$(bash bench/release_dir.sh)/grundy" \
    --problems "$root/problems" "$@"
