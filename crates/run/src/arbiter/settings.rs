//! The values every match is played with (rounds, the time per move, the start-up time),
//! checked by one rule each whether they come from `match`'s flags, a tournament file or a
//! tournament's command-line override, so that the same value is never accepted by one and
//! refused, or silently changed, by another. Each check returns what is wrong in the user's
//! terms; the caller names where the value came from (the flag, or the file's key).

use std::time::Duration;

use crate::Error;

/// Most rounds a match (a tournament's table) may have.
pub const MAX_ROUNDS: u32 = 1_000_000;

/// Rounds of a match: at least one.
pub fn rounds(rounds: u32) -> Result<u32, Error> {
    match rounds {
        0 => Err(Error::Settings(
            "0 rounds would play nothing: give at least 1".into(),
        )),
        r if r > MAX_ROUNDS => Err(Error::Settings(format!(
            "{r} rounds is more than {MAX_ROUNDS}"
        ))),
        r => Ok(r),
    }
}

/// The time per move: more than nothing (a bot told `time_ms` 0 could never answer in time).
pub fn per_move(time: Duration) -> Result<Duration, Error> {
    if time.is_zero() {
        return Err(Error::Settings(
            "the time per move must be more than 0 (e.g. 500ms, 5s or 1m)".into(),
        ));
    }
    Ok(time)
}

/// A seat's time bank for a round: more than nothing (a bank of 0 could pay for no answer).
pub fn bank(bank: Duration) -> Result<Duration, Error> {
    if bank.is_zero() {
        return Err(Error::Settings(
            "the time bank must be more than 0 (e.g. 2m, or 2m+100ms)".into(),
        ));
    }
    Ok(bank)
}

/// The time from `hello` to `ready`: more than nothing.
pub fn startup(time: Duration) -> Result<Duration, Error> {
    if time.is_zero() {
        return Err(Error::Settings(
            "the start-up time must be more than 0 (e.g. 10s)".into(),
        ));
    }
    Ok(time)
}

/// Tables played at once: at least one (leaving the setting out means one per core).
pub fn jobs(jobs: usize) -> Result<usize, Error> {
    match jobs {
        0 => Err(Error::Settings(
            "0 tables at once would play nothing: give at least 1, or leave it out for \
                  one per core"
                .into(),
        )),
        j => Ok(j),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_silently_changed() {
        let zero = rounds(0).unwrap_err();
        assert!(matches!(zero, crate::Error::Settings(_)));
        assert_eq!(
            zero.to_string(),
            "0 rounds would play nothing: give at least 1"
        );
        assert_eq!(rounds(1).ok(), Some(1));
        assert!(rounds(MAX_ROUNDS + 1).is_err());
        assert!(
            per_move(Duration::ZERO)
                .unwrap_err()
                .to_string()
                .contains("more than 0")
        );
        assert_eq!(
            per_move(Duration::from_millis(1)).ok(),
            Some(Duration::from_millis(1))
        );
        assert!(startup(Duration::ZERO).is_err());
        assert!(
            bank(Duration::ZERO)
                .unwrap_err()
                .to_string()
                .contains("more than 0")
        );
        assert!(jobs(0).unwrap_err().to_string().contains("one per core"));
        assert_eq!(jobs(3).ok(), Some(3));
    }
}
