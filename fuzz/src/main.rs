fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    let opts = atomc_fuzz::check::Options {
        ptxas: true,
        genx: std::env::var("GENX").is_ok(),
    };
    for seed in a[0]..a[1] {
        let r = atomc_fuzz::check::check(seed, &opts);
        let bad: Vec<String> = r
            .stages
            .iter()
            .filter(|(_, v)| *v != atomc_fuzz::check::Verdict::Ok)
            .map(|(s, v)| {
                format!(
                    "{s}: {}: {}",
                    v.class(),
                    v.detail().lines().next().unwrap_or("")
                )
            })
            .collect();
        println!("seed {seed}: {:?} {}", r.elapsed, bad.join(" | "));
        if std::env::var("SHOW").is_ok() {
            println!("{}", r.filetest());
        }
    }
}
