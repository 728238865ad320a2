//! Durations as people write them (`60s`, `1500ms`, `2m`), for the command line and the
//! tournament file alike, and millisecond figures at the precision records keep.

use std::time::Duration;

/// Rounds a ms figure to the microsecond, the precision records keep.
///
/// A value rounded here is the double nearest to a decimal with at most three decimals, so it
/// is written as that decimal and reads back as the very same double, whatever the JSON
/// parser: anything computed from round times that is recorded (a deadline, the end of an
/// hourglass) must be rounded here where it is made, or a replay would compare the rules' value
/// with a record that could not hold it.
pub fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// A duration or a time control written wrong; the text says how to write it. It is its own
/// small type (nested in [`crate::Error`]) because it sits below the crate's error, and
/// because callers fold it into their own messages (`--tc: ...`, an option's name).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadDuration(pub String);

/// Parses a duration such as `60s`, `1500ms`, `2m` or a bare number of seconds.
pub fn parse_duration(s: &str) -> Result<Duration, BadDuration> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !(c.is_ascii_digit() || c == '.')) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, "s"),
    };
    let value: f64 = num.parse().map_err(|_| {
        BadDuration(format!(
            "{s:?} is not a duration: use e.g. 60s, 500ms or 2m"
        ))
    })?;
    let secs = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" | "min" => value * 60.0,
        _ => {
            return Err(BadDuration(format!(
                "{s:?}: unknown unit {unit:?}; use ms, s or m"
            )));
        }
    };
    if !secs.is_finite() || !(0.0..=86_400.0).contains(&secs) {
        return Err(BadDuration(format!(
            "{s:?} is out of range (0 to 24 hours)"
        )));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("60s"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("1500ms"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("5h").unwrap_err().0.contains("unknown unit"));
    }
}
