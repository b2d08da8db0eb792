//! Errors of the CLIF import and of reading `.clif` text.

/// Why a CLIF function could not be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// A CLIF instruction has no atomc (GPU) meaning, or no translation.
    #[error("%{function}: cannot import `{inst}`: {reason}")]
    Unsupported {
        /// The CLIF function's name.
        function: String,
        /// The CLIF opcode (`call`, `stack_addr`, ...).
        opcode: String,
        /// The whole instruction as CLIF prints it.
        inst: String,
        /// Why it is rejected.
        reason: String,
        /// The instruction in the CLIF function.
        at: cranelift_codegen::ir::Inst,
    },
    /// A signature or block parameter type atomc does not have.
    #[error("%{function}: {what} has type {ty}: {reason}")]
    Type {
        /// The CLIF function's name.
        function: String,
        /// Which value (`parameter 2`, `return value 0`, `v7`).
        what: String,
        /// The CLIF type.
        ty: String,
        /// Why it is rejected.
        reason: String,
    },
    /// The translation produced IR atomc's verifier rejects: a bug in the
    /// importer (or input the CLIF verifier would reject).
    #[error("%{function}: the imported IR does not verify: {messages}")]
    Invalid {
        /// The CLIF function's name.
        function: String,
        /// The verifier's messages, joined.
        messages: String,
    },
}

impl ImportError {
    /// The CLIF opcode the error is about, if it is about an instruction.
    pub fn opcode(&self) -> Option<&str> {
        match self {
            ImportError::Unsupported { opcode, .. } => Some(opcode),
            _ => None,
        }
    }

    /// A short, instance-independent reason (for grouping reports).
    pub fn reason(&self) -> String {
        match self {
            ImportError::Unsupported { opcode, reason, .. } => format!("`{opcode}`: {reason}"),
            ImportError::Type { ty, reason, .. } => format!("type {ty}: {reason}"),
            ImportError::Invalid { .. } => "imported IR does not verify".to_string(),
        }
    }
}

impl ClifError {
    /// The error as the verifier reports its own: rule `clif-parse` or `clif-import`, at the
    /// line (and, for an instruction, the column) in the text.
    pub fn diagnostic(&self) -> atomc_ir::diagnostic::Diagnostic {
        let (line, col, rule, message) = match self {
            ClifError::Parse { line, message } => (*line, 1, "clif-parse", message.clone()),
            ClifError::Import { line, col, error } => (*line, *col, "clif-import", error.to_string()),
        };
        let loc = atomc_ir::SrcLoc { line: line as u32, col: col as u32 };
        atomc_ir::diagnostic::Diagnostic::new(loc, rule, message)
    }
}

/// Why a `.clif` file could not be turned into atomc functions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClifError {
    /// cranelift-reader rejected the text.
    #[error("line {line}: {message}")]
    Parse {
        /// 1-based line.
        line: usize,
        /// cranelift-reader's message.
        message: String,
    },
    /// A function parsed but could not be imported.
    #[error("line {line}: {error}")]
    Import {
        /// 1-based line of the rejected instruction (of the function when
        /// the error is not about one instruction).
        line: usize,
        /// 1-based column of the rejected instruction (1 when the error is not about one).
        col: usize,
        /// The import error.
        error: ImportError,
    },
}
