//! Turning panics into failures: a panic inside a test file is reported as
//! that file's failure, with its message and location, and does not print
//! the default panic message in the middle of the report.

use std::cell::Cell;
use std::sync::{Mutex, Once};

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
}

static LAST: Mutex<Vec<(std::thread::ThreadId, String)>> = Mutex::new(Vec::new());
static INSTALL: Once = Once::new();

/// Installs (once per process) a panic hook that records the message and
/// location of panics on threads inside [`catch`], and defers to the
/// previous hook everywhere else.
pub fn install() {
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CAPTURING.with(Cell::get) {
                let msg = match info.location() {
                    Some(l) => format!(
                        "{} at {}:{}",
                        crate::panic_message_of(info.payload()),
                        l.file(),
                        l.line()
                    ),
                    None => crate::panic_message_of(info.payload()),
                };
                if let Ok(mut last) = LAST.lock() {
                    last.retain(|(t, _)| *t != std::thread::current().id());
                    last.push((std::thread::current().id(), msg));
                }
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, returning the panic's message and location if it panics.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    install();
    let was = CAPTURING.with(|c| c.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CAPTURING.with(|c| c.set(was));
    result.map_err(|payload| {
        let me = std::thread::current().id();
        let recorded = LAST.lock().ok().and_then(|mut last| {
            let i = last.iter().position(|(t, _)| *t == me)?;
            Some(last.swap_remove(i).1)
        });
        recorded.unwrap_or_else(|| crate::panic_message(&payload))
    })
}
