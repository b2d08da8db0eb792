//! Finding filetests: a file path is a test; a directory is walked
//! recursively for `*.atom` and `*.clif` files.

use std::path::{Path, PathBuf};

/// Extensions of filetests.
pub const EXTENSIONS: &[&str] = &["atom", "clif"];

/// The filetests at or under `path`, sorted. A path that does not exist is
/// an error; a directory without tests gives an empty list.
pub fn discover(path: &Path) -> Result<Vec<PathBuf>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    if meta.is_dir() {
        walk(path, &mut out).map_err(|e| format!("{}: {e}", path.display()))?;
    } else {
        out.push(path.to_path_buf());
    }
    out.sort();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(&path, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            out.push(path);
        }
    }
    Ok(())
}
