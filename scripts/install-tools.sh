#!/usr/bin/env bash
# Installs the external oracles that atomc's tests compare against, into the git-ignored
# `.cache/tools/` of the repository this script lives in:
#
#   .cache/tools/cuda13/bin/{nvdisasm,ptxas,cuobjdump}   CUDA 13.x, from NVIDIA's PyPI wheels
#   .cache/tools/cuda118/bin/{nvdisasm,ptxas,cuobjdump}  CUDA 11.8, from Debian non-free
#                                                         `nvidia-cuda-toolkit` (last to know sm_50)
#   .cache/tools/igc/bin/GenX_IR                          Intel vISA assembler, Debian `libigc-tools`
#
# Nothing is installed system-wide: wheels go in with `pip install --target`, Debian packages are
# fetched with `apt-get download` through a private apt configuration under .cache/tools/apt (its
# sources are derived at run time from the machine's own Debian sources, with `non-free` added) and
# unpacked with `dpkg -x`. The system's apt configuration and package database are never written.
#
# Idempotent: each component records what it installed in `<dir>/.installed`; a later run skips the
# download when that record matches and only re-verifies that every tool runs and gives the
# expected answer on a known input. Any failure exits non-zero with a message saying what broke.
#
# Environment overrides (all optional):
#   ATOMC_CUDA13_VERSION     pip version of the three nvidia-cuda-* wheels (default pinned below)
#   ATOMC_CUDA118_DEB        Debian version of nvidia-cuda-toolkit (default pinned below)
#   ATOMC_IGC_DEB            Debian version of libigc-tools (default pinned below)
#   ATOMC_TOOLS_FORCE=1      reinstall everything even if the records match
set -euo pipefail

CUDA13_VERSION="${ATOMC_CUDA13_VERSION:-13.5.37}"
CUDA118_DEB="${ATOMC_CUDA118_DEB:-11.8.89~11.8.0-5~deb12u1}"
IGC_DEB="${ATOMC_IGC_DEB:-1.0.12504.6-1+deb12u1}"
# A pinned Debian version disappears from the mirror when a point release replaces it. We then
# accept the archive's current version as long as it still starts with these prefixes (same
# toolkit line / same IGC release, so the facts in the reference notes keep holding), with a warning.
CUDA118_ACCEPT_PREFIX="11.8."
IGC_ACCEPT_PREFIX="1.0.12504."

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.cache/tools"
APTDIR="$TOOLS/apt"
FORCE="${ATOMC_TOOLS_FORCE:-0}"

log()  { printf '[install-tools] %s\n' "$*"; }
warn() { printf '[install-tools] WARNING: %s\n' "$*" >&2; }
die()  {
    printf '[install-tools] ERROR: %s\n' "$*" >&2
    printf '[install-tools] (a damaged install can be redone with ATOMC_TOOLS_FORCE=1 %s)\n' "$0" >&2
    exit 1
}

# Scratch space for downloads and verification inputs; removed on any exit.
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/atomc-tools.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

# le64 VALUE: writes VALUE as 8 little-endian bytes to stdout (bash arithmetic is 64-bit).
le64() {
    local v=$1 i
    for i in 0 1 2 3 4 5 6 7; do
        # shellcheck disable=SC2059
        printf "\\x$(printf %02x $(( (v >> (8 * i)) & 0xff )))"
    done
}

# expect_output DESCRIPTION NEEDLE CMD...: runs CMD, fails loudly unless it exits 0 and its
# combined output contains NEEDLE (a fixed string).
expect_output() {
    local what=$1 needle=$2 out rc=0
    shift 2
    out="$("$@" 2>&1)" || rc=$?
    if [[ $rc -ne 0 ]]; then
        printf '%s\n' "$out" >&2
        die "$what: command failed (exit $rc): $*"
    fi
    if ! grep -qF -- "$needle" <<<"$out"; then
        printf '%s\n' "$out" >&2
        die "$what: expected '$needle' in the output of: $*"
    fi
    log "  ok: $what"
}

# stamp_matches DIR VALUE: true when DIR/.installed holds exactly VALUE (and FORCE is off).
stamp_matches() {
    [[ "$FORCE" != 1 && -f "$1/.installed" && "$(cat "$1/.installed")" == "$2" ]]
}

# replace_dir STAGED FINAL: moves a fully built staging dir into place (the old one goes only
# after the new one is complete, so an interrupted run never leaves a half-installed tool).
# deb_stamp_ok DIR PKG PIN: true when DIR holds PKG at the pinned version, or at the fallback
# version that was taken because the pin had left the archive (recorded as "(pinned-gone: PIN)").
deb_stamp_ok() {
    local line
    [[ "$FORCE" != 1 && -f "$1/.installed" ]] || return 1
    line="$(head -n1 "$1/.installed")"
    [[ "$line" == "deb $2=$3" || "$line" == "deb $2="*" (pinned-gone: $3)" ]]
}

# all_executable DIR NAME...: true when every DIR/NAME exists and is executable (a symlink must
# resolve), so a damaged install is redone instead of skipped.
all_executable() {
    local dir=$1 name
    shift
    for name in "$@"; do
        [[ -x "$dir/$name" ]] || return 1
    done
}

replace_dir() {
    local staged=$1 final=$2
    rm -rf "$final.old"
    [[ -e "$final" ]] && mv "$final" "$final.old"
    mv "$staged" "$final"
    rm -rf "$final.old"
}

find_pip() {
    if command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
        echo "python3 -m pip"
    elif command -v pip3 >/dev/null 2>&1; then
        echo "pip3"
    elif command -v pip >/dev/null 2>&1; then
        echo "pip"
    else
        die "no pip found (need python3 with pip, e.g. Debian package python3-pip) to install the CUDA 13 wheels"
    fi
}

# --------------------------------------------------------------------------------------------
# Private apt configuration (sources derived from the machine's own, with non-free added)
# --------------------------------------------------------------------------------------------

APT_OPTS=()
APT_READY=0

# Writes deb822 stanzas for every enabled binary ("deb") source of the system, with components
# main/contrib/non-free. Comments are dropped; other fields (URIs, Suites, Signed-By, ...) kept.
derive_deb822() {
    awk '
        BEGIN { RS = ""; FS = "\n" }
        {
            out = ""; types = ""; comps = 0; uris = 0; enabled = 1
            for (i = 1; i <= NF; i++) {
                line = $i
                if (line ~ /^#/) continue
                if (line ~ /^[Tt]ypes:/) { types = line; continue }
                if (line ~ /^[Ee]nabled:[ \t]*[Nn]o/) { enabled = 0 }
                if (line ~ /^[Cc]omponents:/) { comps = 1; continue }
                if (line ~ /^[Uu][Rr][Ii][Ss]:/) uris = 1
                out = out line "\n"
            }
            if (enabled && uris && comps && types ~ /[: \t]deb([ \t]|$)/)
                printf "Types: deb\n%sComponents: main contrib non-free\n\n", out
        }' "$@"
}

# Rewrites one-line `deb [opts] URI SUITE COMPONENTS...` entries likewise.
derive_oneline() {
    awk '
        /^[ \t]*deb[ \t]/ {
            n = 2
            if ($2 ~ /^\[/) { while ($n !~ /\]$/ && n < NF) n++; n++ }
            # $n = URI, $(n+1) = suite; keep everything up to the suite.
            if (n + 1 > NF) next
            line = $1
            for (i = 2; i <= n + 1; i++) line = line " " $i
            print line " main contrib non-free"
        }' "$@"
}

setup_private_apt() {
    [[ $APT_READY == 1 ]] && return 0
    command -v apt-get >/dev/null 2>&1 || die "apt-get not found (a Debian 12 machine is required)"
    command -v dpkg >/dev/null 2>&1 || die "dpkg not found (a Debian 12 machine is required)"
    log "setting up a private apt configuration in $APTDIR (system apt config is untouched)"
    mkdir -p "$APTDIR/etc/sources.list.d" "$APTDIR/etc/preferences.d" "$APTDIR/lists/partial" \
             "$APTDIR/cache/archives/partial"
    local deb822=() oneline=() f
    for f in /etc/apt/sources.list.d/*.sources; do [[ -f $f ]] && deb822+=("$f"); done
    [[ -f /etc/apt/sources.list ]] && oneline+=(/etc/apt/sources.list)
    for f in /etc/apt/sources.list.d/*.list; do [[ -f $f ]] && oneline+=("$f"); done
    : >"$APTDIR/etc/sources.list"
    : >"$APTDIR/etc/sources.list.d/atomc.sources"
    if [[ ${#deb822[@]} -gt 0 ]]; then
        derive_deb822 "${deb822[@]}" >"$APTDIR/etc/sources.list.d/atomc.sources"
    fi
    if [[ ${#oneline[@]} -gt 0 ]]; then
        derive_oneline "${oneline[@]}" >"$APTDIR/etc/sources.list"
    fi
    if [[ ! -s "$APTDIR/etc/sources.list" && ! -s "$APTDIR/etc/sources.list.d/atomc.sources" ]]; then
        die "could not derive any Debian source from /etc/apt/sources.list{,.d/*}"
    fi
    APT_OPTS=(
        -o "Dir::Etc::sourcelist=$APTDIR/etc/sources.list"
        -o "Dir::Etc::sourceparts=$APTDIR/etc/sources.list.d"
        -o "Dir::Etc::preferencesparts=$APTDIR/etc/preferences.d"
        -o "Dir::State::Lists=$APTDIR/lists"
        -o "Dir::Cache=$APTDIR/cache"
        -o "APT::Sandbox::User=root"
    )
    log "apt-get update (private lists)"
    apt-get "${APT_OPTS[@]}" -q update >"$SCRATCH/apt-update.log" 2>&1 || {
        cat "$SCRATCH/apt-update.log" >&2
        die "apt-get update with the private configuration failed"
    }
    APT_READY=1
}

# pick_deb_version PKG PINNED ACCEPT_PREFIX: prints the version to download.
pick_deb_version() {
    local pkg=$1 pinned=$2 prefix=$3 cand
    if apt-cache "${APT_OPTS[@]}" show "$pkg=$pinned" >/dev/null 2>&1; then
        echo "$pinned"
        return
    fi
    cand="$(apt-cache "${APT_OPTS[@]}" policy "$pkg" | awk '/Candidate:/ { print $2 }')"
    if [[ -z "$cand" || "$cand" == "(none)" ]]; then
        die "package $pkg not found in the Debian archive (with non-free enabled)"
    fi
    if [[ "$cand" != "$prefix"* ]]; then
        die "$pkg: pinned $pinned is gone and the archive has $cand (not $prefix*); set the override env var to accept it"
    fi
    warn "$pkg: pinned $pinned is not in the archive; using $cand instead"
    echo "$cand"
}

# pinned_deb_version PKG PINNED ACCEPT_PREFIX: sets DEB_VER to the version to install (the pin,
# or the fallback pick_deb_version accepts) and DEB_STAMP to the .installed line for it, in the
# form deb_stamp_ok reads back ("deb PKG=VER", plus " (pinned-gone: PIN)" for a fallback).
pinned_deb_version() {
    setup_private_apt
    DEB_VER="$(pick_deb_version "$1" "$2" "$3")"
    DEB_STAMP="deb $1=$DEB_VER"
    [[ "$DEB_VER" == "$2" ]] || DEB_STAMP+=" (pinned-gone: $2)"
}

# fetch_deb PKG VERSION DEST: downloads PKG=VERSION and unpacks it into DEST.
fetch_deb() {
    local pkg=$1 ver=$2 dest=$3 deb
    mkdir -p "$SCRATCH/debs" "$dest"
    log "apt-get download $pkg=$ver"
    (cd "$SCRATCH/debs" && apt-get "${APT_OPTS[@]}" -q download "$pkg=$ver") \
        >"$SCRATCH/apt-download.log" 2>&1 || {
        cat "$SCRATCH/apt-download.log" >&2
        die "apt-get download $pkg=$ver failed"
    }
    deb="$(ls "$SCRATCH/debs/${pkg}_"*.deb 2>/dev/null | head -n1)"
    [[ -n "$deb" ]] || die "apt-get download $pkg produced no .deb"
    log "  $(basename "$deb") ($(du -h "$deb" | cut -f1)); dpkg -x"
    dpkg -x "$deb" "$dest"
    rm -f "$deb"
}

# check_libs BINARY: fails when the dynamic loader cannot resolve one of BINARY's libraries.
check_libs() {
    local missing
    if command -v ldd >/dev/null 2>&1; then
        missing="$(LD_LIBRARY_PATH="${2:-}" ldd "$1" 2>&1 | grep 'not found' || true)"
        [[ -z "$missing" ]] || die "$1 lacks shared libraries: $missing"
    fi
}

# --------------------------------------------------------------------------------------------
# Verification inputs
# --------------------------------------------------------------------------------------------

# One SM90 instruction (ATOM.E.ADD.STRONG.GPU PT, R1, [R2], R3) followed by EXIT, as two
# little-endian u64 each (reference/sass.md, Appendix A).
write_sm90_words() {
    { le64 0x000000030201738a; le64 0x000fc200001ee100
      le64 0x000000000000794d; le64 0x000fc20003800000; } >"$1"
}

# One SM50 bundle: control word, then ATOM.ADD R1, [R2], R3 / NOP / EXIT. The control word must
# be a plausible one; an all-zero word makes nvdisasm reject the NOP and EXIT slots.
write_sm50_bundle() {
    { le64 0x001ffc00fd4007ef; le64 0xed00000000370201
      le64 0x50b0000000070f00; le64 0xe30000000007000f; } >"$1"
}

# write_ptx SM FILE: a tiny kernel with a global atomic add whose result is used.
write_ptx() {
    cat >"$2" <<PTX
.version 7.8
.target sm_$1
.address_size 64

.visible .entry k(.param .u64 p, .param .u32 v)
{
    .reg .u32 %r<3>;
    .reg .u64 %rd<3>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [v];
    cvta.to.global.u64 %rd2, %rd1;
    atom.global.add.u32 %r2, [%rd2], %r1;
    st.global.u32 [%rd2+4], %r2;
    ret;
}
PTX
}

# A vISA kernel with one svm_atomic add (same shape as reference/visa-samples/ops32/a32_add).
write_visaasm() {
    cat >"$1" <<'VISA'
.version 3.6
.kernel "k"
.decl A v_type=G type=uq num_elts=8 align=GRF
.decl S0 v_type=G type=ud num_elts=8 align=GRF
.decl D v_type=G type=ud num_elts=8 align=GRF
.kernel_attr Target="cm"
.input A offset=64 size=64
.input S0 offset=128 size=32
    svm_atomic.add (M1, 8) A.0 D.0 S0.0 %null.0
    ret (M1, 1)
VISA
}

# verify_cuda DIR LABEL RELEASE SM NEEDLE_DISASM NEEDLE_SASS
verify_cuda() {
    local dir=$1 label=$2 release=$3 sm=$4 needle_dis=$5 needle_sass=$6 t b
    t="$SCRATCH/verify-$label"
    mkdir -p "$t"
    log "verifying $label in $dir/bin"
    for b in nvdisasm ptxas cuobjdump; do
        [[ -x "$dir/bin/$b" ]] || die "$label: $dir/bin/$b missing or not executable"
        expect_output "$label $b --version (release $release)" "release $release" "$dir/bin/$b" --version
    done
    if [[ $sm == 90 ]]; then write_sm90_words "$t/words.bin"; else write_sm50_bundle "$t/words.bin"; fi
    expect_output "$label nvdisasm -b SM$sm decodes a known ATOM word" "$needle_dis" \
        "$dir/bin/nvdisasm" -b "SM$sm" -hex "$t/words.bin"
    write_ptx "$sm" "$t/k.ptx"
    expect_output "$label ptxas -arch=sm_$sm compiles an atom kernel" "" \
        "$dir/bin/ptxas" -arch="sm_$sm" "$t/k.ptx" -o "$t/k.cubin"
    [[ -s "$t/k.cubin" ]] || die "$label: ptxas wrote no cubin"
    expect_output "$label cuobjdump -sass shows the atomic" "$needle_sass" \
        "$dir/bin/cuobjdump" -sass "$t/k.cubin"
}

verify_igc() {
    local dir=$1 t="$SCRATCH/verify-igc" out rc=0
    log "verifying GenX_IR in $dir/bin"
    [[ -x "$dir/bin/GenX_IR" ]] || die "GenX_IR: $dir/bin/GenX_IR missing or not executable"
    mkdir -p "$t"
    write_visaasm "$t/k.visaasm"
    out="$(cd "$t" && "$dir/bin/GenX_IR" k.visaasm -platform TGLLP -output 2>&1)" || rc=$?
    if [[ $rc -ne 0 || -e "$t/k.errors.txt" ]] || grep -qE 'WARNING|ERROR|\.cpp:[0-9]' <<<"$out"; then
        printf '%s\n' "$out" >&2
        [[ -e "$t/k.errors.txt" ]] && cat "$t/k.errors.txt" >&2
        die "GenX_IR failed to compile a known-good vISA kernel (exit $rc)"
    fi
    grep -q 'send' "$t/k.asm" 2>/dev/null || die "GenX_IR wrote no Gen assembly with a send for the atomic"
    log "  ok: GenX_IR -platform TGLLP compiles an svm_atomic kernel"
}

# --------------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------------

install_cuda13() {
    local dir="$TOOLS/cuda13" stamp="pip nvidia-cuda-{nvdisasm,nvcc,cuobjdump}==$CUDA13_VERSION"
    if stamp_matches "$dir" "$stamp" && all_executable "$dir/bin" nvdisasm ptxas cuobjdump; then
        log "cuda13: already installed ($stamp)"
        return
    fi
    local stage="$TOOLS/cuda13.new" pip b
    pip="$(find_pip)"
    rm -rf "$stage"
    mkdir -p "$stage/bin"
    log "cuda13: $pip install --target (nvdisasm, nvcc for ptxas, cuobjdump) == $CUDA13_VERSION"
    # shellcheck disable=SC2086
    $pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --target "$stage/pip" \
        "nvidia-cuda-nvdisasm==$CUDA13_VERSION" \
        "nvidia-cuda-nvcc==$CUDA13_VERSION" \
        "nvidia-cuda-cuobjdump==$CUDA13_VERSION" >"$SCRATCH/pip.log" 2>&1 || {
        cat "$SCRATCH/pip.log" >&2
        die "cuda13: pip install of the nvidia-cuda-* $CUDA13_VERSION wheels failed"
    }
    for b in nvdisasm ptxas cuobjdump; do
        local found
        found="$(cd "$stage" && find pip -type f -path '*/bin/*' -name "$b" | head -n1)"
        [[ -n "$found" ]] || die "cuda13: the wheels contain no $b (pip install failed?)"
        check_libs "$stage/$found"
        # Relative link, so the tree keeps working when the repository is moved or cloned.
        ln -s "../$found" "$stage/bin/$b"
    done
    printf '%s\n' "$stamp" >"$stage/.installed"
    replace_dir "$stage" "$dir"
}

install_cuda118() {
    local dir="$TOOLS/cuda118"
    if deb_stamp_ok "$dir" nvidia-cuda-toolkit "$CUDA118_DEB" \
        && all_executable "$dir/bin" nvdisasm ptxas cuobjdump; then
        log "cuda118: already installed ($(head -n1 "$dir/.installed"))"
        return
    fi
    pinned_deb_version nvidia-cuda-toolkit "$CUDA118_DEB" "$CUDA118_ACCEPT_PREFIX"
    local ver="$DEB_VER" stamp="$DEB_STAMP" stage="$TOOLS/cuda118.new" b
    rm -rf "$stage"
    mkdir -p "$stage/bin" "$stage/doc"
    # The three tools are statically linked (only libc/libm/libgcc/libstdc++), so this one package
    # is all that is needed; the rest of the toolkit (nvcc, headers, libs) is discarded.
    fetch_deb nvidia-cuda-toolkit "$ver" "$SCRATCH/cuda118-root"
    for b in nvdisasm ptxas cuobjdump; do
        [[ -f "$SCRATCH/cuda118-root/usr/bin/$b" ]] || die "cuda118: nvidia-cuda-toolkit $ver has no usr/bin/$b"
        cp "$SCRATCH/cuda118-root/usr/bin/$b" "$stage/bin/$b"
        chmod 755 "$stage/bin/$b"
        check_libs "$stage/bin/$b"
    done
    cp "$SCRATCH/cuda118-root/usr/share/doc/nvidia-cuda-toolkit/copyright" "$stage/doc/" 2>/dev/null || true
    rm -rf "$SCRATCH/cuda118-root"
    printf '%s\n' "$stamp" >"$stage/.installed"
    replace_dir "$stage" "$dir"
}

install_igc() {
    local dir="$TOOLS/igc"
    if deb_stamp_ok "$dir" libigc-tools "$IGC_DEB" && all_executable "$dir/bin" GenX_IR iga64 \
        && all_executable "$dir/root/usr/bin" GenX_IR iga64; then
        log "igc: already installed ($(head -n1 "$dir/.installed"))"
        return
    fi
    pinned_deb_version libigc-tools "$IGC_DEB" "$IGC_ACCEPT_PREFIX"
    local ver="$DEB_VER" stamp="$DEB_STAMP" stage="$TOOLS/igc.new" b
    rm -rf "$stage"
    mkdir -p "$stage/bin"
    # libigc-tools' GenX_IR and iga64 carry the vISA/IGA code inside; their Depends are only
    # libc6/libgcc-s1/libstdc++6, which every Debian with apt has. Any library a later package
    # version adds would be unpacked under root/ and found through the wrapper's LD_LIBRARY_PATH.
    fetch_deb libigc-tools "$ver" "$stage/root"
    for b in GenX_IR iga64; do
        [[ -f "$stage/root/usr/bin/$b" ]] || die "igc: libigc-tools $ver has no usr/bin/$b"
        cat >"$stage/bin/$b" <<WRAP
#!/bin/sh
# Runs the unpacked libigc-tools $b with its private library directories first.
here=\$(CDPATH= cd -- "\$(dirname -- "\$0")/.." && pwd)
libs=""
for d in "\$here"/root/usr/lib/*-linux-gnu "\$here"/root/usr/lib; do
    [ -d "\$d" ] && libs="\$libs\${libs:+:}\$d"
done
LD_LIBRARY_PATH="\$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$here/root/usr/bin/$b" "\$@"
WRAP
        chmod 755 "$stage/bin/$b"
        check_libs "$stage/root/usr/bin/$b"
    done
    printf '%s\n' "$stamp" >"$stage/.installed"
    replace_dir "$stage" "$dir"
}

# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------

main() {
    local start=$SECONDS
    log "repository: $ROOT"
    log "tools dir:  $TOOLS"
    mkdir -p "$TOOLS"
    # Several people or test runs may share one checkout: one installer at a time.
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$TOOLS/.install.lock"
        if ! flock -n 9; then
            log "another install-tools.sh is running here; waiting for it"
            flock 9
        fi
    fi
    # Holding the lock: half-built staging dirs of a failed run go on exit too (the previous
    # install stays in place).
    trap 'rm -rf "$SCRATCH" "$TOOLS"/cuda13.new "$TOOLS"/cuda118.new "$TOOLS"/igc.new' EXIT
    local t
    for component in cuda13 cuda118 igc; do
        t=$SECONDS
        "install_$component"
        log "  ($component: $((SECONDS - t)) s)"
    done
    t=$SECONDS
    verify_cuda "$TOOLS/cuda13" cuda13 "13." 90 \
        "ATOM.E.ADD.STRONG.GPU PT, R1, [R2], R3" "ATOMG.E.ADD.STRONG.GPU"
    verify_cuda "$TOOLS/cuda118" cuda118 "11.8" 50 \
        "ATOM.ADD R1, [R2], R3" "ATOM.E.ADD"
    verify_igc "$TOOLS/igc"
    log "  (verification: $((SECONDS - t)) s)"
    log "all tools installed and verified in $((SECONDS - start)) s:"
    log "  cuda13:  $(head -n1 "$TOOLS/cuda13/.installed")"
    log "  cuda118: $(head -n1 "$TOOLS/cuda118/.installed")"
    log "  igc:     $(head -n1 "$TOOLS/igc/.installed")"
}

main "$@"
