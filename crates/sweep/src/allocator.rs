//! Giving freed memory back to the system: a server that solved,
//! analyzed and played holds about what it held idle once the work is
//! over, and a search with its frontier on disk (`--spill`) holds its
//! memory guard, which counts the resident memory, not the live blocks.
//!
//! Memory the program frees is kept by glibc's allocator in two ways:
//!
//! - glibc raises its mmap threshold to the size of every large block that
//!   is freed (up to 32 MiB), and its trim threshold to twice that. After a
//!   search has freed a buffer of a few MiB, the next buffers below that
//!   size come from the arenas' heaps instead of mappings of their own, and
//!   a heap's free top is only given back above 64 MiB, which an arena
//!   (64 MiB at most) never has free. So each of the arenas the server's
//!   threads spread over (eight a core) keeps its high-water mark.
//! - Free blocks between blocks still in use are never given back by
//!   `free`, only by `malloc_trim`, which walks every arena.
//!
//! Neither a fixed threshold nor a trim alone gives the memory back;
//! together they do. So the server fixes the threshold when it starts
//! ([`tune`]) and trims after a request that grew the process
//! ([`give_back`]); a store on disk fixes it when it opens and trims
//! after it writes its buffer out ([`trim`]). The measurements behind
//! this are in docs/notebook/server-memory.md.
//!
//! Only for Linux with glibc (the allocator these calls are glibc's), and
//! only where memory is given back on purpose: searches in memory and the
//! site's WebAssembly engine keep the allocator as it is.

/// The mmap threshold the server fixes: a block of 4 MiB or more gets a
/// mapping of its own, given back whole when it is freed. Setting it also
/// stops glibc from moving it (and the trim threshold) up. What it costs
/// is a system call and fresh pages for each such block, which at 4 MiB is
/// within the noise of a solve's system time and at 1 MiB is not, for no
/// less memory kept (docs/notebook/server-memory.md).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 4 << 20;

/// Growth of the resident memory since the last trim (or the lowest point
/// seen since) after which a finished request trims: a small request's
/// garbage is not worth walking every arena for.
const GROWTH: u64 = 16 << 20;

/// Set the allocator up for a process that gives memory back: called by
/// `serve` before it takes requests and by a store on disk when it opens
/// (process-wide: searches in memory, which end with the process, do not
/// call it).
///
/// The arenas are not capped (`M_ARENA_MAX`): capped, each arena grows
/// heaps of its own and keeps more resident than the fixed threshold does,
/// and the threads of simultaneous requests wait on each other's
/// allocations.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn tune() {
    // SAFETY: mallopt only sets an allocator parameter; glibc takes it at
    // any time, from any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Nothing to set up off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn tune() {}

/// After a request's work is done (a solve, an analysis, a game's tables
/// built or its computer's turn, a puzzle check): when the process has
/// grown by [`GROWTH`] since the last trim, give the allocator's free
/// pages back to the system (`malloc_trim`). Called on the blocking thread
/// the work ran on, never on the async ones: a trim walks every arena.
pub fn give_back() {
    use std::sync::atomic::{AtomicU64, Ordering};
    /// The resident bytes after the last trim, or the lowest seen since.
    static LOW: AtomicU64 = AtomicU64::new(u64::MAX);
    let Some(now) = crate::memory::resident_bytes() else {
        return;
    };
    let low = LOW.fetch_min(now, Ordering::Relaxed).min(now);
    if now - low < GROWTH {
        return;
    }
    trim();
    if let Some(after) = crate::memory::resident_bytes() {
        LOW.store(after, Ordering::Relaxed);
    }
}

/// glibc's `malloc_trim(0)`: every arena's free pages back to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn trim() {
    // SAFETY: malloc_trim takes each arena's lock; it is safe from any
    // thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Nothing to trim off glibc.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn trim() {}
