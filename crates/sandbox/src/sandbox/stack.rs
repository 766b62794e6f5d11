//! The stacks of the processes the judge clones with `CLONE_VM` (a run's
//! `init` and program process, a slot's zygote, an unsandboxed run's
//! program before its `exec`): they run on memory the judge prepared, so
//! the judge hands each one a stack it owns.

use std::mem::MaybeUninit;

/// A child's stack, reused by the next run of the same judge thread:
/// allocating and freeing it per run costs page faults and, in a
/// multi-threaded judge, TLB shootdowns.
///
/// Left uninitialised: a stack needs no zeroes, and writing them touched
/// all 32 of its pages (a page fault each, 0.05 ms per judging) where a
/// child uses two or three.
pub struct Stack(Option<Box<[MaybeUninit<u8>]>>);

thread_local! {
    static SPARE_STACKS: std::cell::RefCell<Vec<Box<[MaybeUninit<u8>]>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Stack {
    pub fn take() -> Stack {
        let spare = SPARE_STACKS
            .try_with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.pop()))
            .ok()
            .flatten();
        Stack(Some(
            spare.unwrap_or_else(|| Box::new_uninit_slice(STACK_SIZE)),
        ))
    }

    fn bytes(&self) -> &[MaybeUninit<u8>] {
        self.0.as_deref().unwrap_or(&[])
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            // At exit the thread's storage may be gone: then just free it.
            let _ = SPARE_STACKS.try_with(|s| {
                if let Ok(mut s) = s.try_borrow_mut()
                    && s.len() < 4
                {
                    s.push(b);
                }
            });
        }
    }
}

/// Size of every such stack: none of these processes does much on it.
pub const STACK_SIZE: usize = 128 * 1024;

/// The top of a stack buffer, 16-byte aligned (stacks grow down on every
/// architecture this runs on).
pub fn stack_top(stack: &Stack) -> *mut libc::c_void {
    let stack = stack.bytes();
    ((stack.as_ptr() as usize + stack.len()) & !15) as *mut libc::c_void
}
