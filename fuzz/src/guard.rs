//! Runs a stage under `catch_unwind`, so a panic in atomc is one classified outcome instead of
//! the end of the run, and keeps the default panic message off the terminal while it does (the
//! message is in the outcome; a panic outside a guarded stage still prints as usual).

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    /// Where the last guarded panic happened.
    static WHERE: RefCell<String> = const { RefCell::new(String::new()) };
}

fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(|g| g.get()) {
                let at = info
                    .location()
                    .map(|l| format!(" (at {}:{})", l.file(), l.line()))
                    .unwrap_or_default();
                WHERE.with(|w| *w.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// `f()`, or the panic's message (with its location when known).
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    GUARDED.with(|g| g.set(true));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(false));
    r.map_err(|payload| {
        let msg = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "panic with a non-text payload".to_string()
        };
        msg + &WHERE.with(|w| std::mem::take(&mut *w.borrow_mut()))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn catches_a_panic() {
        let r: Result<(), String> = super::guarded(|| panic!("boom {}", 1));
        assert!(r.is_err_and(|m| m.starts_with("boom 1 (at ")));
        assert_eq!(super::guarded(|| 5), Ok(5));
    }
}
