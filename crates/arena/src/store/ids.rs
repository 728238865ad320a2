//! The arena's row ids as types: a team's, a version's (a submission), a match's, a remote
//! worker's. Each is an `i64` (SQLite's rowid) that reads and writes itself in SQL and in
//! JSON exactly as the bare number did, so neither the database nor the API changes; what it
//! adds is that a match id cannot be passed where a version id is expected.

use rusqlite::ToSql;
use rusqlite::types::{FromSql, FromSqlResult, ToSqlOutput, ValueRef};

macro_rules! row_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                self.0.to_sql()
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                i64::column_result(value).map($name)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl From<i64> for $name {
            fn from(id: i64) -> Self {
                $name(id)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }
    };
}

row_id!(
    /// A team (`teams.id`).
    TeamId
);
row_id!(
    /// A version of a team's bot, that is one submission (`versions.id`).
    VersionId
);
row_id!(
    /// A match, of the ladder or of the finals (`matches.id`).
    MatchId
);
row_id!(
    /// A remote worker (`workers.id`).
    WorkerId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_its_number_in_sql_and_in_json() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let back: MatchId = conn
            .query_row("SELECT ?1", [MatchId(42)], |r| r.get(0))
            .unwrap();
        assert_eq!(back, MatchId(42));
        assert_eq!(serde_json::to_string(&TeamId(7)).unwrap(), "7");
        let v: VersionId = serde_json::from_str("9").unwrap();
        assert_eq!((v, v.to_string()), (VersionId(9), "9".to_string()));
    }
}
