//! The documentation's examples run as written: every concrete `atomc` command of README.md,
//! filetests/README.md and docs/*.md (in shell blocks or inline code) exits 0 from the
//! repository root, and every IR example verifies and compiles for sm_90 (for the other
//! targets it compiles or is refused by the capability table, exit 1, as docs/support.md says).
//! A synopsis (`FILE`, `sm_50|sm_90`) is not a command; commands the test command runs anyway
//! (`atomc test`, `atomc support`, `atomc bench`) are named, not repeated.

mod common;

use common::repo;
use std::process::Command;

/// The documents, relative to the repository root.
fn documents() -> Vec<String> {
    let mut docs = vec!["README.md".to_string(), "filetests/README.md".to_string()];
    let mut in_docs: Vec<String> = std::fs::read_dir(repo("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    in_docs.sort();
    docs.extend(in_docs);
    docs
}

/// A fenced block: its language, first line number and text.
struct Block {
    lang: String,
    line: usize,
    text: String,
}

fn fenced_blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (None, Some(lang)) => open = Some(Block { lang: lang.trim().to_string(), line: i + 2, text: String::new() }),
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some(b), None) => {
                b.text.push_str(line);
                b.text.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

/// `atomc` arguments of a command as the documents spell it, or `None` for other programs.
fn atomc_args(cmd: &str) -> Option<String> {
    let cmd = cmd.trim();
    ["atomc ", "cargo run --release -- ", "cargo run -- ", "target/release/atomc "]
        .iter()
        .find_map(|p| cmd.strip_prefix(p))
        .map(|rest| rest.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Why a command is not run, if it is not.
fn not_run(args: &str) -> Option<&'static str> {
    let words: Vec<&str> = args.split(' ').collect();
    let placeholder = |w: &&str| {
        let w = w.trim_matches(|c: char| c == '\'' || c == '"');
        w.contains('|')
            || w.starts_with('[')
            || w.contains("..")
            || (w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase() || c == '-' || c == '_'))
            || w.starts_with("K.")
            || w == "T"
            || w == "N"
    };
    if words.iter().any(placeholder) {
        return Some("a synopsis");
    }
    match words.first().copied() {
        Some("test") => Some("the test command runs every filetest"),
        Some("support") => Some("tests/support_matrix.rs runs it"),
        Some("bench") => Some("tests/bench_smoke.rs runs it"),
        Some("compile") if words.contains(&"-o") => Some("writes a file"),
        Some("compile" | "run" | "verify" | "disasm" | "asm") if words.len() < 2 => Some("no input"),
        _ => None,
    }
}

/// Every `atomc` command of the documents: (where, arguments).
fn commands() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(repo(&doc)).expect("readable");
        for b in fenced_blocks(&text) {
            if matches!(b.lang.as_str(), "sh" | "bash" | "shell" | "") {
                for (i, l) in b.text.lines().enumerate() {
                    let l = l.split(" #").next().unwrap_or(l);
                    out.extend(atomc_args(l).map(|a| (format!("{doc}:{}", b.line + i), a)));
                }
            }
        }
        // Inline code may wrap across lines: look for spans in the prose as a whole.
        let mut in_fence = false;
        let prose: Vec<&str> = text
            .lines()
            .map(|l| {
                let fence = l.trim_start().starts_with("```");
                in_fence ^= fence;
                if in_fence || fence { "" } else { l }
            })
            .collect();
        let prose = prose.join("\n");
        let mut at = 0;
        for (k, span) in prose.split('`').enumerate() {
            if k % 2 == 1 {
                let line = prose[..at].matches('\n').count() + 1;
                out.extend(atomc_args(&span.replace('\n', " ")).map(|a| (format!("{doc}:{line}"), a)));
            }
            at += span.len() + 1;
        }
    }
    out
}

/// Splits arguments as a shell would for the quoting the documents use (`'...'`).
fn shell_words(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in args.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => out.extend((!cur.is_empty()).then(|| std::mem::take(&mut cur))),
            c => cur.push(c),
        }
    }
    out.extend((!cur.is_empty()).then_some(cur));
    out
}

fn atomc_in_repo(args: &[String]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_atomc")).args(args).current_dir(repo("")).output().expect("run atomc");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn every_documented_command_runs() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for (at, args) in commands() {
        if let Some(why) = not_run(&args) {
            println!("{at}: atomc {args}: not run ({why})");
            continue;
        }
        let (rc, _, err) = atomc_in_repo(&shell_words(&args));
        println!("{at}: atomc {args}: exit {rc}");
        ran += 1;
        if rc != 0 {
            failures.push(format!("{at}: `atomc {args}` exits {rc}: {err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The README's set-up alone names four (compile for three targets, run).
    assert!(ran >= 4, "only {ran} documented commands ran");
}

/// The IR examples: blocks holding a whole function.
fn ir_examples() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(repo(&doc)).expect("readable");
        for b in fenced_blocks(&text) {
            if b.text.trim_start().starts_with("function %") || b.text.contains("\nfunction %") {
                out.push((format!("{doc}:{}", b.line), b.text));
            }
        }
    }
    out
}

#[test]
fn every_ir_example_verifies_and_compiles() {
    let dir = common::scratch("docs-ir");
    let examples = ir_examples();
    assert!(examples.len() >= 2, "docs/ir.md alone has two");
    let mut failures = Vec::new();
    for (n, (at, text)) in examples.iter().enumerate() {
        let file = dir.join(format!("example{n}.atom"));
        std::fs::write(&file, text).expect("write");
        let file = file.display().to_string();
        let (rc, _, err) = atomc_in_repo(&["verify".into(), file.clone()]);
        if rc != 0 {
            failures.push(format!("{at}: does not verify: {err}"));
            continue;
        }
        let targets: [&[&str]; 5] = [
            &["--target", "sm_90", "--emit", "asm"],
            &["--target", "sm_50", "--emit", "asm"],
            &["--target", "visa", "--platform", "TGLLP", "--emit", "visaasm"],
            &["--target", "visa", "--platform", "DG2", "--emit", "visaasm"],
            &["--target", "visa", "--platform", "PVC", "--emit", "visaasm"],
        ];
        for how in targets {
            let target = how[1..how.len() - 2].join(" ");
            let mut args = vec!["compile".to_string(), file.clone()];
            args.extend(how.iter().map(|s| s.to_string()));
            let (rc, _, err) = atomc_in_repo(&args);
            println!("{at}: {target}: exit {rc}");
            let refused = rc == 1 && err.contains("cannot express");
            if rc != 0 && !(refused && target != "sm_90") {
                failures.push(format!("{at}: {target}: exit {rc}: {err}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
