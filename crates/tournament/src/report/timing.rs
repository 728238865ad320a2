//! A bot's time per move: median, p90, max, mean and a histogram on 1-2-5 bins, from the
//! wall times (ms) of the moves it played itself.

use serde_json::{Value, json};

/// The summary of `ms` (any order); `null` fields when there are no moves.
pub fn summary(mut ms: Vec<f64>) -> Value {
    ms.retain(|m| m.is_finite());
    if ms.is_empty() {
        return json!({"moves": 0});
    }
    ms.sort_by(f64::total_cmp);
    let n = ms.len();
    // Nearest rank: the smallest value with at least q of the moves at or below it.
    let rank = |q: f64| ms[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
    let mean = ms.iter().sum::<f64>() / n as f64;
    json!({
        "moves": n,
        "median": round3(rank(0.5)),
        "p90": round3(rank(0.9)),
        "max": round3(ms[n - 1]),
        "mean": round3(mean),
        "histogram": histogram(&ms),
    })
}

/// Bins with 1-2-5 edges (0.01, 0.02, 0.05, 0.1 ms, ...) from the one holding the fastest move
/// to the one holding the slowest: `[{lo, hi, n}]`, `lo` inclusive.
fn histogram(sorted: &[f64]) -> Vec<Value> {
    let edges = edges(sorted[0], sorted[sorted.len() - 1]);
    let mut bins = Vec::with_capacity(edges.len() - 1);
    let mut i = 0;
    for w in edges.windows(2) {
        let start = i;
        while i < sorted.len() && (sorted[i] < w[1] || w[1] == *edges.last().expect("edges")) {
            i += 1;
        }
        bins.push(json!({"lo": w[0], "hi": w[1], "n": i - start}));
    }
    bins
}

/// 1-2-5 edges covering `[lo, hi]`, at least two, starting at 0 for moves under 0.01 ms.
fn edges(lo: f64, hi: f64) -> Vec<f64> {
    let mut all = vec![0.0];
    let mut decade = 0.01;
    while all.len() < 64 {
        for m in [1.0, 2.0, 5.0] {
            all.push(round3(m * decade));
        }
        decade *= 10.0;
    }
    // The bins that matter: from the last edge at or below lo to the first above hi.
    let first = all.iter().rposition(|&e| e <= lo).unwrap_or(0);
    let last = all
        .iter()
        .position(|&e| e > hi)
        .unwrap_or(all.len() - 1)
        .max(first + 1);
    all[first..=last].to_vec()
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_and_bins() {
        let s = summary(vec![5.0, 1.0, 3.0, 2.0, 4.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(s["median"], 5.0);
        assert_eq!(s["p90"], 9.0);
        assert_eq!(s["max"], 10.0);
        let bins = s["histogram"].as_array().unwrap();
        let total: u64 = bins.iter().map(|b| b["n"].as_u64().unwrap()).sum();
        assert_eq!(total, 10);
        assert_eq!(bins[0]["lo"], 1.0);
        assert_eq!(bins.last().unwrap()["hi"], 20.0);
    }

    #[test]
    fn no_moves() {
        assert_eq!(summary(vec![])["moves"], 0);
        assert_eq!(summary(vec![0.0])["histogram"][0]["n"], 1);
    }
}
