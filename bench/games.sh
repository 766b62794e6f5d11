#!/usr/bin/env bash
# Figures for the games described in YAML (`game:`), one line per problem:
# the time to read the description and derive one heap's values with their
# proven period ("values"), to derive the oracle's small cases ("oracle"),
# to generate every test and derive its answer ("tests"); then, on one
# input of 10^5 heaps of up to 10^18 tokens, the time grundy takes to
# answer it from the description beside the wall time of the problem's
# accepted C++ and Python programs on the same input (each checked to give
# the same answer). The figures live here, not in the tests: they depend
# on the machine and its load.
#
#   bash bench/games.sh [PROBLEM...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -q --example games_bench -- "$@"
