//! The last day on the site: the closing-time banner every page carries, the organiser's
//! section (closing time, the final tournament and its progress, re-judging), the published
//! final (`/final/`: its report, read-only, and its files to download), the final standings on
//! the leaderboard, and `GET /api/final`.
//!
//! What `/final/` serves is what `DIR/final/` holds once the final is published: the report of
//! `rollarena report` made from records whose seats' stderr and logs were taken out
//! (`arena::finals::tournament`), `results.jsonl`, `standings.json`, `standings.csv` and
//! `tournament.json`. Nothing else of the arena's directory is reachable from there. The
//! organiser's actions (forms and JSON) are [`super::finals_actions`]'.

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use maud::{Markup, html};
use serde::Serialize;

use super::api::ApiAuth;
use super::db::Db;
use super::finals_actions as actions;
use super::refusals::Path;
use super::{ApiError, Site, WebError, blocking};
use crate::Arena;
use crate::finals::tournament;
use crate::freeze;
use crate::record::notes::plural;
use crate::tournament::aggregate::Standings;

/// The pages' routes of this file.
pub fn routes() -> Router<Site> {
    Router::new()
        .route("/final", get(|| async { Redirect::permanent("/final/") }))
        .route("/final/", get(final_index))
        .route("/final/{*path}", get(final_file))
        .route("/organiser/freeze", post(actions::freeze_form))
        .route("/organiser/final", post(actions::final_form))
        .route("/organiser/rejudge", post(actions::rejudge_form))
}

/// The API's routes of this file (below `/api`).
pub fn api_routes() -> Router<Site> {
    Router::new()
        .route("/final", get(api_final).post(actions::api_start_final))
        .route("/final/closing", post(actions::api_freeze))
        .route("/rejudge", post(actions::api_rejudge))
}

/// The banner of every page: the closing time before it, "closed" after it.
pub fn banner(closing: Option<i64>) -> Markup {
    let Some(at) = closing else {
        return html! {};
    };
    let when = super::templates::time(at);
    html! {
        @if at <= crate::store::db::now_ms() {
            div.notice #closing role="status" {
                b { "The contest is closed" } " (since " (when) "): submissions are no longer taken. "
                a href="/final/" { "The final" }
            }
        } @else {
            div.notice #closing role="status" {
                "Submissions close at " b { (when) } "."
            }
        }
    }
}

/// `document` (a page with its own styles and policy: the replay viewer opened alone) with the
/// banner of `closing` at the top of its body. The site's stylesheet does not reach such a
/// page (its policy allows inline styles only), so the banner carries its own style.
pub fn banner_in_document(document: String, closing: Option<i64>) -> String {
    let Some(at) = document.find("<body>").map(|i| i + "<body>".len()) else {
        return document;
    };
    if closing.is_none() {
        return document;
    }
    let banner = html! {
        div style="padding: 6px 16px; background: #fff4d6; border-bottom: 1px solid #e6c66e; \
                   font: 14px/1.4 system-ui, sans-serif" {
            (banner(closing))
        }
    };
    let mut out = document;
    out.insert_str(at, &banner.into_string());
    out
}

/// What the organiser's section shows.
#[derive(Clone, Debug, Serialize)]
pub struct OrganiserFinals {
    pub closing: Option<i64>,
    #[serde(rename = "final")]
    pub progress: Option<tournament::Progress>,
}

/// Reads the organiser's section.
pub fn load(arena: &Arena, conn: &rusqlite::Connection) -> Result<OrganiserFinals, WebError> {
    Ok(OrganiserFinals {
        closing: freeze::closing(conn).map_err(WebError::Internal)?,
        progress: tournament::progress(arena, conn).map_err(WebError::Internal)?,
    })
}

/// The organiser's section: closing time, final, re-judging.
pub fn organiser_section(f: &OrganiserFinals, csrf: &str) -> Markup {
    let closed = f.closing.is_some_and(|at| at <= crate::store::db::now_ms());
    html! {
        h2 #last-day { "The last day" }
        h3 { "Closing time" }
        p {
            @match f.closing {
                Some(at) if closed => { "The contest closed at " b { (super::templates::time(at)) } "." }
                Some(at) => { "Submissions close at " b { (super::templates::time(at)) } "." }
                None => { "No closing time is set." }
            }
        }
        @if !closed {
            form method="post" action="/organiser/freeze" {
                input type="hidden" name="csrf" value=(csrf);
                label { "Close at (UTC, RFC 3339) " input type="text" name="at" placeholder="2026-11-26T18:00:00Z"; }
                " "
                button type="submit" name="action" value="at" { "Set the closing time" }
                " "
                button type="submit" name="action" value="now" { "Close now" }
                @if f.closing.is_some() {
                    " "
                    button type="submit" name="action" value="undo" { "Take the closing time back" }
                }
            }
        }
        h3 { "The final tournament" }
        @match &f.progress {
            None => {
                @if closed {
                    form method="post" action="/organiser/final" {
                        input type="hidden" name="csrf" value=(csrf);
                        p {
                            label { "Schedule " select name="schedule" {
                                option value="round-robin" { "round robin" }
                                option value="gauntlet" { "gauntlet" }
                                option value="swiss" { "Swiss (2 seats)" }
                            } }
                            " " label { "Rounds a table " input type="number" name="rounds" min="1"; }
                            " " label { "Repeat " input type="number" name="repeat" min="1"; }
                            " " label { "Swiss rounds " input type="number" name="swiss_rounds" min="1"; }
                        }
                        p {
                            label { "Challengers (gauntlet: team names, one a line) " textarea name="challengers" rows="2" {} }
                            " " label { input type="checkbox" name="anchors" value="true"; " the anchors play too" }
                        }
                        button type="submit" { "Start the final" }
                    }
                } @else {
                    p.muted { "The final starts once the contest is closed." }
                }
            }
            Some(p) => {
                p #final-progress {
                    (p.state.schedule) ", started " (super::templates::time(p.state.started_at))
                    @if p.state.phases > 1 { ", Swiss round " (p.state.phase) " of " (p.state.phases) }
                    ": " (plural(p.done as usize, "table", "tables")) " done"
                    @if let Some(n) = p.tables_scheduled { " of " (n) }
                    ", " (p.running) " playing, " (p.queued) " queued, "
                    (p.failed) " failed, " (p.void) " void. "
                    @match p.state.published_at {
                        Some(at) => { b { "Published" } " at " (super::templates::time(at)) ": " a href="/final/" { "the final's report" } }
                        None => { "Published when every table is over." }
                    }
                }
            }
        }
        h3 { "Re-judging" }
        form method="post" action="/organiser/rejudge" {
            input type="hidden" name="csrf" value=(csrf);
            label { "Match " input type="number" name="match" min="1"; }
            " " label { "Reason " input type="text" name="reason" maxlength="200"; }
            " "
            button type="submit" name="action" value="void" { "Void it" }
            " "
            button type="submit" name="action" value="rerun" { "Play it again" }
            " "
            button type="submit" name="action" value="recompute" { "Recompute every rating" }
        }
    }
}

/// The final standings on the leaderboard, once published.
pub fn leaderboard_section(arena_dir: &std::path::Path) -> Markup {
    let Some(s) = tournament::standings(arena_dir) else {
        return html! {};
    };
    final_table(&s)
}

fn final_table(s: &Standings) -> Markup {
    html! {
        h2 #final { "The final" }
        p.muted {
            (plural(s.tables_played as usize, "table", "tables")) ", "
            (plural(s.rounds_played as usize, "round", "rounds")) ". "
            a href="/final/" { "The report" } " · "
            a href="/final/results.jsonl" { "every round (JSON Lines)" } " · "
            a href="/final/standings.csv" { "standings (CSV)" }
        }
        (super::templates::wide(html! { table #final-standings {
            thead { tr {
                th.num { "Rank" } th { "Team" } th.num { "Round wins" } th.num { "Points" }
                th.num { "Rounds" } th.num { "Rating (μ - 3σ)" }
            } }
            tbody {
                @for row in &s.standings {
                    tr {
                        td.num { (row.rank) }
                        td {
                            // The bot's name is the seat's: "TEAM #VERSION".
                            @match row.bot.rsplit_once(" #") {
                                Some((team, version)) => {
                                    a href=(super::templates::team_href(team)) { (team) }
                                    " " span.muted { "#" (version) }
                                }
                                None => { (row.bot) }
                            }
                        }
                        td.num { (format!("{:.1}", row.wins)) }
                        td.num { (row.points) }
                        td.num { (row.rounds) }
                        td.num { (format!("{:.2}", row.rating.mu - 3.0 * row.rating.sigma)) }
                    }
                }
            }
        } }))
    }
}

/// `GET /api/final`: the closing time, the final's progress, and its standings once published.
async fn api_final(
    db: Db,
    ApiAuth(_auth): ApiAuth,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let value = db
        .run(move |conn, arena| {
            let f = load(arena, conn)?;
            let published = f
                .progress
                .as_ref()
                .is_some_and(|p| p.state.published_at.is_some());
            Ok(serde_json::json!({
                "closing": f.closing,
                "closed": f.closing.is_some_and(|at| at <= crate::store::db::now_ms()),
                "final": f.progress,
                "standings": if published { tournament::standings(&arena.dir) } else { None },
            }))
        })
        .await?;
    Ok(axum::Json(value))
}

async fn final_index(State(site): State<Site>) -> Result<Response, WebError> {
    serve_final(site, "index.html".into()).await
}

async fn final_file(
    State(site): State<Site>,
    Path(path): Path<String>,
) -> Result<Response, WebError> {
    serve_final(site, path).await
}

/// The files of the published final only.
const FILES: [&str; 4] = [
    "results.jsonl",
    "standings.json",
    "standings.csv",
    "tournament.json",
];

async fn serve_final(site: Site, path: String) -> Result<Response, WebError> {
    let dir = tournament::dir_of(&site.arena.dir);
    let published = Db(site)
        .run(|conn, _| {
            Ok(tournament::state(conn)
                .map_err(WebError::Internal)?
                .is_some_and(|s| s.published_at.is_some()))
        })
        .await?;
    if !published {
        return Err(WebError::NotFound(
            "the final is not published yet: it is, once every table of the final tournament \
             is over"
                .into(),
        ));
    }
    let safe = std::path::Path::new(&path)
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    let file = if FILES.contains(&path.as_str()) {
        dir.join(&path)
    } else if safe && !path.is_empty() {
        dir.join(crate::report::DIR).join(&path)
    } else {
        return Err(WebError::NotFound(format!("the final has no {path:?}")));
    };
    let bytes = {
        let (file, path) = (file.clone(), path.clone());
        blocking(move || {
            std::fs::read(&file)
                .map_err(|_| WebError::NotFound(format!("the final has no {path:?}")))
        })
        .await?
    };
    let kind = match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("json") => "application/json",
        Some("jsonl") => "application/jsonl; charset=utf-8",
        Some("csv") => "text/csv; charset=utf-8",
        _ => "application/octet-stream",
    };
    let mut response = ([(header::CONTENT_TYPE, kind)], bytes.clone()).into_response();
    if kind.starts_with("text/html") {
        // The report's page allows its one script by hash: the header says the same.
        let html = String::from_utf8_lossy(&bytes);
        let csp = super::pages::viewer_policy(&html).unwrap_or_else(|| "default-src 'none'".into());
        if let Ok(v) = HeaderValue::from_str(&format!("{csp}; frame-ancestors 'self'")) {
            response
                .headers_mut()
                .insert(header::CONTENT_SECURITY_POLICY, v);
        }
    } else if FILES.contains(&path.as_str()) {
        let name = format!("attachment; filename=\"final-{path}\"");
        if let Ok(v) = HeaderValue::from_str(&name) {
            response
                .headers_mut()
                .insert(header::CONTENT_DISPOSITION, v);
        }
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_gets_the_banner_at_the_top_of_its_body_only_when_a_closing_time_is_set() {
        let doc = "<html><head><style>x</style></head><body><header>h</header></body></html>";
        assert_eq!(banner_in_document(doc.into(), None), doc);
        let with = banner_in_document(doc.into(), Some(1));
        assert!(
            with.contains("<body><div style=") && with.contains("The contest is closed"),
            "{with}"
        );
        assert!(with.ends_with("<header>h</header></body></html>"), "{with}");
        let later = banner_in_document(doc.into(), Some(crate::store::db::now_ms() + 3_600_000));
        assert!(later.contains("Submissions close at"), "{later}");
        assert_eq!(banner_in_document("no body".into(), Some(1)), "no body");
    }

    #[test]
    fn the_final_counts_one_table_as_one_table() {
        let standings = |tables: u32, rounds: u64| Standings {
            tournament: "final".into(),
            id: "x".into(),
            tables_played: tables,
            tables_scheduled: Some(tables),
            rounds_played: rounds,
            standings: Vec::new(),
            head_to_head: Vec::new(),
            sprt: None,
        };
        let one = final_table(&standings(1, 1)).into_string();
        assert!(one.contains("1 table, 1 round. "), "{one}");
        let more = final_table(&standings(3, 6)).into_string();
        assert!(more.contains("3 tables, 6 rounds. "), "{more}");
    }
}
