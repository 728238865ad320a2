//! The arena server's library: an arena is a directory (`DIR/arena.toml`, the SQLite database
//! `DIR/arena.db`, the submissions' files and the records) that teams submit bots to, and
//! that builds, checks and rates them in a continuous ladder.
//!
//! It sits above `tournament` and `report` (it uses their ratings, SPRT, runner and viewer)
//! and below `cli`. The parts:
//! - [`db`]: the database, its migrations, and the time the database stores;
//! - [`tokens`]: the organiser's, teams' and workers' tokens, stored only as hashes;
//! - [`views`]: what the pages and the JSON API show, read from the database;
//! - [`web`]: the server's routes, templates, logins and API.
//!
//! The web layer (routes and templates) stays thin over plain functions of this module that
//! tests call directly.

pub mod db;
pub mod tokens;
pub mod views;
