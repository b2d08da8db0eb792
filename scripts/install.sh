#!/usr/bin/env bash
# Builds the shipped `atomc` binary and installs it as PREFIX/bin/atomc (PREFIX defaults to
# .cache in the repository; set PREFIX=$HOME/.local or similar to install elsewhere).
#
# The binary is the release profile (no debug info, stripped, thin LTO) linked statically and
# not position-independent: no dynamic loader and no relocations at start-up, so a small kernel's
# whole-process compile is mostly compile work (docs/bench.md, "Start-up"). The target triple is
# named explicitly so the static flags reach only the binary, never build scripts or proc macros.
# Without a C library for static linking, set ATOMC_DYNAMIC=1 to install the ordinary build.
# The static binary cannot open the CUDA driver, so it is built without the `gpu` feature; the
# ordinary build (`cargo build --release`) keeps it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

prefix="${PREFIX:-$PWD/.cache}"
triple="$(rustc -vV | sed -n 's/^host: //p')"
if [[ "${ATOMC_DYNAMIC:-0}" == "1" ]]; then
    cargo build --release -p atomc-cli
    built="target/release/atomc"
else
    RUSTFLAGS="-C target-feature=+crt-static -C relocation-model=static" \
        cargo build --release -p atomc-cli --target "$triple" --no-default-features --features clif
    built="target/$triple/release/atomc"
fi
mkdir -p "$prefix/bin"
install -m 755 "$built" "$prefix/bin/atomc"
echo "installed $prefix/bin/atomc ($("$prefix/bin/atomc" --version))"
