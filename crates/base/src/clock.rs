//! The clock of every deadline and every "seconds" the library reports.
//!
//! On every platform with an operating system this is `std::time::Instant`
//! itself. In the browser (`wasm32-unknown-unknown`) std has no clock and
//! `Instant::now()` panics, so there the engine asks its host: the module
//! imports `mancala_sweep.now_ms`, which the static site's worker gives as
//! `performance.now()` (`web/engine.js`). Nothing else of the library
//! needs the host, and a native build never sees this.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use host::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "mancala_sweep")]
    extern "C" {
        /// Milliseconds since some start, never going back.
        fn now_ms() -> f64;
    }

    /// A moment, in the host's milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; the
            // host gives it when it instantiates the module.
            Instant(unsafe { now_ms() })
        }

        /// Time since `earlier`, zero when it is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }

        /// Time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
