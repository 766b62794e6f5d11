//! The calling thread's `errno`, read without allocating: the children of
//! a run (`child.rs`, `zygote.rs`, `seccomp.rs`, `view/mount.rs`) share the
//! judge's memory and may only make raw system calls.

pub fn errno() -> i32 {
    // SAFETY: reading the calling thread's errno.
    unsafe { *libc::__errno_location() }
}
