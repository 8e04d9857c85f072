//! The module's memory capped at [`MAX_MEMORY`] (src/cap.rs, the one
//! place the figure is written), for the WebAssembly build only.

include!("src/cap.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/cap.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--max-memory={MAX_MEMORY}");
    }
}
