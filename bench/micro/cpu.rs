//! The benchmarks' clock: CPU time of the calling thread. The machine may be shared, and
//! wall-clock time would count the time other processes ran; a rate per CPU second is the
//! figure that stays comparable from run to run.

use std::time::Duration;

/// CPU time of this thread so far.
pub fn cpu() -> Duration {
    rollarena::game::bot::thread_cpu()
}
