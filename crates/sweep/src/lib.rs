//! The search: the best single turn, exhaustively ([`exact`]) or by a
//! beam ([`beam`]) on boards too big to exhaust.
//!
//! This layer sits on [`rules`] and adds what makes the answers fast
//! and exact at scale: packed rings and SIMD kernels ([`kernel`], chosen once
//! per search), compact keys, a frontier store, worker threads
//! (`control`) and its own errors ([`error`]). It knows nothing of the
//! command line or the file formats.

pub mod allocator;
pub mod beam;
pub(crate) mod control;
pub mod error;
pub mod exact;
pub mod kernel;
pub mod memory;

pub use beam::{find, FindOptions, FindProgress, Found};
pub use error::{Reached, SearchError, StopCause};
pub use exact::{solve, DiskUse, Listing, Phase, Progress, Solution, SweepOptions, Within};
pub use kernel::{Kernel, KernelChoice};
pub use memory::{default_max_memory, format_bytes, parse_bytes, HeldFn};
