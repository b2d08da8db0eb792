//! Naming the file when a run hangs: a watcher thread reports every file
//! that has been running for longer than the stall period, on stderr, as
//! `STALLED for N s: path`. Nothing is killed; the report only says where
//! to look.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The files being run right now, with their start times.
#[derive(Default)]
pub struct Running {
    files: Mutex<HashMap<PathBuf, Instant>>,
}

/// Removes its file from [`Running`] when dropped (also on a panic).
pub struct Guard<'a> {
    running: &'a Running,
    path: PathBuf,
}

impl Running {
    /// Marks `path` as running until the guard is dropped.
    pub fn enter(&self, path: &Path) -> Guard<'_> {
        if let Ok(mut files) = self.files.lock() {
            files.insert(path.to_path_buf(), Instant::now());
        }
        Guard {
            running: self,
            path: path.to_path_buf(),
        }
    }
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        if let Ok(mut files) = self.running.files.lock() {
            files.remove(&self.path);
        }
    }
}

/// Runs `work` while a watcher reports stalled files every `period`.
pub fn watch<R: Send>(running: &Running, period: Duration, work: impl FnOnce() -> R + Send) -> R {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let mut reported: HashMap<PathBuf, u64> = HashMap::new();
            while !done.load(Ordering::Acquire) {
                std::thread::park_timeout(Duration::from_millis(250));
                let Ok(files) = running.files.lock() else { return };
                let mut stalled: Vec<(&PathBuf, Duration)> = files
                    .iter()
                    .map(|(p, t)| (p, t.elapsed()))
                    .filter(|(_, d)| *d >= period)
                    .collect();
                stalled.sort();
                for (path, d) in stalled {
                    let periods = d.as_millis() as u64 / period.as_millis().max(1) as u64;
                    if reported.get(path) != Some(&periods) {
                        reported.insert(path.clone(), periods);
                        eprintln!("STALLED for {:.1} s: {}", d.as_secs_f64(), path.display());
                    }
                }
            }
        });
        let result = work();
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        result
    })
}
