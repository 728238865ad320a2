//! A team's choice of the version that plays, on the site: the section of its own page (a
//! "Play this version" button per ready version, "Play the latest" while one is pinned; plain
//! forms with the session's CSRF token, a refusal shown on the page with its status) and
//! `POST /api/teams/NAME/pin` (a bearer token only: JSON carries no CSRF token). Both ask
//! [`crate::pinning::pin`], for the team itself or the organiser; once the contest has
//! closed the buttons are gone, the page says why, and both answer 409.

use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::post;
use maud::{Markup, html};
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::Value;

use super::api::ApiAuth;
use super::auth::Auth;
use super::db::Db;
use super::forms::check_csrf;
use super::refusals::{ApiBytes, ApiPath, Form, Path};
use super::templates::{team_href, time};
use super::{ApiError, Site, WebError};
use crate::pinning::{self, Pinned};
use crate::store::{VersionId, VersionState};
use crate::views::{TeamPage, VersionRow, Viewer};

/// The page's route of this file.
pub fn routes() -> Router<Site> {
    Router::new().route("/teams/{name}/pin", post(form_pin))
}

/// The API's route of this file (below `/api`).
pub fn api_routes() -> Router<Site> {
    Router::new().route("/teams/{name}/pin", post(api_pin))
}

/// Pins `version` (or unpins, `None`) for team `name`, if `viewer` is that team or the
/// organiser.
fn pin_for(
    conn: &mut Connection,
    viewer: &Viewer,
    name: &str,
    version: Option<i64>,
) -> Result<Pinned, WebError> {
    let team = pinning::team_named(conn, name)?;
    match viewer {
        _ if viewer.owns(team) => {}
        Viewer::Team { name: own, .. } => {
            return Err(WebError::Forbidden(format!(
                "this is team {own}'s token: a team chooses only its own version (the \
                 organiser's token may choose for any team)"
            )));
        }
        _ => {
            return Err(WebError::Forbidden(format!(
                "only team {name} (or the organiser) chooses the version it plays: log in with \
                 its token"
            )));
        }
    }
    Ok(pinning::pin(conn, team, version.map(VersionId))?)
}

const API_BODY: &str = "send {\"version\": ID} to pin one of the team's ready versions, or \
                        {\"version\": null} to play its latest ready one";

/// The version a request's JSON body names (`null`: unpin).
fn requested_version(body: &[u8]) -> Result<Option<i64>, WebError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| WebError::BadRequest(format!("the body is not JSON ({e}): {API_BODY}")))?;
    match value.get("version") {
        Some(Value::Null) => Ok(None),
        Some(v) => v.as_i64().map(Some).ok_or_else(|| {
            WebError::BadRequest(format!(
                "\"version\" is {v}, not a version's number: {API_BODY}"
            ))
        }),
        None => Err(WebError::BadRequest(format!(
            "the body has no \"version\": {API_BODY}"
        ))),
    }
}

/// `POST /api/teams/NAME/pin`: `{"version": ID}` or `{"version": null}` with the team's (or
/// the organiser's) bearer token; answers `{active_version, pinned_version}`.
pub async fn api_pin(
    State(site): State<Site>,
    ApiAuth(auth): ApiAuth,
    ApiPath(name): ApiPath<String>,
    ApiBytes(body): ApiBytes,
) -> Result<axum::Json<Pinned>, ApiError> {
    if !auth.bearer {
        return Err(ApiError(WebError::Unauthorized(
            "send the team's token (or the organiser's) as `Authorization: Bearer TOKEN` (a \
             browser session uses the team page's buttons)"
                .into(),
        )));
    }
    let version = requested_version(&body)?;
    let pinned = Db(site)
        .run(move |conn, _| pin_for(conn, &auth.viewer, &name, version))
        .await?;
    Ok(axum::Json(pinned))
}

#[derive(Deserialize)]
pub struct PinForm {
    pub csrf: Option<String>,
    /// A version's number; empty: play the latest ready one.
    #[serde(default)]
    pub version: String,
}

/// The team page's buttons: back to the page, or the page again with the refusal.
pub async fn form_pin(
    State(site): State<Site>,
    auth: Auth,
    Path(name): Path<String>,
    Form(form): Form<PinForm>,
) -> Result<Response, WebError> {
    if auth.viewer == Viewer::Public {
        return Err(WebError::Forbidden(format!(
            "only team {name} (or the organiser) chooses the version it plays: log in with its \
             token"
        )));
    }
    check_csrf(&auth, form.csrf.as_deref())?;
    let asked = match form.version.trim() {
        "" => Ok(None),
        t => t.parse::<i64>().map(Some).map_err(|_| {
            WebError::BadRequest(format!(
                "{t:?} is not a version's number: choose one with its button"
            ))
        }),
    };
    let done = match asked {
        Ok(version) => {
            let (site, viewer, name) = (site.clone(), auth.viewer.clone(), name.clone());
            Db(site)
                .run(move |conn, _| Ok(pin_for(conn, &viewer, &name, version)))
                .await?
        }
        Err(e) => Err(e),
    };
    match done {
        Ok(_) => Ok(Redirect::to(&format!("{}#choose", team_href(&name))).into_response()),
        Err(e @ (WebError::BadRequest(_) | WebError::Conflict(_))) => {
            super::pages::team_page(site, auth, name, Some(e)).await
        }
        Err(e) => Err(e),
    }
}

/// The section of a team's own page (the team's, or the organiser's view of it) that says
/// which version plays and lets the viewer choose: nothing for others or a built-in bot.
pub fn section(
    page: &TeamPage,
    csrf: Option<&str>,
    closed: Option<i64>,
    error: Option<&str>,
) -> Markup {
    if !page.own || page.builtin {
        return html! {};
    }
    let ready: Vec<&VersionRow> = page
        .versions
        .iter()
        .filter(|v| v.state == VersionState::Ready)
        .collect();
    let action = format!("{}/pin", team_href(&page.name));
    html! {
        section #choose {
            h2 { "The version that plays" }
            @if let Some(e) = error { p.failure #pin-error { (e) } }
            p #pin-status {
                @match (page.pinned_version, page.active_version) {
                    (Some(p), _) => {
                        "Version #" (p) " is pinned: it plays until you choose another, whatever \
                         you submit next."
                    },
                    (None, Some(a)) => {
                        "No version is pinned: the latest version that passes its check plays \
                         (now #" (a) "), so a newer one replaces it as soon as it passes."
                    },
                    (None, None) => {
                        "No version has passed its check yet: the first one that does plays."
                    },
                }
            }
            @if let Some(at) = closed {
                p.notice #pin-closed {
                    "The contest closed at " (time(at)) ": the version that plays can no longer \
                     be changed, since the final plays the versions the teams had at the \
                     closing time."
                }
            } @else if let Some(csrf) = csrf {
                @if !ready.is_empty() {
                    (super::templates::wide(html! { table #pin-versions {
                        thead { tr {
                            th { "Version" } th { "Label" } th.num { "μ ± σ" } th.num { "Matches" } th { "" }
                        } }
                        tbody {
                            @for v in &ready {
                                tr {
                                    td {
                                        "#" (v.id)
                                        @if page.active_version == Some(v.id) { " " span.badge.active { "plays" } }
                                    }
                                    td { (super::templates::clip(&v.label)) }
                                    td.num { (format!("{:.2} ± {:.2}", v.mu, v.sigma)) }
                                    td.num { (v.matches) }
                                    td {
                                        @if page.pinned_version == Some(v.id) {
                                            span.badge.pinned { "pinned" }
                                        } @else {
                                            form.inline method="post" action=(action) {
                                                input type="hidden" name="csrf" value=(csrf);
                                                input type="hidden" name="version" value=(v.id);
                                                button type="submit" { "Play this version" }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    } }))
                    @if page.pinned_version.is_some() {
                        form method="post" action=(action) {
                            input type="hidden" name="csrf" value=(csrf);
                            input type="hidden" name="version" value="";
                            button type="submit" { "Play the latest" }
                            " " span.muted { "(the latest version that passes its check plays, \
                                now and after each new one)" }
                        }
                    }
                }
            } @else {
                p.muted {
                    "Log in on the site to choose it here, or send "
                    code { "POST /api/teams/NAME/pin" } " with the team's token."
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_body_names_a_version_or_null() {
        assert_eq!(requested_version(br#"{"version": 7}"#).unwrap(), Some(7));
        assert_eq!(requested_version(br#"{"version": null}"#).unwrap(), None);
        for (body, says) in [
            (&br#"{}"#[..], "has no \"version\""),
            (br#"{"version": "7"}"#, "not a version's number"),
            (br#"{"version": 1.5}"#, "not a version's number"),
            (b"version=7", "not JSON"),
        ] {
            let e = requested_version(body).unwrap_err();
            assert!(e.message().contains(says), "{}", e.message());
            assert!(
                e.message().contains("{\"version\": null}"),
                "{}",
                e.message()
            );
        }
    }
}
