#!/usr/bin/env bash
# Runs every test of the project: installs the external oracles (NVIDIA nvdisasm/ptxas,
# Intel GenX_IR) into .cache/tools, runs the workspace's cargo tests, then the filetests
# through the `atomc` binary. Both test stages always run; the script fails if either
# failed. The last line is the filetest runner's `N passed, N failed`.
#
#   ATOMC_SKIP_TOOLS=1   do not run scripts/install-tools.sh (tests that need a tool then
#                        print SKIPPED, or fail when CI is set)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ "${ATOMC_SKIP_TOOLS:-0}" != "1" ]]; then
    bash scripts/install-tools.sh
fi
status=0
cargo test --workspace --no-fail-fast || status=1
# The debug binary: `cargo test` has just built everything it needs.
cargo run --quiet -- test filetests/filetests examples || status=1
exit "$status"
