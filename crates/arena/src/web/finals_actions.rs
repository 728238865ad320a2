//! The organiser's last-day actions on the site: the page's forms (CSRF-checked, a refusal
//! shows the organiser's page again with its message) and the same actions in the JSON API
//! (the organiser's bearer token only: JSON carries no CSRF token, so a session cookie is not
//! enough). Both call the same functions of `arena::finals`.

use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::api::ApiAuth;
use super::auth::Auth;
use super::confirm::{self, Question};
use super::forms::{check_csrf, organiser_only};
use super::pages::organiser_page;
use super::refusals::{ApiJson, Form};
use super::{ApiError, Site, WebError, blocking};
use crate::Error;
use crate::finals::{rejudge, tournament};
use crate::freeze;
use crate::record::notes::plural;
use crate::{Arena, store};

/// Sets the closing time (`action`: `at` with the time `at`, `now`, or `undo`).
fn freeze_action(conn: &rusqlite::Connection, action: &str, at: &str) -> Result<(), Error> {
    match action {
        "now" => freeze::set(conn, crate::store::db::now_ms(), true).map(|_| ()),
        "undo" => freeze::undo(conn),
        "at" => freeze::parse_time(at).and_then(|at| freeze::set(conn, at, false).map(|_| ())),
        other => Err(Error::Invalid(format!(
            "unknown closing-time action {other:?}: at (with a time), now or undo"
        ))),
    }
}

/// Re-judges match `id` (`action`: `void` or `rerun`), or rebuilds every rating
/// (`recompute`, no match); returns how many ladder matches the ratings count.
fn rejudge_action(
    arena: &Arena,
    action: &str,
    id: Option<i64>,
    reason: &str,
) -> Result<usize, Error> {
    let reason = reason.to_string();
    let (what, id) = match (action, id) {
        ("recompute", None) => return rejudge::recompute(arena),
        ("recompute", Some(_)) => {
            return Err(Error::Invalid(
                "recompute rebuilds every rating: give no match".into(),
            ));
        }
        (_, None) => {
            return Err(Error::Invalid(
                "name the match to re-judge by its number".into(),
            ));
        }
        ("void", Some(id)) => (rejudge::Action::Void { reason }, id),
        ("rerun", Some(id)) => (rejudge::Action::Rerun { reason }, id),
        (other, Some(_)) => {
            return Err(Error::Invalid(format!(
                "unknown re-judging {other:?}: void, rerun or recompute"
            )));
        }
    };
    rejudge::rejudge(arena, id, &what).map(|r| r.counted)
}

// ---------------------------------------------------------------------------------------------
// The organiser's page's forms

/// Runs a form's action for the organiser (CSRF checked), then goes back to the organiser's
/// page, or shows it with the refusal. Unless the form carries `confirm=yes`, `ask` is asked
/// first: a question ([`confirm`]) is answered instead of acting, and the action runs only
/// once the organiser confirms it (`None`: this action needs no confirmation).
async fn form_action(
    site: Site,
    auth: Auth,
    csrf: Option<String>,
    confirmed: bool,
    ask: impl FnOnce(&Site) -> Result<Option<Question>, Error> + Send + 'static,
    action: impl FnOnce(&Site) -> Result<(), Error> + Send + 'static,
) -> Result<Response, WebError> {
    organiser_only(&auth)?;
    check_csrf(&auth, csrf.as_deref())?;
    if !confirmed {
        let question = blocking({
            let site = site.clone();
            move || Ok(ask(&site))
        })
        .await?;
        match question {
            Ok(None) => {}
            Ok(Some(q)) => {
                return Ok(confirm::page(&auth, &csrf.unwrap_or_default(), &q));
            }
            Err(e) => return organiser_page(site, auth, None, Some(e.to_string())).await,
        }
    }
    let done = blocking({
        let site = site.clone();
        move || Ok(action(&site))
    })
    .await?;
    match done {
        Ok(()) => Ok(Redirect::to("/organiser#last-day").into_response()),
        Err(e) => organiser_page(site, auth, None, Some(e.to_string())).await,
    }
}

/// A question of the last day's section: back to it on "Cancel".
fn question(
    title: String,
    what: maud::Markup,
    action: &'static str,
    fields: Vec<(&'static str, String)>,
    yes: &str,
) -> Option<Question> {
    Some(Question {
        title,
        what,
        action,
        fields,
        yes: yes.to_string(),
        back: "/organiser",
    })
}

#[derive(Deserialize)]
pub struct FreezeForm {
    pub csrf: Option<String>,
    pub action: String,
    #[serde(default)]
    pub at: String,
    pub confirm: Option<String>,
}

pub async fn freeze_form(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<FreezeForm>,
) -> Result<Response, WebError> {
    let confirmed = confirm::confirmed(form.confirm.as_deref());
    let action = form.action.clone();
    let ask = move |_: &Site| {
        Ok(match action.as_str() {
            "now" => question(
                "Close the contest now?".into(),
                maud::html! {
                    p { "The contest closes at once: no team can submit from this moment, and the \
                        final plays the versions the teams have now." }
                    p { b { "This cannot be undone" } ": a closing time can be taken back only \
                        before it passes, and this one passes now." }
                },
                "/organiser/freeze",
                vec![("action", "now".into())],
                "Close the contest now",
            ),
            _ => None,
        })
    };
    form_action(site, auth, form.csrf, confirmed, ask, move |site| {
        freeze_action(&*site.arena.conn()?, &form.action, &form.at)
    })
    .await
}

#[derive(Clone, Deserialize)]
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
    pub confirm: Option<String>,
}

/// An optional number of a form ("" is none).
fn number(name: &str, text: &str) -> Result<Option<u32>, Error> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse()
        .map(Some)
        .map_err(|_| Error::Invalid(format!("{name}: {t:?} is not a whole number")))
}

pub async fn final_form(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<FinalForm>,
) -> Result<Response, WebError> {
    let confirmed = confirm::confirmed(form.confirm.as_deref());
    let ask = {
        let form = form.clone();
        move |site: &Site| {
            tournament::may_start(&*site.arena.conn()?)?;
            for (name, text) in [
                ("rounds", &form.rounds),
                ("repeat", &form.repeat),
                ("Swiss rounds", &form.swiss_rounds),
            ] {
                number(name, text)?;
            }
            let mut fields = vec![
                ("schedule", form.schedule.clone()),
                ("rounds", form.rounds.clone()),
                ("repeat", form.repeat.clone()),
                ("swiss_rounds", form.swiss_rounds.clone()),
                ("challengers", form.challengers.clone()),
            ];
            if let Some(a) = &form.anchors {
                fields.push(("anchors", a.clone()));
            }
            Ok(question(
                "Start the final tournament?".into(),
                maud::html! {
                    p { "The final starts now, as a " b { (form.schedule) } " of the versions \
                        that play for each team"
                        @if form.anchors.is_some() { " and the anchors" }
                        ": every table is queued at once and the workers play them until the \
                        last (the ladder makes no new match meanwhile). Its report is published \
                        when every table is over." }
                    p { b { "A final is started once" } ": it cannot be stopped or started \
                        again from this page (re-judging plays one of its matches again)." }
                },
                "/organiser/final",
                fields,
                "Start the final",
            ))
        }
    };
    form_action(site, auth, form.csrf.clone(), confirmed, ask, move |site| {
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

#[derive(Clone, Deserialize)]
pub struct RejudgeForm {
    pub csrf: Option<String>,
    pub action: String,
    #[serde(default, rename = "match")]
    pub match_id: String,
    #[serde(default)]
    pub reason: String,
    pub confirm: Option<String>,
}

/// The re-judge form's match number ("" is none).
fn match_number(text: &str) -> Result<Option<i64>, Error> {
    match text.trim() {
        "" => Ok(None),
        t => t.parse().map(Some).map_err(|_| {
            Error::Invalid(format!(
                "{t:?} is not a match's number: give the id the matches page shows"
            ))
        }),
    }
}

/// What re-judging will do, as its question asks it; a refusal for a match that is not
/// there (or a form the action would refuse anyway), without a question first.
fn rejudge_question(site: &Site, form: &RejudgeForm) -> Result<Option<Question>, Error> {
    let id = match_number(&form.match_id)?;
    let conn = site.arena.conn()?;
    let mut fields = vec![
        ("action", form.action.clone()),
        ("match", form.match_id.trim().to_string()),
        ("reason", form.reason.clone()),
    ];
    let reason = form.reason.trim();
    let because = maud::html! {
        @if reason.is_empty() { " No reason is given." } @else { " The reason kept: \u{201c}" (reason) "\u{201d}." }
    };
    if form.action == "recompute" {
        if id.is_some() {
            return Err(Error::Invalid(
                "recompute rebuilds every rating: give no match".into(),
            ));
        }
        fields.retain(|(name, _)| *name != "match");
        let counted = store::matches::count_done(&conn, store::MatchKind::Ladder)?;
        return Ok(question(
            "Recompute every rating?".into(),
            maud::html! {
                p { "Every version's rating, rated-match count and SPRT verdict is rebuilt from \
                    scratch from the " b { (plural(counted as usize, "finished ladder match", "finished ladder matches")) } ", \
                    in one transaction: the ladder waits until it is done (the longer the \
                    more matches), and every rating the pages show may change." }
            },
            "/organiser/rejudge",
            fields,
            "Recompute every rating",
        ));
    }
    let Some(id) = id else {
        return Err(Error::Invalid(
            "name the match to re-judge by its number".into(),
        ));
    };
    let Some(m) = crate::views::match_rows(&conn, &[store::MatchId(id)])
        .map_err(|e| Error::Internal(format!("{e:?}")))?
        .pop()
    else {
        return Err(Error::NotFound(format!(
            "there is no match {id}: the matches page (/matches) lists them with their ids"
        )));
    };
    let seats: Vec<String> = m.seats.iter().map(|s| s.team.clone()).collect();
    let described = maud::html! {
        a href=(format!("/matches/{id}")) { "match #" (id) } " (" (m.kind) ", " (m.state)
        @if !seats.is_empty() { ": " (seats.join(" vs ")) } ")"
    };
    let (title, what, yes) = match form.action.as_str() {
        "void" => (
            format!("Void match #{id}?"),
            maud::html! {
                p { "The " (described) " will be void: it never counts, and every rating is \
                    rebuilt from the other matches." (because) }
                p { b { "This cannot be undone" } " (its result is no longer counted anywhere)." }
            },
            format!("Void match #{id}"),
        ),
        "rerun" => (
            format!("Play match #{id} again?"),
            maud::html! {
                p { "The " (described) " will be played again from its first round: its \
                    result is taken out, its record kept aside, every rating rebuilt without \
                    it, and it is queued for a worker." (because) }
                p { b { "This cannot be undone" } ": the new result replaces the old one." }
            },
            format!("Play match #{id} again"),
        ),
        other => {
            return Err(Error::Invalid(format!(
                "unknown re-judging {other:?}: void, rerun or recompute"
            )));
        }
    };
    Ok(question(title, what, "/organiser/rejudge", fields, &yes))
}

pub async fn rejudge_form(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<RejudgeForm>,
) -> Result<Response, WebError> {
    let confirmed = confirm::confirmed(form.confirm.as_deref());
    let ask = {
        let form = form.clone();
        move |site: &Site| rejudge_question(site, &form)
    };
    form_action(site, auth, form.csrf.clone(), confirmed, ask, move |site| {
        let id = match_number(&form.match_id)?;
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
    action: impl FnOnce(&Site) -> Result<T, Error> + Send + 'static,
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
        .map_err(|e| ApiError(WebError::BadRequest(e.to_string())))
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
    ApiJson(req): ApiJson<FreezeRequest>,
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
    ApiJson(req): ApiJson<FinalRequest>,
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
        tournament::progress(&site.arena, &*site.arena.conn()?)
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
    ApiJson(req): ApiJson<RejudgeRequest>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let counted = api_action(site, &auth, move |site| {
        rejudge_action(&site.arena, &req.action, req.match_id, &req.reason)
    })
    .await?;
    Ok(axum::Json(serde_json::json!({ "counted": counted })))
}
