#!/usr/bin/env bash
# Takes the screenshots of docs/serve.md again: the browser test of
# `grundy serve` (tests/serve_browser.rs) writes each page it checks here.
set -euo pipefail
cd "$(dirname "$0")/../.."
GRUNDY_SCREENSHOTS=docs/serve cargo test --release --test serve_browser
