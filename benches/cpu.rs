//! The benchmarks' clock: CPU time of the calling thread. The machine may be shared, and
//! wall-clock time would count the time other processes ran; a rate per CPU second is the
//! figure that stays comparable from run to run.

use std::time::Duration;

/// CPU time of this thread so far.
pub fn cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
