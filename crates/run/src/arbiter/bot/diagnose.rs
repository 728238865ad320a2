//! What a bot that failed did wrong, as a [`Failure`] with its evidence: a crash (and why: the
//! memory, CPU time or file size limit), a stdout closed while the process ran on, a line over
//! the limit.

use std::time::Duration;

use tokio::time::{Instant, timeout_at};

use super::{Bot, Failure};
use crate::arbiter::io::{BotEvent, ExitInfo};
use crate::record::fault::{EVIDENCE as LINE_EVIDENCE, ForfeitKind, evidence};

/// How long a bot that closed its stdout has to exit before it counts as "closed stdout"
/// rather than a crash.
pub(super) const EXIT_GRACE: Duration = Duration::from_secs(1);

impl Bot {
    pub(super) fn too_long(&self, head: &[u8]) -> Failure {
        let mut f = Failure::new(
            ForfeitKind::LineTooLong,
            format!("a line longer than {} bytes", self.limits.max_line),
        );
        f.line = Some(evidence(head, LINE_EVIDENCE));
        f
    }

    pub(super) fn crashed(&mut self, info: ExitInfo) -> Failure {
        self.exited = Some(info.clone());
        let mut detail = format!("the bot {info}");
        if let Some(c) = &self.cgroups {
            let (hit, peak) = c.memory_report();
            if hit {
                detail.push_str(&format!(
                    ": it reached its memory limit ({} MiB used at the peak)",
                    peak.unwrap_or(0) >> 20
                ));
            }
        }
        if info.signal == Some(libc::SIGXCPU) {
            detail.push_str(": it used up its CPU time limit");
        }
        if info.signal == Some(libc::SIGXFSZ) {
            detail.push_str(": it wrote a file larger than its file size limit");
        }
        let mut f = Failure::new(ForfeitKind::Crash, detail);
        f.exit = Some(info);
        f
    }

    /// stdout closed: a crash if the process exits soon, else "closed stdout".
    pub(super) async fn died_waiting(&mut self, deadline: Instant) -> Failure {
        self.eof = true;
        let grace = deadline.min(Instant::now() + EXIT_GRACE);
        loop {
            match timeout_at(grace, self.events.recv()).await {
                Ok(Some(BotEvent::Exited(info))) => return self.crashed(info),
                Ok(Some(_)) => continue,
                Ok(None) | Err(_) => {
                    return Failure::new(
                        ForfeitKind::ClosedStdout,
                        "the bot closed its stdout but kept running",
                    );
                }
            }
        }
    }
}
