//! Memory: the default of the memory guard, and sizes for people (parse
//! `800M` / `1.5G`, print `1.50 GiB`), which the guard's messages and the
//! progress bars use; and the allocator that counts what a WebAssembly
//! module holds.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Share of the machine's memory that the memory guard defaults to: enough for
/// the largest exhaustive searches, while leaving room for the operating
/// system and for the allocator's slack beyond the search's own estimate.
pub const DEFAULT_MEMORY_SHARE: f64 = 0.5;

/// The default memory guard: half of `MemTotal` in `/proc/meminfo`, or 4 GiB
/// where that cannot be read.
pub fn default_max_memory() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map(|kb| kb * 1024);
    match total {
        Some(bytes) => (bytes as f64 * DEFAULT_MEMORY_SHARE) as u64,
        None => 4 << 30,
    }
}

/// What the rest of the process holds now, in bytes, for a memory guard
/// that counts only its own search (`SweepOptions::memory_held`); it runs
/// on the search's worker threads, between chunks of work.
pub type HeldFn<'a> = &'a (dyn Fn() -> u64 + Sync);

/// The process's resident memory, from `/proc/self/status` (`None` where
/// there is no such file). The memory guard takes the larger of this and
/// the search's own count of its buffers, so that what the guard promises
/// holds for the whole process: the binary, thread stacks and the
/// allocator's slack, which the search's count leaves out.
///
/// It reads `/proc/self/statm` (the same figure as `VmRSS`, in pages): a
/// few numbers where `status` is forty lines, because the guard reads it
/// between the chunks of a bucket's expansion.
#[cfg(not(target_arch = "wasm32"))]
pub fn resident_bytes() -> Option<u64> {
    resident_pages().map(|pages| pages * page_size())
}

/// In WebAssembly, the bytes [`Counting`] has handed out and not taken
/// back: a module's memory never shrinks, so its size would count what
/// was freed as held.
#[cfg(target_arch = "wasm32")]
pub fn resident_bytes() -> Option<u64> {
    Some(live_bytes())
}

/// The allocator of a program that has no system figure of its memory
/// (the site's WebAssembly engine, under a hard cap on its module's
/// memory): the system's, counting the bytes handed out and not taken
/// back ([`live_bytes`]), so that its memory guards count what the cap
/// guards. A program installs it with `#[global_allocator]`.
pub struct Counting;

/// Bytes [`Counting`] has handed out and not taken back.
static LIVE: AtomicU64 = AtomicU64::new(0);

/// Bytes held through [`Counting`] now; 0 where it is not the program's
/// allocator.
pub fn live_bytes() -> u64 {
    LIVE.load(Relaxed)
}

// SAFETY: every call is passed to the system's allocator unchanged; the
// count beside it is only read.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as u64, Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as u64, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size() as u64, Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, size) };
        if !p.is_null() {
            LIVE.fetch_add(size as u64, Relaxed);
            LIVE.fetch_sub(layout.size() as u64, Relaxed);
        }
        p
    }
}

/// The process's resident bytes above `held` (what it held before a
/// search began, when that is not the search's to count): 0 where the
/// system does not say.
pub fn resident_above(held: u64) -> u64 {
    resident_bytes().unwrap_or(0).saturating_sub(held)
}

/// Resident pages, from `/proc/self/statm`.
#[cfg(not(target_arch = "wasm32"))]
fn resident_pages() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    statm.split_whitespace().nth(1)?.parse().ok()
}

/// Bytes of a memory page.
#[cfg(all(unix, not(target_arch = "wasm32")))]
fn page_size() -> u64 {
    // SAFETY: sysconf only reads a system constant.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).ok().filter(|&s| s > 0).unwrap_or(4096)
}

/// Bytes of a memory page (there is no statm off Unix anyway).
#[cfg(not(any(unix, target_arch = "wasm32")))]
fn page_size() -> u64 {
    4096
}

/// Read a size such as `800M`, `1.5G`, `2GiB` or `1000000` (bytes).
/// Suffixes K, M, G and T are powers of 1024, with or without `B`/`iB`.
pub fn parse_bytes(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_uppercase();
    let scale: u64 = match unit.trim_end_matches("IB").trim_end_matches('B') {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => {
            return Err(format!(
                "{text:?} is not a size: use a number with K, M, G or T, such as 800M or 1.5G"
            ))
        }
    };
    let value: f64 = number.parse().map_err(|_| {
        format!("{text:?} is not a size: use a number with K, M, G or T, such as 800M or 1.5G")
    })?;
    let bytes = value * scale as f64;
    if !(bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(format!(
            "{text:?} is out of range: give at least 1 byte, such as 800M or 1.5G"
        ));
    }
    Ok(bytes as u64)
}

/// A size for people: `1.50 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    #[test]
    fn sizes_parse_and_print() {
        assert_eq!(parse_bytes("800M"), Ok(800 << 20));
        assert_eq!(parse_bytes("1.5G"), Ok(3 << 29));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("lots")
            .unwrap_err()
            .contains("\"lots\" is not a size"));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("-5G").is_err());
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
        assert_eq!(format_bytes(12), "12 B");
    }

    #[test]
    fn the_counting_allocator_counts_what_it_holds() {
        let (a, before) = (Counting, live_bytes());
        let layout = Layout::from_size_align(1000, 8).unwrap();
        // SAFETY: a layout of nonzero size, freed with the same layout;
        // the grown block freed with its new size.
        unsafe {
            let p = a.alloc(layout);
            assert_eq!(live_bytes() - before, 1000);
            let q = a.realloc(p, layout, 5000);
            assert_eq!(live_bytes() - before, 5000);
            a.dealloc(q, Layout::from_size_align(5000, 8).unwrap());
            let z = a.alloc_zeroed(layout);
            assert_eq!((live_bytes() - before, *z), (1000, 0));
            a.dealloc(z, layout);
        }
        assert_eq!(live_bytes(), before);
    }

    #[test]
    fn the_default_memory_guard_is_half_the_machine() {
        let total: u64 = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemTotal:"))?
                    .split_whitespace()
                    .nth(1)?
                    .parse::<u64>()
                    .ok()
            })
            .map_or(8 << 30, |kb| kb * 1024);
        let half = default_max_memory();
        assert!(
            half.abs_diff(total / 2) <= 1,
            "{half} is not half of {total}"
        );
    }
}
