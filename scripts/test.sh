#!/usr/bin/env bash
# Runs every test of the project: installs the external oracles (NVIDIA nvdisasm/ptxas,
# Intel GenX_IR) into .cache/tools, runs the workspace's cargo tests, then the filetests
# through the `atomc` binary. The last line is the filetest runner's `N passed, N failed`.
#
#   ATOMC_SKIP_TOOLS=1   do not run scripts/install-tools.sh (tests that need a tool then
#                        print SKIPPED, or fail when CI is set)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ "${ATOMC_SKIP_TOOLS:-0}" != "1" ]]; then
    bash scripts/install-tools.sh
fi
cargo test --workspace
cargo run --release --quiet -- test filetests
