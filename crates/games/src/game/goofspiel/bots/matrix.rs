//! Zero-sum matrix games solved exactly: the row player's optimal mixed strategy and the
//! game's value, by the simplex method on the textbook linear program (payoffs shifted to be
//! positive; maximise `sum y` subject to `A y <= 1`, `y >= 0`; the value is `1 / sum y`, the
//! column strategy `y` scaled by it, the row strategy the slacks' shadow prices scaled alike).
//!
//! Written here rather than taken from a linear-programming crate: the two-player Goofspiel
//! search solves hundreds of thousands of games of at most 13 by 13 per decision, where the
//! cost of building a general model would dwarf the pivots.

/// Payoffs to the row player, row-major, `rows` by `cols`.
#[derive(Clone, Debug)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    pub a: Vec<f64>,
}

/// A solved game.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The value of the game to the row player.
    pub value: f64,
    /// The row player's optimal mixed strategy (sums to 1).
    pub row: Vec<f64>,
}

impl Matrix {
    pub fn new(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            a: vec![0.0; rows * cols],
        }
    }

    pub fn at(&self, r: usize, c: usize) -> f64 {
        self.a[r * self.cols + c]
    }

    pub fn set(&mut self, r: usize, c: usize, v: f64) {
        self.a[r * self.cols + c] = v;
    }

    /// Solves the game (the row player maximises).
    pub fn solve(&self) -> Solution {
        let (m, n) = (self.rows, self.cols);
        assert!(m > 0 && n > 0, "an empty game");
        let lo = self.a.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = self.a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if hi - lo < 1e-12 {
            return Solution {
                value: lo,
                row: vec![1.0 / m as f64; m],
            };
        }
        // Shift so that every payoff is at least 1.
        let shift = 1.0 - lo;
        // Tableau: m constraint rows of n + m columns and the right-hand side, then the
        // objective row (reduced costs, negated: a negative entry can still improve).
        let width = n + m + 1;
        let mut t = vec![0.0; (m + 1) * width];
        for r in 0..m {
            for c in 0..n {
                t[r * width + c] = self.at(r, c) + shift;
            }
            t[r * width + n + r] = 1.0;
            t[r * width + width - 1] = 1.0;
        }
        for c in 0..n {
            t[m * width + c] = -1.0;
        }
        let mut basis: Vec<usize> = (n..n + m).collect();
        for _ in 0..1000 * (m + n) {
            // Bland's rule: the first column that can improve, and among the rows tied in the
            // ratio test the one whose basic variable comes first. Payoffs here are often
            // equal (decided positions), and the steepest rule can cycle on such games.
            let Some(enter) = (0..width - 1).find(|&c| t[m * width + c] < -1e-12) else {
                break;
            };
            let mut leave: Option<usize> = None;
            let mut best = f64::INFINITY;
            for r in 0..m {
                let p = t[r * width + enter];
                if p > 1e-12 {
                    let ratio = t[r * width + width - 1] / p;
                    let better = match leave {
                        None => true,
                        Some(l) => {
                            ratio < best - 1e-12 || (ratio < best + 1e-12 && basis[r] < basis[l])
                        }
                    };
                    if better {
                        best = ratio;
                        leave = Some(r);
                    }
                }
            }
            let Some(lr) = leave else { break };
            let p = t[lr * width + enter];
            for c in 0..width {
                t[lr * width + c] /= p;
            }
            for r in 0..=m {
                if r == lr {
                    continue;
                }
                let f = t[r * width + enter];
                if f != 0.0 {
                    for c in 0..width {
                        t[r * width + c] -= f * t[lr * width + c];
                    }
                }
            }
            basis[lr] = enter;
        }
        let total = t[m * width + width - 1];
        let value = 1.0 / total;
        let mut row: Vec<f64> = (0..m)
            .map(|r| (t[m * width + n + r] * value).max(0.0))
            .collect();
        let sum: f64 = row.iter().sum();
        if sum > 0.0 {
            row.iter_mut().for_each(|x| *x /= sum);
        } else {
            row = vec![1.0 / m as f64; m];
        }
        Solution {
            value: value - shift,
            row,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(rows: usize, cols: usize, a: &[f64]) -> Solution {
        Matrix {
            rows,
            cols,
            a: a.to_vec(),
        }
        .solve()
    }

    #[test]
    fn matching_pennies_is_a_fair_coin() {
        let s = game(2, 2, &[1.0, -1.0, -1.0, 1.0]);
        assert!(s.value.abs() < 1e-9, "{s:?}");
        assert!((s.row[0] - 0.5).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn rock_paper_scissors_is_uniform() {
        let s = game(3, 3, &[0., -1., 1., 1., 0., -1., -1., 1., 0.]);
        assert!(s.value.abs() < 1e-9);
        for p in s.row {
            assert!((p - 1.0 / 3.0).abs() < 1e-9);
        }
    }

    #[test]
    fn a_dominant_row_is_played_for_sure() {
        // Row 1 beats row 0 whatever the column: value 2, the saddle point.
        let s = game(2, 3, &[1.0, 0.0, 3.0, 2.0, 4.0, 5.0]);
        assert!((s.value - 2.0).abs() < 1e-9, "{s:?}");
        assert!((s.row[1] - 1.0).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn an_asymmetric_mix() {
        // [[3, -1], [-2, 1]]: p = 3/7 on row 0, value 1/7.
        let s = game(2, 2, &[3.0, -1.0, -2.0, 1.0]);
        assert!((s.value - 1.0 / 7.0).abs() < 1e-9, "{s:?}");
        assert!((s.row[0] - 3.0 / 7.0).abs() < 1e-9, "{s:?}");
    }
}

#[cfg(test)]
mod random_games {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_row_strategy_guarantees_the_value_and_no_row_does_better() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..2000 {
            let (m, n) = (rng.random_range(1..14), rng.random_range(1..14));
            let mut g = Matrix::new(m, n);
            // Half the games degenerate: payoffs of -1, 0 and 1 only, as decided positions give.
            let coarse = rng.random_bool(0.5);
            for v in g.a.iter_mut() {
                *v = if coarse {
                    f64::from(rng.random_range(-1i32..=1))
                } else {
                    rng.random_range(-1.0..1.0)
                };
            }
            let s = g.solve();
            // Against every column the mix gets at least the value...
            for c in 0..n {
                let got: f64 = (0..m).map(|r| s.row[r] * g.at(r, c)).sum();
                assert!(got >= s.value - 1e-7, "{g:?} {s:?} column {c}: {got}");
            }
            // ...and the value is the minimax: some column holds every row to it (a pure
            // column, or the value would be above every pure row's worst).
            let best_pure = (0..m)
                .map(|r| (0..n).map(|c| g.at(r, c)).fold(f64::INFINITY, f64::min))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(s.value >= best_pure - 1e-7, "{g:?} {s:?}");
        }
    }
}
