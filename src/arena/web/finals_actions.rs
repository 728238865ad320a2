//! The organiser's last-day actions on the site: the page's forms (CSRF-checked, a refusal
//! shows the organiser's page again with its message) and the same actions in the JSON API
//! (the organiser's bearer token only: JSON carries no CSRF token, so a session cookie is not
//! enough). Both call the same functions of `arena::finals`.

use axum::extract::{Form, State};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::api::{ApiAuth, ApiError};
use super::auth::Auth;
use super::forms::{check_csrf, organiser_only};
use super::pages::organiser_page;
use super::{Site, WebError, blocking};
use crate::arena::Arena;
use crate::arena::finals::{freeze, rejudge, tournament};

/// Sets the closing time (`action`: `at` with the time `at`, `now`, or `undo`).
fn freeze_action(conn: &rusqlite::Connection, action: &str, at: &str) -> Result<(), String> {
    match action {
        "now" => freeze::set(conn, crate::arena::db::now_ms(), true).map(|_| ()),
        "undo" => freeze::undo(conn),
        "at" => freeze::parse_time(at).and_then(|at| freeze::set(conn, at, false).map(|_| ())),
        other => Err(format!(
            "unknown closing-time action {other:?}: at (with a time), now or undo"
        )),
    }
}

/// Re-judges match `id` (`action`: `void` or `rerun`), or rebuilds every rating
/// (`recompute`, no match); returns how many ladder matches the ratings count.
fn rejudge_action(
    arena: &Arena,
    action: &str,
    id: Option<i64>,
    reason: &str,
) -> Result<usize, String> {
    let reason = reason.to_string();
    let (what, id) = match (action, id) {
        ("recompute", None) => return rejudge::recompute(arena),
        ("recompute", Some(_)) => {
            return Err("recompute rebuilds every rating: give no match".into());
        }
        (_, None) => return Err("name the match to re-judge by its number".into()),
        ("void", Some(id)) => (rejudge::Action::Void { reason }, id),
        ("rerun", Some(id)) => (rejudge::Action::Rerun { reason }, id),
        (other, Some(_)) => {
            return Err(format!(
                "unknown re-judging {other:?}: void, rerun or recompute"
            ));
        }
    };
    rejudge::rejudge(arena, id, &what).map(|r| r.counted)
}

// ---------------------------------------------------------------------------------------------
// The organiser's page's forms

/// Runs a form's action for the organiser (CSRF checked), then goes back to the organiser's
/// page, or shows it with the refusal.
async fn form_action(
    site: Site,
    auth: Auth,
    csrf: Option<String>,
    action: impl FnOnce(&Site) -> Result<(), String> + Send + 'static,
) -> Result<Response, WebError> {
    organiser_only(&auth)?;
    check_csrf(&auth, csrf.as_deref())?;
    let done = blocking({
        let site = site.clone();
        move || Ok(action(&site))
    })
    .await?;
    match done {
        Ok(()) => Ok(Redirect::to("/organiser#last-day").into_response()),
        Err(e) => organiser_page(site, auth, None, Some(e)).await,
    }
}

#[derive(Deserialize)]
pub struct FreezeForm {
    pub csrf: Option<String>,
    pub action: String,
    #[serde(default)]
    pub at: String,
}

pub async fn freeze_form(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<FreezeForm>,
) -> Result<Response, WebError> {
    form_action(site, auth, form.csrf, move |site| {
        freeze_action(&site.arena.conn()?, &form.action, &form.at)
    })
    .await
}

#[derive(Deserialize)]
pub struct FinalForm {
    pub csrf: Option<String>,
    pub schedule: String,
    #[serde(default)]
    pub rounds: String,
    #[serde(default)]
    pub repeat: String,
    #[serde(default)]
    pub swiss_rounds: String,
    #[serde(default)]
    pub challengers: String,
    #[serde(default)]
    pub anchors: Option<String>,
}

/// An optional number of a form ("" is none).
fn number(name: &str, text: &str) -> Result<Option<u32>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse()
        .map(Some)
        .map_err(|_| format!("{name}: {t:?} is not a whole number"))
}

pub async fn final_form(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<FinalForm>,
) -> Result<Response, WebError> {
    form_action(site, auth, form.csrf.clone(), move |site| {
        let opts = tournament::Options {
            schedule: Some(form.schedule.clone()),
            rounds: number("rounds", &form.rounds)?,
            repeat: number("repeat", &form.repeat)?,
            swiss_rounds: number("Swiss rounds", &form.swiss_rounds)?,
            challengers: form
                .challengers
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect(),
            anchors: form.anchors.is_some(),
            seed: None,
        };
        tournament::start(&site.arena, &opts).map(|_| ())
    })
    .await
}

#[derive(Deserialize)]
pub struct RejudgeForm {
    pub csrf: Option<String>,
    pub action: String,
    #[serde(default, rename = "match")]
    pub match_id: String,
    #[serde(default)]
    pub reason: String,
}

pub async fn rejudge_form(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<RejudgeForm>,
) -> Result<Response, WebError> {
    form_action(site, auth, form.csrf.clone(), move |site| {
        let id = match form.match_id.trim() {
            "" => None,
            t => Some(t.parse().map_err(|_| {
                format!("{t:?} is not a match's number: give the id the matches page shows")
            })?),
        };
        rejudge_action(&site.arena, &form.action, id, &form.reason).map(|_| ())
    })
    .await
}

// ---------------------------------------------------------------------------------------------
// The organiser's JSON API

/// Runs an API action for the organiser (bearer token), a refusal answered as 400.
async fn api_action<T: Send + 'static>(
    site: Site,
    auth: &Auth,
    action: impl FnOnce(&Site) -> Result<T, String> + Send + 'static,
) -> Result<T, ApiError> {
    if !(auth.viewer.is_organiser() && auth.bearer) {
        return Err(ApiError(WebError::Forbidden(
            "only the organiser may do this: send the organiser's token as \
             `Authorization: Bearer TOKEN`"
                .into(),
        )));
    }
    blocking(move || Ok(action(&site)))
        .await?
        .map_err(|e| ApiError(WebError::BadRequest(e)))
}

#[derive(Deserialize)]
pub struct FreezeRequest {
    /// `at` (with `time`), `now` or `undo`.
    pub action: String,
    #[serde(default)]
    pub time: String,
}

pub async fn api_freeze(
    State(site): State<Site>,
    ApiAuth(auth): ApiAuth,
    axum::Json(req): axum::Json<FreezeRequest>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let closing = api_action(site, &auth, move |site| {
        let conn = site.arena.conn()?;
        freeze_action(&conn, &req.action, &req.time)?;
        freeze::closing(&conn)
    })
    .await?;
    Ok(axum::Json(serde_json::json!({ "closing": closing })))
}

#[derive(Deserialize)]
pub struct FinalRequest {
    #[serde(default)]
    pub schedule: Option<String>,
    #[serde(default)]
    pub rounds: Option<u32>,
    #[serde(default)]
    pub repeat: Option<u32>,
    #[serde(default)]
    pub swiss_rounds: Option<u32>,
    #[serde(default)]
    pub challengers: Vec<String>,
    #[serde(default)]
    pub anchors: bool,
    #[serde(default)]
    pub seed: Option<u64>,
}

pub async fn api_start_final(
    State(site): State<Site>,
    ApiAuth(auth): ApiAuth,
    axum::Json(req): axum::Json<FinalRequest>,
) -> Result<Response, ApiError> {
    let progress = api_action(site, &auth, move |site| {
        let opts = tournament::Options {
            schedule: req.schedule,
            rounds: req.rounds,
            repeat: req.repeat,
            swiss_rounds: req.swiss_rounds,
            challengers: req.challengers,
            anchors: req.anchors,
            seed: req.seed,
        };
        tournament::start(&site.arena, &opts)?;
        tournament::progress(&site.arena, &site.arena.conn()?)
    })
    .await?;
    Ok((
        axum::http::StatusCode::CREATED,
        axum::Json(serde_json::json!({ "final": progress })),
    )
        .into_response())
}

#[derive(Deserialize)]
pub struct RejudgeRequest {
    /// `void`, `rerun` or `recompute`.
    pub action: String,
    #[serde(default, rename = "match")]
    pub match_id: Option<i64>,
    #[serde(default)]
    pub reason: String,
}

pub async fn api_rejudge(
    State(site): State<Site>,
    ApiAuth(auth): ApiAuth,
    axum::Json(req): axum::Json<RejudgeRequest>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let counted = api_action(site, &auth, move |site| {
        rejudge_action(&site.arena, &req.action, req.match_id, &req.reason)
    })
    .await?;
    Ok(axum::Json(serde_json::json!({ "counted": counted })))
}
