//! How much of a slow suite a test run covers.
//!
//! The test command (`scripts/test.sh`) runs a fixed slice of the suites whose every case runs
//! an external tool or the emulator: a case is in the slice when the hash of its name (a path
//! relative to the repository, so the slice is the same on every machine) falls into it.
//! `ATOMC_TEST_FULL=1` (`scripts/test-full.sh`) runs every case. The slice is deterministic: a
//! failure seen once is seen again on the next run.

/// Whether every case runs (`ATOMC_TEST_FULL=1`).
pub fn full() -> bool {
    std::env::var("ATOMC_TEST_FULL").is_ok_and(|v| v == "1")
}

/// Whether the case named `name` runs when the slice keeps one case in `one_in`. The name is
/// taken from its first `filetests/`, `examples/` or `benches/` part on, so an absolute path
/// hashes as its repository path.
pub fn keeps(name: &str, one_in: u32) -> bool {
    if full() || one_in <= 1 {
        return true;
    }
    let key = ["filetests/", "examples/", "benches/"]
        .iter()
        .filter_map(|d| name.find(d))
        .min()
        .map_or(name, |i| &name[i..]);
    // FNV-1a: stable across Rust releases, unlike the standard library's hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h % u64::from(one_in) == 0
}

/// The cases of `items` (named by `name`) that the slice keeps; every one under `ATOMC_TEST_FULL=1`.
pub fn sample<T>(items: Vec<T>, one_in: u32, name: impl Fn(&T) -> &str) -> Vec<T> {
    items.into_iter().filter(|t| keeps(name(t), one_in)).collect()
}

/// What a suite prints about its coverage: `"every case"` or `"a slice: one case in N"`.
pub fn describe(one_in: u32) -> String {
    if full() || one_in <= 1 {
        "every case".to_string()
    } else {
        format!("a slice, one case in {one_in} (ATOMC_TEST_FULL=1 runs every case)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slice_is_the_repository_path_and_about_the_share_asked() {
        assert_eq!(
            keeps("/a/b/filetests/filetests/x.atom:%k", 3),
            keeps("/other/filetests/filetests/x.atom:%k", 3)
        );
        let names: Vec<String> = (0..3000).map(|i| format!("filetests/f{i}.atom:%k")).collect();
        let kept = names.iter().filter(|n| keeps(n, 3)).count();
        assert!(full() || (850..1150).contains(&kept), "{kept} of 3000 kept");
        assert!(names.iter().all(|n| keeps(n, 1)));
    }
}
