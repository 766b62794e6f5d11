#!/bin/sh
# The example packages of problemtools and BAPCtools, judged by `grundy
# verify`: one line per package with the known submissions judged as
# expected out of those judged (skipped ones, e.g. "no toolchain", are not
# counted), and the ones that were not.
#
#   bench/icpc_examples.sh PROBLEMTOOLS_CHECKOUT BAPCTOOLS_CHECKOUT [GRUNDY]
#
# Use whole checkouts: BAPCtools' packages link `validation.h` into
# bapctools/resources/headers/, outside the package, which grundy refuses;
# each package is verified from a copy with its links replaced by the
# files they name (cp -L).
set -eu
pt=$1
bt=$2
grundy=${3:-$(bash "$(dirname "$0")/release_dir.sh")/grundy}
cache=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$cache" "$work"' EXIT
for pkg in "$pt"/examples/*/ "$bt"/test/problems/*/; do
    [ -f "$pkg/problem.yaml" ] || continue
    copy="$work/$(basename "$pkg")"
    rm -rf "$copy"
    cp -RL "${pkg%/}" "$copy"
    "$grundy" verify "$copy" --cache "$cache" --json 2>/dev/null |
        python3 -c '
import json, sys
name = sys.argv[1]
try:
    report = json.load(sys.stdin)
except ValueError:
    print(f"{name:40} not verified (no report)")
    sys.exit()
for p in report["problems"]:
    judged = [k for k in p.get("known", []) if not k.get("skipped")]
    good = sum(1 for k in judged if k["ok"])
    bad = ", ".join(
        "%s (%s got %s)" % (k["path"].split("/submissions/")[-1], k["expected"], k["got"])
        for k in judged if not k["ok"]
    )
    print(f"{name:40} {good}/{len(judged)}  {bad}")
' "$(basename "$(dirname "$pkg")")/$(basename "$pkg")" || true
done
