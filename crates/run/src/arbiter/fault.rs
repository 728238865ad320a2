//! A bot's misbehaviour as recorded values: they belong to the record format and live in
//! [`crate::record::fault`]; re-exported here for the arbiter's modules.

pub use crate::record::fault::{
    ExitInfo, Fault, FaultKind, Forfeit, ForfeitKind, Refused, evidence,
};
