//! Links GCC's unwinder into the `grundy` executables instead of loading
//! `libgcc_s.so.1` at every start.
//!
//! Rust's standard library asks the linker for `-lgcc_s` (panics unwind
//! through it). Loading that shared library costs every start of `grundy`
//! a file to map and its constructor, which runs `cpuid` a dozen times: on
//! a virtual machine each `cpuid` leaves the guest (about 6 µs here), and
//! the two together were about 0.1 ms of a judging's 2–3 ms of start-up.
//! GCC ships the same unwinder as a static archive, `libgcc_eh.a`, which
//! `gcc -static-libgcc` uses; a linker script named `libgcc_s.so`, found
//! before the real one, makes `-lgcc_s` mean that archive. Panics unwind
//! and are caught as before (`tests/linking.rs`).
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    // Only where the unwinder is GCC's and the toolchain is GNU's.
    if !(target.ends_with("-linux-gnu") && target.starts_with("x86_64")) {
        return;
    }
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        return;
    };
    let dir = out.join("static-libgcc");
    if std::fs::create_dir_all(&dir).is_err()
        || std::fs::write(dir.join("libgcc_s.so"), "INPUT(-lgcc_eh)\n").is_err()
    {
        // The shared unwinder then, as without this script.
        println!("cargo:warning=cannot write the libgcc_s linker script: linking libgcc_s.so");
        return;
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
}
