//! Tests of the robots engine: the quarter boards' design properties, movement against a naive
//! step-by-step reference, solution checking, and the solver against a plain breadth-first
//! search over full positions.

mod boards;
mod reference;
mod slide;
mod solution;
mod solver;
mod times;
