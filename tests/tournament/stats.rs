//! The statistics against values published by fastchess and the SPRT calculators, or worked
//! out by hand (the working is in the comments).

use rollarena::tournament::elo::{Wdl, estimate, los, score_to_elo};
use rollarena::tournament::sprt::{self, EloModel, Sprt, Verdict};
use rollarena::tournament::wenglin::Ratings;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_from_score() {
    // 400 log10(3) = 190.848...
    assert!(close(score_to_elo(0.75), 190.85, 0.005));
    assert!(close(score_to_elo(0.5), 0.0, 1e-12));
    assert!(close(score_to_elo(0.25), -190.85, 0.005));
}

#[test]
fn elo_and_interval_match_fastchess() {
    // fastchess tests/elo_test.cpp: Elo(wins 0, losses 36, draws 14) = -315.34 +/- 95.43,
    // Elo(859, 772, 1329) = 10.21 +/- 9.28, Elo(1164, 1267, 3049) = -6.53 +/- 6.12, each
    // checked there to 1% (doctest's Approx(..).epsilon(0.01)), as here.
    for (w, l, d, elo, err) in [
        (0, 36, 14, -315.34, 95.43),
        (859, 772, 1329, 10.21, 9.28),
        (1164, 1267, 3049, -6.53, 6.12),
    ] {
        let e = estimate(&Wdl {
            wins: w,
            draws: d,
            losses: l,
        })
        .unwrap();
        assert!(
            close(e.elo, elo, 0.01 * elo.abs()),
            "{w}-{d}-{l}: elo {}",
            e.elo
        );
        assert!(
            close(e.error, err, 0.01 * err),
            "{w}-{d}-{l}: error {}",
            e.error
        );
    }
}

#[test]
fn likelihood_of_superiority() {
    // LOS = Phi((W - L) / sqrt(W + L)): W 10, L 5 gives Phi(5 / sqrt(15)) = Phi(1.29099)
    // = 0.901647.
    let w = Wdl {
        wins: 10,
        draws: 7,
        losses: 5,
    };
    assert!(close(los(&w), 0.901_647, 1e-6), "{}", los(&w));
    assert!(close(los(&w.flipped()), 1.0 - 0.901_647, 1e-6));
    assert_eq!(
        los(&Wdl {
            wins: 0,
            draws: 9,
            losses: 0
        }),
        0.5
    );
}

#[test]
fn sprt_llr_matches_published_and_hand_values() {
    // jw1912/SPRT's README: wins 4307, losses 4063, draws 8620, elo0 0, elo1 3, --gsprt (the
    // trinomial GSPRT that fastchess uses, logistic bounds) prints "LLR: 2.99 (-2.94, 2.94)".
    let wdl = Wdl {
        wins: 4307,
        draws: 8620,
        losses: 4063,
    };
    let logistic = Sprt::parse("0,3,0.05,0.05", EloModel::Logistic).unwrap();
    assert!(
        close(logistic.llr(&wdl), 2.99, 0.005),
        "{}",
        logistic.llr(&wdl)
    );
    let (lo, hi) = logistic.bounds();
    assert!(close(lo, -2.944, 0.001) && close(hi, 2.944, 0.001));
    assert_eq!(logistic.verdict(logistic.llr(&wdl)), Verdict::H1);
    // Normalized model, by hand: N = 16990, s = 0.507181, var = W/N + D/4N - s^2 = 0.123109;
    // s0 = 0.5, s1 = 3 sqrt(var) / (800 / ln 10) + 0.5 = 0.503030;
    // LLR = (s1 - s0)(2s - s0 - s1) / (2 var / N) = 2.369.
    let normalized = Sprt::parse("0,3,0.05,0.05", EloModel::Normalized).unwrap();
    assert!(
        close(normalized.llr(&wdl), 2.369, 0.001),
        "{}",
        normalized.llr(&wdl)
    );
    assert_eq!(normalized.verdict(normalized.llr(&wdl)), Verdict::Continue);
}

#[test]
fn sprt_stops_at_the_first_decision() {
    let test = Sprt::parse("0,100,0.05,0.05", EloModel::Logistic).unwrap();
    // Wins and losses alternating never decide; a run of wins does, and counting stops there.
    let rounds: Vec<(f64, f64)> = (0..40)
        .map(|i| {
            if i < 10 && i % 2 == 1 {
                (0.0, 1.0)
            } else {
                (1.0, 0.0)
            }
        })
        .collect();
    let report = sprt::run(&test, rounds);
    assert_eq!(report.verdict, Verdict::H1);
    let n = report.decided_after.expect("decided");
    assert!(n < 40 && report.wdl.games() == n, "{report:?}");
    assert!(report.llr >= report.upper);
}

#[test]
fn sprt_refuses_bad_parameters() {
    for bad in ["5,0,0.05,0.05", "0,5,0.05", "0,5,0.7,0.05", "a,b,c,d"] {
        assert!(Sprt::parse(bad, EloModel::Normalized).is_err(), "{bad}");
    }
}

#[test]
fn weng_lin_two_players_by_hand() {
    // Two new players (mu 25, sigma 25/3, beta 25/6); the first wins. By hand:
    // c^2 = 2 sigma^2 + 2 beta^2 = 173.611, c = 13.176; p = 0.5 for both;
    // mu' = 25 + sigma^2 / c (1 - 0.5) = 27.635; gamma = sigma / c;
    // delta = gamma sigma^2 / c^2 p (1 - p) = 0.063246; sigma' = sigma sqrt(1 - delta) = 8.0655.
    let mut r = Ratings::new(2);
    r.update(&[(0, 1), (1, 2)]);
    let (a, b) = (r.get(0), r.get(1));
    assert!(close(a.mu, 27.635, 0.001), "{a:?}");
    assert!(close(b.mu, 22.365, 0.001), "{b:?}");
    assert!(close(a.sigma, 8.0655, 0.0005) && close(b.sigma, 8.0655, 0.0005));
    assert!(close(a.ordinal, a.mu - 3.0 * a.sigma, 1e-12));
    // A tie moves nobody's mean between equals.
    let mut t = Ratings::new(2);
    t.update(&[(0, 1), (1, 1)]);
    assert!(close(t.get(0).mu, 25.0, 1e-9) && close(t.get(1).mu, 25.0, 1e-9));
}

#[test]
fn pentanomial_llr_by_hand() {
    use rollarena::tournament::penta::{Penta, halves};
    // [LL, LD, WL+DD, WD, WW] = [1, 2, 5, 3, 1]: 12 pairs, mean pair score 6.25 / 12, variance
    // per pair 0.0672743; by hand (s1 - s0)(2 s - s0 - s1) / (2 var / 12).
    let p = Penta([1, 2, 5, 3, 1]);
    assert_eq!(p.pairs(), 12);
    let logistic = Sprt::parse("0,10,0.05,0.05", EloModel::Logistic).unwrap();
    assert!(
        close(p.llr(&logistic), 0.035_003_700_338_413, 1e-12),
        "{}",
        p.llr(&logistic)
    );
    // Normalized: the bounds' scores are nelo x sqrt(2 var) / (800 / ln 10) + 1/2.
    let normalized = Sprt::parse("0,10,0.05,0.05", EloModel::Normalized).unwrap();
    assert!(close(p.llr(&normalized), 0.029_292_354_630_658, 1e-12));
    // The other side's view, and the score of a round.
    assert_eq!(p.flipped(), Penta([1, 3, 5, 2, 1]));
    assert!(p.flipped().llr(&logistic) < 0.0);
    assert_eq!(
        (halves(1.0, 0.0), halves(0.5, 0.5), halves(0.0, 1.0)),
        (2, 1, 0)
    );
    let mut q = Penta::default();
    q.add(2, 0);
    q.add(1, 1);
    q.add(2, 1);
    assert_eq!(
        q,
        Penta([0, 0, 2, 1, 0]),
        "a win and a loss is WL, two draws DD"
    );
    // No pairs or no spread: no evidence either way.
    assert_eq!(Penta::default().llr(&logistic), 0.0);
    assert_eq!(Penta([0, 0, 7, 0, 0]).llr(&logistic), 0.0);
}
