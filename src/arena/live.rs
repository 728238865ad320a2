//! Matches in play, as spectators may watch them: each match worker (embedded, or remote
//! through the server's worker API) turns its match's event stream into public messages with
//! [`observer`], and the server keeps them in one [`LiveHub`] that the web layer streams to
//! browsers. Only what a spectator may see ever enters the hub: the projection happens where
//! the events are made, so no page, stream or log downstream can leak a hidden card or bid.
//!
//! The hub keeps, per match in play, the messages published so far (so a viewer who arrives
//! mid-match sees the match from its start) and a broadcast channel for the ones to come; a
//! match leaves the hub when its worker [`LiveHub::end`]s it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::broadcast;

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

/// An observer of a match's events that sends their public projection to `sink`.
pub fn observer(sink: Sink) -> Box<dyn Observer> {
    Box::new(Projector { sink })
}

struct Projector {
    #[allow(dead_code)]
    sink: Sink,
}

impl Observer for Projector {
    fn on_event(&mut self, _event: &Event<'_>) -> std::io::Result<()> {
        // The projection of each event to what a spectator may see is not written yet: until
        // it is, nothing is published.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
