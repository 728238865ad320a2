//! Matches in play, as spectators may watch them: each match worker (embedded, or remote
//! through the server's worker API) turns its match's event stream into public messages with
//! [`observer`], and the server keeps them in one [`LiveHub`] that the web layer streams to
//! browsers. Only what a spectator may see ever enters the hub: the projection happens where
//! the events are made, so no page, stream or log downstream can leak a hidden card or bid.
//!
//! The hub keeps, per match in play, the messages published so far (so a viewer who arrives
//! mid-match sees the match from its start) and a broadcast channel for the ones to come; a
//! match leaves the hub when its worker [`LiveHub::end`]s it. The hub also carries the
//! signal that what the pages show changed (a match finished, a build moved on), for the
//! pages that update themselves.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::{broadcast, watch};

use crate::arbiter::events::{Event, Observer};

/// Messages a slow subscriber may fall behind by before it misses some (it then reloads).
const CHANNEL: usize = 1024;

/// One match's live state.
struct Live {
    /// Every message published so far, oldest first.
    backlog: Vec<Arc<Value>>,
    sender: broadcast::Sender<Arc<Value>>,
}

/// The matches in play and their public messages.
#[derive(Default)]
pub struct LiveHub {
    matches: Mutex<HashMap<i64, Live>>,
    /// The signal "what the pages show changed", while anybody listens (the web layer's
    /// watcher sends it).
    changes: Mutex<Option<watch::Sender<String>>>,
}

impl std::fmt::Debug for LiveHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveHub").finish_non_exhaustive()
    }
}

impl LiveHub {
    /// Adds a public message to match `id`'s stream (the match enters the hub with its first).
    pub fn publish(&self, id: i64, message: Value) {
        let message = Arc::new(message);
        let mut matches = self.matches.lock().unwrap_or_else(|p| p.into_inner());
        let live = matches.entry(id).or_insert_with(|| Live {
            backlog: Vec::new(),
            sender: broadcast::channel(CHANNEL).0,
        });
        live.backlog.push(message.clone());
        // No subscriber is not an error: the message waits in the backlog.
        let _ = live.sender.send(message);
    }

    /// The messages of match `id` so far and a receiver of the ones to come; `None` when the
    /// match is not in play.
    pub fn subscribe(&self, id: i64) -> Option<Subscription> {
        let matches = self.matches.lock().unwrap_or_else(|p| p.into_inner());
        let live = matches.get(&id)?;
        Some((live.backlog.clone(), live.sender.subscribe()))
    }

    /// Match `id` is over (played, stopped or lost): it leaves the hub, and its subscribers'
    /// streams end.
    pub fn end(&self, id: i64) {
        self.matches
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
    }

    /// A receiver of the signal "what the pages show changed"; `start` gets its sender when
    /// nobody listened yet (and starts what sends it).
    pub fn changes(&self, start: impl FnOnce(watch::Sender<String>)) -> watch::Receiver<String> {
        let mut changes = self.changes.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(sender) = changes.as_ref() {
            return sender.subscribe();
        }
        let (sender, receiver) = watch::channel(String::new());
        *changes = Some(sender.clone());
        start(sender);
        receiver
    }

    /// Asked by the sender of the changes: true when nobody listens any more (it then
    /// stops, and the next listener starts another).
    pub fn changes_unwatched(&self, sender: &watch::Sender<String>) -> bool {
        let mut changes = self.changes.lock().unwrap_or_else(|p| p.into_inner());
        if sender.receiver_count() > 0 {
            return false;
        }
        *changes = None;
        true
    }

    /// The matches in play.
    pub fn playing(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .matches
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .keys()
            .copied()
            .collect();
        ids.sort_unstable();
        ids
    }
}

/// A match's messages so far and a receiver of the ones to come.
pub type Subscription = (Vec<Arc<Value>>, broadcast::Receiver<Arc<Value>>);

/// Where a worker's public messages go: into the hub (an embedded worker), or to the server
/// over HTTP (a remote one).
pub type Sink = Box<dyn FnMut(Value) + Send>;

/// An observer of a match's events that sends their public projection ([`project`]) to
/// `sink`.
pub fn observer(sink: Sink) -> Box<dyn Observer> {
    Box::new(Projector { sink })
}

struct Projector {
    sink: Sink,
}

impl Observer for Projector {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Some(message) = project(event) {
            (self.sink)(message);
        }
        Ok(())
    }

    fn spectates(&self) -> bool {
        true
    }
}

/// The public message of an event (protocol/ARENA.md, "Live matches"): `None` for an event
/// that shows nothing. While a round is in play, a message holds only what every seat knows:
/// the state before the first move and after each move as [`crate::game::Round::live_view`]
/// shows it; a move as the seats other than its actor were told of it (with what was left of
/// its seat's time bank, in matches with one); of a refused attempt, a count (its line and
/// reason may name a hand's cards); of a forfeit, its seat, kind and move (its details may
/// quote a line). Once the round is over its record is public, as the finished match's page
/// shows it (each seat's stderr and logs left out).
pub fn project(event: &Event<'_>) -> Option<Value> {
    Some(match event {
        Event::RoundStarted { round, rounds } => {
            json!({"type": "round", "round": round, "rounds": rounds})
        }
        Event::RoundDealt {
            round,
            state,
            colours,
            first,
        } => json!({
            "type": "start",
            "round": round,
            "state": state,
            "colours": colours,
            "first": first,
        }),
        Event::Moved { round, mv, public } => {
            let mut m = json!({
                "type": "move",
                "round": round,
                "ply": mv.ply,
                "seat": mv.seat,
                "colour": mv.colour,
                "kind": mv.kind,
                "ms": mv.ms,
                "at_ms": mv.at_ms,
                "by_arbiter": mv.by_arbiter,
                "refused": mv.refused.len(),
            });
            if let (Some(bank), Some(o)) = (mv.bank_ms, m.as_object_mut()) {
                o.insert("bank_ms".into(), json!(bank));
            }
            // Without its public part a move shows who moved and when, never what.
            if let (Some(p), Some(o)) = (public, m.as_object_mut()) {
                o.insert("move".into(), p.notation.clone());
                o.insert("effects".into(), Value::Object(p.effects.clone()));
                o.insert("state".into(), p.state.clone());
            }
            m
        }
        Event::Forfeited { round, forfeit } => json!({
            "type": "forfeit",
            "round": round,
            "seat": forfeit.seat,
            "kind": forfeit.kind,
            "ply": forfeit.ply,
        }),
        Event::RoundEnded { record } => {
            let mut record = (*record).clone();
            crate::records::strip(&mut record, &|_| false);
            json!({"type": "round_end", "round": record.round, "record": record})
        }
        Event::MatchEnded { standings } => json!({"type": "end", "standings": standings}),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forfeit_shows_its_seat_and_kind_never_its_evidence() {
        use crate::record::{Forfeit, ForfeitKind};
        let forfeit = Forfeit {
            seat: 1,
            kind: ForfeitKind::Retries,
            ply: 7,
            at_ms: None,
            turn_id: Some(9),
            detail: "you do not hold the 7: your hand is [2, 5]".into(),
            line: Some(r#"{"type":"move","move":"7"}"#.into()),
            exit: None,
            stderr_tail: "my hand: 2 5".into(),
        };
        let m = project(&Event::Forfeited {
            round: 2,
            forfeit: &forfeit,
        })
        .unwrap();
        assert_eq!(
            m,
            json!({"type": "forfeit", "round": 2, "seat": 1, "kind": "retries", "ply": 7})
        );
    }

    #[test]
    fn a_move_without_its_public_part_shows_who_and_when_only() {
        let mv = crate::record::MoveRecord {
            ply: 3,
            kind: None,
            seat: 0,
            colour: None,
            mv: json!("bid UM UM"),
            effects: [("secrets".to_string(), json!([{"secret": "bid"}]))].into(),
            ms: 12.0,
            at_ms: None,
            cpu_ms: Some(3.0),
            bank_ms: None,
            refused: vec![crate::record::Refused {
                line: "bid XX".into(),
                reason: "not in your hand [UM, UM]".into(),
                ms: 1.0,
                code: None,
            }],
            by_arbiter: false,
            opening: false,
        };
        let m = project(&Event::Moved {
            round: 1,
            mv: &mv,
            public: None,
        })
        .unwrap();
        let text = m.to_string();
        assert!(m.get("move").is_none() && m.get("state").is_none(), "{m}");
        assert!(!text.contains("UM") && !text.contains("secret"), "{m}");
        assert_eq!(m["refused"], 1);
    }

    #[test]
    fn a_late_subscriber_gets_the_backlog_then_the_rest() {
        let hub = LiveHub::default();
        assert!(hub.subscribe(7).is_none());
        hub.publish(7, json!({"n": 1}));
        let (backlog, mut rx) = hub.subscribe(7).unwrap();
        assert_eq!(backlog.len(), 1);
        hub.publish(7, json!({"n": 2}));
        assert_eq!(*rx.try_recv().unwrap(), json!({"n": 2}));
        assert_eq!(hub.playing(), vec![7]);
        hub.end(7);
        assert!(hub.subscribe(7).is_none());
        assert!(rx.try_recv().is_err());
    }
}
