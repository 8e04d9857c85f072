/// Bytes the engine's module may ever hold. The linker caps its memory
/// here (build.rs), so that a search the guards misjudged stops the
/// page's worker with a plain error instead of the browser killing the
/// page (a phone's browser kills a page near 1 GB); the databases, tables
/// and searches are fitted within it by the live bytes
/// ([`crate::room`]).
pub const MAX_MEMORY: u64 = 256 << 20;
