#!/usr/bin/env bash
# Every case of every suite: the README's test command (scripts/test.sh) with
# ATOMC_TEST_FULL=1, so that the suites it samples (ptxas's code as evidence, emulator
# mutations, register caps, random schedules) run on every kernel. Closing notes quote
# this command's figures; CI runs the sampled one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ATOMC_TEST_FULL=1 exec scripts/test.sh "$@"
