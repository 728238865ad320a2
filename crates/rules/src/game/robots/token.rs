//! The 17 target tokens: four symbols in each of the four colours, and the chromatic vortex.
//!
//! A token names both the target cell of the board (each token's cell appears exactly once on
//! every assembled board) and which robot must reach it: the robot of the token's colour, or any
//! robot for the vortex. Tokens are written `"red-moon"` ... `"yellow-planet"` and `"vortex"`.

use std::fmt;
use std::str::FromStr;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::robot::{Colour, Robot};
use crate::Error;

/// The four target symbols.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Symbol {
    Moon,
    Star,
    Gear,
    Planet,
}

impl Symbol {
    pub const ALL: [Symbol; 4] = [Symbol::Moon, Symbol::Star, Symbol::Gear, Symbol::Planet];
    pub const fn name(self) -> &'static str {
        ["moon", "star", "gear", "planet"][self as usize]
    }
    /// The letter of board drawings: `m`, `s`, `g`, `p`.
    pub const fn letter(self) -> char {
        ['m', 's', 'g', 'p'][self as usize]
    }
}

/// A target token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Token {
    /// The robot of this colour must reach the target of this colour and symbol.
    Target(Colour, Symbol),
    /// Any robot (the black one too) must reach the vortex.
    Vortex,
}

impl Token {
    /// The 17 tokens: the four colours' moon, star, gear and planet, then the vortex.
    pub fn all() -> [Token; 17] {
        let mut all = [Token::Vortex; 17];
        for (i, c) in Colour::ALL.into_iter().enumerate() {
            for (j, s) in Symbol::ALL.into_iter().enumerate() {
                all[i * 4 + j] = Token::Target(c, s);
            }
        }
        all
    }
    /// The robot that must reach the target; `None` for the vortex (any robot).
    pub fn robot(self) -> Option<Robot> {
        match self {
            Token::Target(c, _) => Some(c.robot()),
            Token::Vortex => None,
        }
    }
    /// Whether this robot's arrival on the target counts.
    pub fn accepts(self, robot: Robot) -> bool {
        self.robot().is_none_or(|r| r == robot)
    }
    /// The two characters of board drawings: colour letter then symbol letter (`Rm`), `**` for
    /// the vortex.
    pub fn code(self) -> String {
        match self {
            Token::Target(c, s) => format!("{}{}", c.letter(), s.letter()),
            Token::Vortex => "**".to_string(),
        }
    }
    /// The token drawn with these two characters.
    pub fn from_code(code: &str) -> Option<Token> {
        Token::all().into_iter().find(|t| t.code() == code)
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Target(c, s) => write!(f, "{}-{}", c.name(), s.name()),
            Token::Vortex => f.write_str("vortex"),
        }
    }
}

impl FromStr for Token {
    type Err = Error;
    fn from_str(s: &str) -> Result<Token, Error> {
        Token::all()
            .into_iter()
            .find(|t| t.to_string() == s)
            .ok_or_else(|| {
                Error::Parse(format!(
                    "{s:?} is not a token: a colour and a symbol like \"red-moon\" \
                     (red, green, blue, yellow; moon, star, gear, planet) or \"vortex\""
                ))
            })
    }
}

impl Serialize for Token {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl JsonSchema for Token {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Token".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let names: Vec<String> = Token::all().iter().map(|t| t.to_string()).collect();
        json_schema!({
            "type": "string",
            "enum": names,
            "description": "A target token: a colour and a symbol, or the vortex (any robot)."
        })
    }
}

impl<'de> Deserialize<'de> for Token {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Token, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seventeen_distinct_names() {
        let all = Token::all();
        let mut names: Vec<String> = all.iter().map(|t| t.to_string()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 17);
        for t in all {
            assert_eq!(t.to_string().parse::<Token>().ok(), Some(t));
            assert_eq!(Token::from_code(&t.code()), Some(t));
        }
        assert_eq!(Token::all()[0].to_string(), "red-moon");
        assert!(Token::Vortex.accepts(Robot::Black));
        assert!(!"red-moon".parse::<Token>().unwrap().accepts(Robot::Blue));
        assert!("purple-moon".parse::<Token>().is_err());
    }
}
