//! Rock'n'Roll Robot: the pure engine (board, robots, moves, solutions) and an optimal solver,
//! as decided in issue 9 and documented in `protocol/games/robots.md`.
//!
//! Everything here is plain, synchronous data and functions, with no I/O and no notion of
//! seats, rounds or clocks: the game's rounds are built on top of it. A game is a [`Board`]
//! (assembled from the quarter boards of [`boards`] by a seed), the robots' [`Positions`]
//! (placed by [`place_robots`]), and a [`Token`] to reach. Robots move with [`slide()`]; a bot's
//! list of moves is read by [`parse_solution`] and judged by [`check_solution`]; [`solve`] finds
//! the shortest.
//!
//! Files: [`cell`] (naming), [`robot`] (robots, colours, positions), [`token`] (targets),
//! [`text`] (the drawing format), [`board`] (the assembled board), [`view`] (its JSON view),
//! [`boards`] (the eight quarter boards and assembly), [`mod@slide`] (movement), [`solution`]
//! (checking), [`solver`] (the optimal solver, with its transposition table in `table`),
//! [`quick`] (a cheap fallback solution). The game itself sits on top: [`game`] (the options of
//! a match and the state carried from token to token) and [`round`] (one token: declarations,
//! the hourglass, verification), with [`state`] (the typed state bots receive) and [`wire`]
//! (the game's own messages), and [`grade`] (`rollarena analyse`: each demonstration graded
//! against the optimum).

pub mod board;
pub mod boards;
pub mod cell;
pub mod game;
pub mod options;
pub mod quick;
pub mod robot;
pub mod round;
pub mod slide;
pub mod solution;
pub mod solver;
pub mod state;
mod table;
pub mod text;
pub mod token;
pub mod view;
pub mod wire;

#[cfg(test)]
mod tests;

pub use board::{Board, Diagonal, Kind, Placement};
pub use boards::Choice;
pub use cell::{Cell, Dir};
pub use game::{MatchState, RULES_VERSION, Robots, Tiebreak};
pub use quick::quick_solution;
pub use robot::{Colour, Positions, Robot, place_robots};
pub use round::{PROVE, RobotsRound};
pub use slide::{Slide, slide, slide_path};
pub use solution::{Move, check_solution, parse_solution};
pub use solver::{Budget, Solution, solve, solve_counting};
pub use state::StateView;
pub use token::{Symbol, Token};
pub use view::BoardView;
