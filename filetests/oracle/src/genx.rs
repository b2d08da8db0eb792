//! The Intel oracle: `GenX_IR` (IGC 1.0.12504), run exactly as reference/visa.md §8 prescribes.

use super::{os, run_tool, OracleError, ScratchDir, Tool};

/// What to feed `GenX_IR`.
#[derive(Clone, Copy, Debug)]
pub enum GenxInput<'a> {
    /// vISA assembly text (`.visaasm`).
    Text(&'a str),
    /// A vISA binary (`.isa`, format 4.1).
    Binary(&'a [u8]),
}

/// What `GenX_IR` produced for one accepted input.
#[derive(Clone, Debug, Default)]
pub struct GenxOutput {
    /// The Gen assembly (`.asm`) it wrote.
    pub asm: String,
    /// Its `-dumpcommonisa` print of the kernel (`.visaasm`), i.e. how GenX_IR read the input;
    /// `None` if it wrote none. For text and binary input of the same kernel these should match
    /// apart from the `.version` line and label renaming.
    pub visaasm: Option<String>,
    /// Its stdout and stderr, concatenated.
    pub log: String,
}

/// Compiles vISA with `GenX_IR <file> -platform <platform> -output -dumpcommonisa` in a scratch
/// directory and checks the result the way reference/visa.md §8 does: exit status 0, no
/// `<name>.errors.txt`, and no assertion (`<file>.cpp:<line>`), `WARNING` or `ERROR` line in its
/// output. `platform` is GenX_IR's spelling (`TGLLP`, `DG2`, `PVC`, ...).
///
/// File names follow GenX_IR's habits: text input is `k.visaasm` (its outputs are `k.asm`, the
/// dump overwrites `k.visaasm`, and a broken `k.isa` is dropped and ignored, see visa.md §0);
/// binary input is `in.isa`, for which GenX_IR names its outputs `.asm`, `.visaasm` and
/// `.errors.txt` (empty base name).
pub fn genx_ir(input: GenxInput<'_>, platform: &str) -> Result<GenxOutput, OracleError> {
    let dir = ScratchDir::new()?;
    let (file, base) = match input {
        GenxInput::Text(text) => (dir.write("k.visaasm", text.as_bytes())?, "k"),
        GenxInput::Binary(bytes) => (dir.write("in.isa", bytes)?, ""),
    };
    let name = file.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    let args = [
        name.as_os_str(),
        os("-platform"),
        os(platform),
        os("-output"),
        os("-dumpcommonisa"),
    ];
    let out = run_tool(Tool::GenXIR, &args, Some(dir.path()))?;
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let mut problems = Vec::new();
    if let Some(errors) = dir.read(&format!("{base}.errors.txt"))? {
        problems.push(format!(
            "{base}.errors.txt: {}",
            String::from_utf8_lossy(&errors).trim_end()
        ));
    }
    for line in log.lines() {
        if line.contains("WARNING") || line.contains("ERROR") || has_assert_location(line) {
            problems.push(line.to_string());
        }
    }
    if !problems.is_empty() {
        return Err(OracleError::GenxDiagnostics {
            detail: problems.join("\n"),
        });
    }

    let asm = dir.read(&format!("{base}.asm"))?.ok_or(OracleError::NoOutput {
        tool: Tool::GenXIR,
        what: "Gen assembly (.asm)",
    })?;
    let visaasm = dir.read(&format!("{base}.visaasm"))?;
    Ok(GenxOutput {
        asm: String::from_utf8_lossy(&asm).into_owned(),
        visaasm: visaasm.map(|b| String::from_utf8_lossy(&b).into_owned()),
        log,
    })
}

/// Whether a line names a C++ source location (`Foo.cpp:123`), which is how GenX_IR's internal
/// assertions and verifier messages look.
fn has_assert_location(line: &str) -> bool {
    let mut rest = line;
    while let Some(i) = rest.find(".cpp:") {
        let after = &rest[i + 5..];
        if after.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return true;
        }
        rest = after;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::require;

    const ADD: &str = ".version 3.6\n.kernel \"k\"\n\
        .decl A v_type=G type=uq num_elts=8 align=GRF\n\
        .decl S0 v_type=G type=ud num_elts=8 align=GRF\n\
        .decl D v_type=G type=ud num_elts=8 align=GRF\n\
        .kernel_attr Target=\"cm\"\n\
        .input A offset=64 size=64\n.input S0 offset=128 size=32\n\
        \x20   svm_atomic.add (M1, 8) A.0 D.0 S0.0 %null.0\n    ret (M1, 1)\n";

    #[test]
    fn assert_location_detection() {
        assert!(has_assert_location("Foo.cpp:12 assertion failed"));
        assert!(!has_assert_location("k.cpp: no number"));
        assert!(!has_assert_location("svm_atomic.add"));
    }

    #[test]
    fn genx_ir_accepts_a_known_good_kernel() {
        if require(Tool::GenXIR).is_none() {
            return;
        }
        let out = genx_ir(GenxInput::Text(ADD), "TGLLP").expect("GenX_IR accepts the kernel");
        assert!(out.asm.contains("send"), "{}", out.asm);
        let dump = out.visaasm.expect("dumpcommonisa output");
        assert!(dump.contains("svm_atomic.add"), "{dump}");
    }

    #[test]
    fn genx_ir_rejects_an_undefined_variable() {
        if require(Tool::GenXIR).is_none() {
            return;
        }
        let bad = ADD.replace("S0.0 %null", "NOPE.0 %null");
        assert!(genx_ir(GenxInput::Text(&bad), "TGLLP").is_err());
    }
}
