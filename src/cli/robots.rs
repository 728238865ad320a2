//! The command-line options of Rock'n'Roll Robot (`--game robots`), shared by `match` and
//! turned into the game's [`Robots`] rules here, with the checks a user needs to hear about.

use std::time::Duration;

use clap::Args;

use crate::duration::parse_duration;
use crate::game::robots::{Robots, Tiebreak};

/// Options of `--game robots` (ignored by no other game: giving them there is an error).
#[derive(Args, Debug, Default)]
pub struct RobotsArgs {
    /// robots: boards on side A only, without the coloured diagonal walls (the rules advise
    /// it for first games).
    #[arg(long)]
    no_diagonals: bool,
    /// robots: the black robot variant (a fifth robot, moved like the others; it may take
    /// the vortex).
    #[arg(long)]
    black: bool,
    /// robots: the hourglass, turned by the first declaration [default: 60s].
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    hourglass: Option<Duration>,
    /// robots: with no declaration by then, the hourglass is turned anyway [default: 5m].
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    first_declaration: Option<Duration>,
    /// robots: time to answer `prove` with the moves [default: 60s].
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    prove_time: Option<Duration>,
    /// robots: break ties between equal declarations by the CPU time the bots had used when
    /// declaring, not by who declared first (for machines where bots share cores).
    #[arg(long)]
    cpu_tiebreak: bool,
}

impl RobotsArgs {
    /// The rules for `players` seats with these options.
    pub fn game(&self, players: usize) -> Result<Robots, String> {
        let mut g = Robots::new(players)?;
        g.diagonals = !self.no_diagonals;
        g.black = self.black;
        let ms = |d: Option<Duration>, default: u64, what: &str| -> Result<u64, String> {
            match d {
                None => Ok(default),
                Some(d) if d.is_zero() => Err(format!("--{what} must be longer than 0")),
                Some(d) => Ok(d.as_millis() as u64),
            }
        };
        g.hourglass_ms = ms(self.hourglass, g.hourglass_ms, "hourglass")?;
        g.first_declaration_ms = ms(
            self.first_declaration,
            g.first_declaration_ms,
            "first-declaration",
        )?;
        g.prove_ms = ms(self.prove_time, g.prove_ms, "prove-time")?;
        if self.cpu_tiebreak {
            g.tiebreak = Tiebreak::Cpu;
        }
        Ok(g)
    }

    /// An error when robots options are given for another game.
    pub fn refuse_for(&self, game: &str) -> Result<(), String> {
        let given = [
            ("--no-diagonals", self.no_diagonals),
            ("--black", self.black),
            ("--hourglass", self.hourglass.is_some()),
            ("--first-declaration", self.first_declaration.is_some()),
            ("--prove-time", self.prove_time.is_some()),
            ("--cpu-tiebreak", self.cpu_tiebreak),
        ];
        match given.iter().find(|(_, on)| *on) {
            Some((flag, _)) => Err(format!(
                "{flag} is an option of --game robots, not of {game}"
            )),
            None => Ok(()),
        }
    }
}
