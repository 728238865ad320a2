//! The progress display: one bar on stderr with rounds done, the rate and the time left, and
//! a line per forfeit as it happens. Hidden when stderr is not a terminal (CI logs, files);
//! forfeits are then printed as plain lines.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of a tournament, shared by every table.
pub struct Progress {
    bar: ProgressBar,
    visible: bool,
}

impl Progress {
    /// A bar over `total` rounds of which `done` were finished before (a resumed run).
    pub fn new(total: u64, done: u64, quiet: bool) -> Progress {
        let visible = !quiet && std::io::stderr().is_terminal();
        let bar = if visible {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        } else {
            // Hidden, but counting: the length and position still say what is left.
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden())
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30.cyan/blue}] {pos}/{len} rounds  {rate}  ETA {left}  {msg}",
            )
            .expect("a valid template")
            .with_key(
                "rate",
                move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate_text(done, state.pos(), state.elapsed()));
                },
            )
            .with_key(
                "left",
                move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let left = state.len().unwrap_or(0).saturating_sub(state.pos());
                    let _ = w.write_str(&eta_text(done, state.pos(), left, state.elapsed()));
                },
            )
            .progress_chars("=> "),
        );
        bar.set_position(done);
        if visible {
            bar.enable_steady_tick(Duration::from_millis(250));
        }
        Progress { bar, visible }
    }

    pub fn round_done(&self) {
        self.bar.inc(1);
    }

    /// A table's match ended by the game's rules `n` rounds before its cap (a race whose tokens ran out): those
    /// rounds will never be played, so they leave the total rather than count as done (which
    /// would inflate the rate and shorten the ETA).
    pub fn never_played(&self, n: u64) {
        self.bar.dec_length(n);
    }

    /// The bar's position and length: rounds done, and rounds done or still to play.
    pub fn counts(&self) -> (u64, u64) {
        (self.bar.position(), self.bar.length().unwrap_or(0))
    }

    /// How many tables are playing now.
    pub fn running(&self, tables: usize) {
        let noun = if tables == 1 { "table" } else { "tables" };
        self.bar.set_message(format!("{tables} {noun} playing"));
    }

    /// A line above the bar (or on stderr when the bar is hidden).
    pub fn note(&self, line: &str) {
        if self.visible {
            self.bar.println(line);
        } else {
            eprintln!("{line}");
        }
    }

    pub fn finish(&self) {
        if self.visible {
            self.bar.finish_and_clear();
        }
    }

    /// Seconds since the bar started, and rounds played in this run.
    pub fn elapsed(&self) -> Duration {
        self.bar.elapsed()
    }
}

/// The rate of this run: rounds played since it started (not those kept from before a resume,
/// which took no time in it) over the time it has run; "-" before its first round.
fn rate_text(done_before: u64, pos: u64, elapsed: Duration) -> String {
    let played = pos.saturating_sub(done_before);
    let secs = elapsed.as_secs_f64();
    if played == 0 || secs <= 0.0 {
        return "- rounds/s".into();
    }
    format!("{:.1} rounds/s", played as f64 / secs)
}

/// The time left at this run's rate, as H:MM:SS; "-" before the rate is known.
fn eta_text(done_before: u64, pos: u64, left: u64, elapsed: Duration) -> String {
    let played = pos.saturating_sub(done_before);
    if played == 0 || elapsed.is_zero() {
        return "-".into();
    }
    let secs = (left as f64 * elapsed.as_secs_f64() / played as f64).round() as u64;
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before: the first frame after resuming 2,355 rounds read `2355272.0 rounds/s`.
    #[test]
    fn the_rate_after_a_resume_counts_this_run_only() {
        let ms = Duration::from_millis;
        assert_eq!(rate_text(2355, 2355, ms(1)), "- rounds/s");
        assert_eq!(
            rate_text(2355, 2375, Duration::from_secs(10)),
            "2.0 rounds/s"
        );
        assert_eq!(rate_text(0, 0, Duration::ZERO), "- rounds/s");
        assert_eq!(eta_text(2355, 2355, 100, ms(1)), "-");
        // 20 rounds in 10 s, 7200 left: an hour.
        assert_eq!(
            eta_text(2355, 2375, 7200, Duration::from_secs(10)),
            "1:00:00"
        );
    }

    #[test]
    fn rounds_a_table_will_never_play_leave_the_total() {
        // Two tables capped at 10 rounds; one match ends by the rules after 4.
        let p = Progress::new(20, 0, true);
        for _ in 0..4 {
            p.round_done();
        }
        p.never_played(6);
        assert_eq!(p.counts(), (4, 14), "4 done of the 14 that will be played");
        for _ in 0..10 {
            p.round_done();
        }
        assert_eq!(p.counts(), (14, 14), "finished: the bar is full");
    }
}
