//! The states a row goes through, as enums, each mapped to the text the database stores (and
//! the JSON API shows) in one place: [`as_str`](MatchState::as_str) and its inverse, used by
//! the SQL conversions and by serde alike. The texts are the schema's `CHECK` lists
//! (`migrations/0001_init.sql`, `0004_fair_builds.sql`).

use rusqlite::ToSql;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};

macro_rules! text_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every state, in the schema's order.
            pub const ALL: &[$name] = &[$($name::$variant),+];

            /// The text the database stores.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The state a stored text names, if any.
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                let text = value.as_str()?;
                $name::parse(text).ok_or_else(|| {
                    FromSqlError::Other(
                        format!(concat!("unknown ", stringify!($name), " {:?}"), text).into(),
                    )
                })
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                $name::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        concat!("unknown ", stringify!($name), " {:?}"),
                        text
                    ))
                })
            }
        }
    };
}

text_enum!(
    /// Where a match is: made and waiting for a worker, being played (under a lease), or over.
    MatchState {
        Queued = "queued",
        Running = "running",
        /// Played to its end: its points count.
        Done = "done",
        /// The arena could not play it (its error says why).
        Failed = "failed",
        /// Annulled by the organiser (re-judging).
        Void = "void",
    }
);

impl MatchState {
    /// Whether the match is over (for good or not).
    pub fn is_over(self) -> bool {
        matches!(
            self,
            MatchState::Done | MatchState::Failed | MatchState::Void
        )
    }
}

text_enum!(
    /// Where a version (a submission) is: queued -> building -> checking -> ready | failed, or
    /// superseded by a newer upload before it was built.
    VersionState {
        Queued = "queued",
        Building = "building",
        Checking = "checking",
        Ready = "ready",
        Failed = "failed",
        Superseded = "superseded",
    }
);

impl VersionState {
    /// Whether the version is still on its way to ready or failed.
    pub fn is_pending(self) -> bool {
        matches!(
            self,
            VersionState::Queued | VersionState::Building | VersionState::Checking
        )
    }
}

text_enum!(
    /// Which competition a match belongs to.
    MatchKind {
        /// The continuous ladder (rated).
        Ladder = "ladder",
        /// A new version's first matches, which place it on the ladder (rated).
        Placement = "placement",
        /// The final tournament (`finals::tournament`): points and ranks only.
        Final = "final",
    }
);

impl MatchKind {
    /// Whether the match's results move its versions' ratings (a final's count its points and
    /// ranks only).
    pub fn is_rated(self) -> bool {
        self != MatchKind::Final
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_its_text_in_sql_and_json_and_unknown_texts_are_refused() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        for &s in VersionState::ALL {
            let back: VersionState = conn.query_row("SELECT ?1", [s], |r| r.get(0)).unwrap();
            assert_eq!(back, s);
            let text: String = conn.query_row("SELECT ?1", [s], |r| r.get(0)).unwrap();
            assert_eq!(text, s.as_str());
        }
        assert_eq!(
            serde_json::to_string(&MatchState::Done).unwrap(),
            "\"done\""
        );
        let bad = conn.query_row("SELECT 'bogus'", [], |r| r.get::<_, MatchState>(0));
        assert!(bad.is_err());
        assert_eq!(MatchKind::parse("final"), Some(MatchKind::Final));
    }
}
