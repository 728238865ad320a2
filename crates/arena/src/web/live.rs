//! Live pages: the matches in play as they are played, and the leaderboard and team pages kept
//! current, over server-sent events (protocol/ARENA.md, "Live matches").
//!
//! - `GET /api/matches/{id}/live`: the match's public messages ([`crate::live`]): the
//!   backlog first, then each new one, each with its index as the event's id (a client that
//!   reconnects with `Last-Event-ID` gets only what it missed); the stream ends when the match
//!   does. A client that falls too far behind gets a `reload` event. 204 when the match is not
//!   in play (queued, or over: its page is the finished one), 404 when there is no such match.
//! - `GET /api/changes`: a `changed` event whenever a match finishes or a version's build or
//!   check moves on (one watcher per arena polls the database once a second while anybody
//!   listens), so the pages re-read their JSON.
//! - `GET /api/playing`: the matches in play, as the match list's rows.
//! - `GET /matches/{id}/watch`: the live board of a match in play, the replay viewer fed by
//!   the stream above ([`board`]), framed by the match's page.
//! - `GET /live.js`: the one script of the site's pages (the live viewer, the pages' updates),
//!   served by the server itself, so the pages' policy allows `script-src 'self'` and nothing
//!   inline; everything it puts in a page is text.
//!
//! Every message in the hub is already public, so a match in play is watchable by anyone, as
//! its page is once it ends. Each stream sends a comment every 15 s, so proxies keep it open.
//! When the server stops, every stream sends a last `shutdown` event and ends ([`sse`]), so
//! that no open page holds the server up (the browser's EventSource reconnects by itself once
//! the server is back).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};
use maud::{Markup, html};

use serde_json::Value;
use tokio::sync::{broadcast, watch};

use super::db::Db;
use super::refusals::{ApiPath, Path};
use super::templates::team_href;
use super::{ApiError, Site, WebError};
use crate::store::{MatchId, MatchState, changes, matches};
use crate::views::{self, MatchRow};

/// The script, as served.
const SCRIPT: &str = include_str!("live.js");

/// How often an idle stream sends a comment.
const HEARTBEAT: Duration = Duration::from_secs(15);

/// How often the watcher of `/api/changes` looks at the database.
const POLL: Duration = Duration::from_secs(1);

pub async fn script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        SCRIPT,
    )
        .into_response()
}

/// What a stream of match messages has left to send.
struct Feed {
    backlog: VecDeque<Arc<Value>>,
    receiver: broadcast::Receiver<Arc<Value>>,
    /// The index of the next message.
    next: usize,
    /// Messages below this index were sent to the client already (`Last-Event-ID`).
    from: usize,
    over: bool,
}

fn message(index: usize, value: &Value) -> Event {
    Event::default()
        .id(index.to_string())
        .data(serde_json::to_string(value).unwrap_or_else(|_| "null".into()))
}

/// `GET /api/matches/{id}/live`.
pub async fn stream(
    State(site): State<Site>,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Some((backlog, receiver)) = site.arena.live.subscribe(id) else {
        let state = Db(site)
            .run(move |conn, _| Ok(matches::state(conn, MatchId(id))?))
            .await?;
        return match state {
            // A client's EventSource stops at a 204 instead of reconnecting.
            Some(_) => Ok(StatusCode::NO_CONTENT.into_response()),
            None => Err(ApiError(WebError::NotFound(format!(
                "no match has id {id}"
            )))),
        };
    };
    // A reconnecting client names the last message it got.
    let from = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
        .map_or(0, |last| last + 1);
    let feed = Feed {
        backlog: backlog.into(),
        receiver,
        next: 0,
        from,
        over: false,
    };
    let events = stream::unfold(feed, |mut feed| async move {
        if feed.over {
            return None;
        }
        loop {
            let value = match feed.backlog.pop_front() {
                Some(v) => v,
                None => match feed.receiver.recv().await {
                    Ok(v) => v,
                    Err(broadcast::error::RecvError::Closed) => return None,
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        feed.over = true;
                        let e = Event::default()
                            .event("reload")
                            .data(format!("{n} messages were missed: reload the page"));
                        return Some((Ok::<_, Infallible>(e), feed));
                    }
                },
            };
            let index = feed.next;
            feed.next += 1;
            if index >= feed.from {
                return Some((Ok(message(index, &value)), feed));
            }
        }
    });
    Ok(sse(&site, events))
}

/// The last event of every stream when the server stops.
fn shutdown_event() -> Event {
    Event::default().event("shutdown").data(
        serde_json::json!({
            "error": "the server is stopping: this page reconnects once it is back"
        })
        .to_string(),
    )
}

/// `events` until the server stops, then [`shutdown_event`] and the end.
fn until_stopped(
    site: &Site,
    events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static,
) -> impl Stream<Item = Result<Event, Infallible>> + Send + 'static {
    let stopping: Pin<Box<dyn Future<Output = ()> + Send>> = Box::pin(site.stopping());
    let events: Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>> = Box::pin(events);
    stream::unfold(Some((events, stopping)), |state| async move {
        let (mut events, mut stopping) = state?;
        tokio::select! {
            biased;
            () = &mut stopping => Some((Ok(shutdown_event()), None)),
            next = events.next() => next.map(|e| (e, Some((events, stopping)))),
        }
    })
}

/// A server-sent events response of `events`, ended when the server stops.
fn sse(
    site: &Site,
    events: impl Stream<Item = Result<Event, Infallible>> + Send + 'static,
) -> Response {
    let mut response = Sse::new(until_stopped(site, events))
        .keep_alive(KeepAlive::new().interval(HEARTBEAT))
        .into_response();
    // nginx would otherwise buffer the stream.
    response
        .headers_mut()
        .insert("x-accel-buffering", header::HeaderValue::from_static("no"));
    response
}

/// `GET /api/changes`.
pub async fn changes(State(site): State<Site>) -> Response {
    let arena = site.arena.clone();
    let receiver = site.arena.live.changes(move |sender| {
        tokio::spawn(watch_database(arena, sender));
    });
    let events = stream::unfold(receiver, |mut receiver| async move {
        receiver.changed().await.ok()?;
        let what = receiver.borrow_and_update().clone();
        let e = Event::default().event("changed").data(what);
        Some((Ok::<_, Infallible>(e), receiver))
    });
    sse(&site, events)
}

/// Polls the database while anybody listens, telling them when what the pages show changed.
async fn watch_database(arena: Arc<crate::Arena>, sender: watch::Sender<String>) {
    // Read at once, not after the first wait: a change in that wait would otherwise be taken
    // for the starting point and never told.
    let mut last: Option<String> = fingerprint(&arena).await;
    loop {
        tokio::time::sleep(POLL).await;
        if arena.live.changes_unwatched(&sender) {
            return;
        }
        let Some(now) = fingerprint(&arena).await else {
            continue;
        };
        if last.as_ref().is_some_and(|l| *l != now) {
            sender.send_replace(json_changed(&now));
        }
        last = Some(now);
    }
}

/// The store's fingerprint of what the pages show, now; `None` when the database cannot be read.
async fn fingerprint(arena: &Arc<crate::Arena>) -> Option<String> {
    let a = arena.clone();
    tokio::task::spawn_blocking(move || changes::fingerprint(&*a.conn().ok()?).ok())
        .await
        .ok()
        .flatten()
}

fn json_changed(fingerprint: &str) -> String {
    serde_json::json!({ "at": fingerprint }).to_string()
}

/// The rows of the matches in play.
pub async fn playing_rows(site: &Site) -> Result<Vec<MatchRow>, WebError> {
    let ids = site.arena.live.playing();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Db(site.clone())
        .run(move |conn, _| {
            let ids: Vec<MatchId> = ids.into_iter().map(MatchId).collect();
            Ok(views::match_rows(conn, &ids)?)
        })
        .await
}

/// `GET /api/playing`.
pub async fn playing(State(site): State<Site>) -> Result<Json<Vec<MatchRow>>, ApiError> {
    Ok(Json(playing_rows(&site).await?))
}

/// The list of the matches in play (nothing when none is).
pub fn playing_list(rows: &[MatchRow]) -> Markup {
    html! {
        @if !rows.is_empty() {
            h2 { "In play" }
            ul #playing {
                @for m in rows {
                    li {
                        a href=(format!("/matches/{}", m.id)) { "#" (m.id) } " "
                        @for (i, s) in m.seats.iter().enumerate() {
                            @if i > 0 { " · " }
                            (s.team)
                        }
                        " " span.muted { "watch live" }
                    }
                }
            }
            h2 { "Finished" }
        }
    }
}

/// The page of match `id` while it is queued or in play; `None` once it is over (its page is
/// then the finished one).
pub async fn match_in_play(site: &Site, id: i64) -> Result<Option<Markup>, WebError> {
    let site = site.clone();
    let row = Db(site)
        .run(move |conn, _| Ok(views::match_rows(conn, &[MatchId(id)])?.pop()))
        .await?;
    Ok(row
        .filter(|r| matches!(r.state, MatchState::Queued | MatchState::Running))
        .map(|r| page(&r)))
}

fn page(m: &MatchRow) -> Markup {
    html! {
        p {
            span class=(format!("badge {}", m.state)) { (m.state) } " "
            @if m.state == MatchState::Running { span.badge.live-mark { "● live" } " " }
            (m.kind) " match, " (m.rounds) " rounds. "
            @if m.state == MatchState::Queued { "It has not started yet: its board shows here once it does." }
            @else { "It is in play: its board shows each move as it is played." }
        }
        table #seats {
            thead { tr { th { "Seat" } th { "Team" } th { "Version" } } }
            tbody {
                @for s in &m.seats {
                    tr {
                        td.num { (s.seat + 1) }
                        td { a href=(team_href(&s.team)) { (s.team) } }
                        td { (s.version_label) " " span.muted { "#" (s.version_id) } }
                    }
                }
            }
        }
        div #live data-match=(m.id) {
            p #live-status.muted {
                "This page follows the match with a script; without scripts, reload it to see "
                "the result once the match is over."
            }
            iframe.replay #live-board src=(format!("/matches/{}/watch", m.id)) title="Live board" {}
            h2 { "Rounds played" }
            table #live-rounds {
                thead { tr { th.num { "Round" } th { "Points, in seat order" } th { "Winner" } } }
                tbody {}
            }
        }
    }
}

/// `GET /matches/{id}/watch`: the live board of a match queued or in play, the replay viewer
/// fed by the match's public messages ([`crate::show::html::render_live`]), framed by the
/// match's page. It carries its own policy (its script by hash, connections to this server
/// only) with `frame-ancestors 'self'`; opened alone it carries the closing-time banner, as the
/// replay does. A match that is over has its replay instead (a redirect); no such match is a
/// 404.
pub async fn board(
    State(site): State<Site>,
    auth: super::auth::Auth,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, WebError> {
    let s = site.clone();
    let row = Db(s)
        .run(move |conn, _| Ok(views::match_rows(conn, &[MatchId(id)])?.pop()))
        .await?;
    let Some(row) = row else {
        return Err(WebError::NotFound(format!("no match has id {id}")));
    };
    if !matches!(row.state, MatchState::Queued | MatchState::Running) {
        return Ok(axum::response::Redirect::to(&format!("/matches/{id}/replay")).into_response());
    }
    let c = &site.arena.config;
    let live = serde_json::json!({
        "match": id,
        "game": c.game,
        "options": c.options,
        "rounds": row.rounds,
        "seats": row.seats.iter().map(|s| s.team.as_str()).collect::<Vec<_>>(),
        "settings": {
            "move_ms": c.time.as_millis() as u64,
            "startup_ms": c.startup.as_millis() as u64,
            "retries": c.retries,
        },
    });
    let html = crate::show::html::render_live(&format!("Match {id}"), &c.game, &live);
    Ok(super::pages::viewer_response(html, &headers, auth.closing))
}
