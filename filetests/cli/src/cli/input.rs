//! Reading an .atom file: parse, render errors, optionally verify.

use super::Failure;
use atomc::ir::Function;
use std::path::Path;

/// A parsed input file.
pub struct Input {
    /// The file name as given (for diagnostics).
    pub name: String,
    /// Its text.
    pub source: String,
    /// Its functions, in order.
    pub funcs: Vec<Function>,
}

/// Reads `path` (`-` for stdin). An input that cannot be read is a command-line mistake (exit
/// code 2, the README's convention): the path given is wrong.
pub fn read_source(path: &Path) -> Result<(String, String), Failure> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| Failure::Usage(format!("cannot read stdin: {e}")))?;
        return Ok(("<stdin>".to_string(), s));
    }
    let s = std::fs::read_to_string(path).map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
    Ok((path.display().to_string(), s))
}

/// Reads and parses `path`; parse errors become a rendered diagnostic.
pub fn parse(path: &Path) -> Result<Input, Failure> {
    let (name, source) = read_source(path)?;
    if path.extension().is_some_and(|e| e == "clif") {
        // Header lines (`test ..`, `target sm_90`) are atomc's, not Cranelift's.
        return match import_clif(&atomc_filetests::clif_body(&source)) {
            Ok(funcs) => Ok(Input { name, source, funcs }),
            Err(diags) => Err(Failure::Input(atomc::ir::diagnostic::render(&name, &source, &diags))),
        };
    }
    match atomc::ir::parse::parse_file(&source) {
        Ok(parsed) => Ok(Input { name, source, funcs: parsed.functions.into_iter().map(|f| f.func).collect() }),
        Err(diags) => Err(Failure::Input(atomc::ir::diagnostic::render(&name, &source, &diags))),
    }
}

impl Input {
    /// Verifies every function; all errors of all functions are rendered.
    pub fn verify(&self) -> Result<(), Failure> {
        let mut diags = Vec::new();
        for f in &self.funcs {
            if let Err(d) = atomc::ir::verify::verify(f) {
                diags.extend(d);
            }
        }
        if diags.is_empty() {
            Ok(())
        } else {
            Err(Failure::Input(self.render(&diags)))
        }
    }

    /// Renders diagnostics against this file.
    pub fn render(&self, diags: &[atomc::ir::diagnostic::Diagnostic]) -> String {
        atomc::ir::diagnostic::render(&self.name, &self.source, diags)
    }

    /// The functions selected by `--function NAME` (all when `None`); a name the file does not
    /// have is a command-line mistake.
    pub fn select(&self, name: Option<&str>) -> Result<Vec<&Function>, Failure> {
        match name {
            None => Ok(self.funcs.iter().collect()),
            Some(n) => {
                let n = n.trim_start_matches('%');
                let found: Vec<&Function> = self.funcs.iter().filter(|f| f.name == n).collect();
                if found.is_empty() {
                    let names: Vec<String> = self.funcs.iter().map(|f| format!("%{}", f.name)).collect();
                    Err(Failure::Usage(format!("{}: no function %{n} (it has {})", self.name, names.join(", "))))
                } else {
                    Ok(found)
                }
            }
        }
    }
}

/// Reads Cranelift IR text (`.clif`) as atomc functions; errors become
/// diagnostics on the line Cranelift's reader or the importer names.
#[cfg(feature = "clif")]
pub fn import_clif(body: &str) -> Result<Vec<Function>, Vec<atomc::ir::diagnostic::Diagnostic>> {
    atomc::clif::parse_clif_file(body).map_err(|e| vec![e.diagnostic()])
}

/// Without the `clif` feature there is no CLIF reader.
#[cfg(not(feature = "clif"))]
pub fn import_clif(body: &str) -> Result<Vec<Function>, Vec<atomc::ir::diagnostic::Diagnostic>> {
    let _ = body;
    Err(vec![atomc::ir::diagnostic::Diagnostic {
        inst: None,
        loc: Default::default(),
        rule: "clif-import",
        message: "atomc was built without the `clif` feature".to_string(),
    }])
}
