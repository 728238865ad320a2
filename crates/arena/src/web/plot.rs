//! The rating history of a team as an SVG line chart, drawn from the data by the template
//! engine (no script, no image file): the conservative rating (μ - 3σ) after each rated
//! match, one line, with the first and last values and the range written on the axis.

use maud::{Markup, html};

use crate::views::HistoryPoint;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 200.0;
const PAD: f64 = 36.0;

/// The chart, or a sentence when there is nothing to draw yet.
pub fn history(points: &[HistoryPoint]) -> Markup {
    if points.is_empty() {
        return html! { p.muted { "No rated match yet." } };
    }
    let lo = points
        .iter()
        .map(|p| p.conservative)
        .fold(f64::INFINITY, f64::min);
    let hi = points
        .iter()
        .map(|p| p.conservative)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = if hi - lo < 1e-9 { 1.0 } else { hi - lo };
    let n = points.len();
    let x = |i: usize| {
        if n == 1 {
            WIDTH / 2.0
        } else {
            PAD + (WIDTH - 2.0 * PAD) * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| HEIGHT - PAD - (HEIGHT - 2.0 * PAD) * (v - lo) / span;
    let line: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.conservative)))
        .collect();
    let last = &points[n - 1];
    html! {
        svg.plot viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) role="img"
            aria-label=(format!("Conservative rating over {n} matches, from {:.2} to {:.2}",
                points[0].conservative, last.conservative)) {
            line.axis x1=(PAD) y1=(HEIGHT - PAD) x2=(WIDTH - PAD) y2=(HEIGHT - PAD) {}
            line.axis x1=(PAD) y1=(PAD) x2=(PAD) y2=(HEIGHT - PAD) {}
            text x=(4) y=(y(hi) + 4.0) { (format!("{hi:.1}")) }
            text x=(4) y=(y(lo) + 4.0) { (format!("{lo:.1}")) }
            text x=(PAD) y=(HEIGHT - 8.0) { "match " (points[0].match_id) }
            text x=(WIDTH - PAD) y=(HEIGHT - 8.0) text-anchor="end" { "match " (last.match_id) }
            polyline.series points=(line.join(" ")) {}
            @if n <= 200 {
                @for (i, p) in points.iter().enumerate() {
                    circle cx=(format!("{:.1}", x(i))) cy=(format!("{:.1}", y(p.conservative))) r="2.5" {
                        title { "match " (p.match_id) ": " (format!("{:.2}", p.conservative)) }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(match_id: i64, conservative: f64) -> HistoryPoint {
        HistoryPoint {
            match_id: crate::store::MatchId(match_id),
            at: 0,
            version_id: crate::store::VersionId(1),
            conservative,
        }
    }

    #[test]
    fn the_line_follows_the_data() {
        let svg = history(&[point(1, 0.0), point(2, 10.0), point(3, 5.0)]).into_string();
        // Highest value at the top (y = PAD), lowest at the bottom (y = HEIGHT - PAD).
        assert!(
            svg.contains("points=\"36.0,164.0 320.0,36.0 604.0,100.0\""),
            "{svg}"
        );
        assert!(svg.contains("match 3: 5.00"), "{svg}");
        assert!(history(&[]).into_string().contains("No rated match yet"));
    }
}
