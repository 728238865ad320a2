//! The browser's POSTs: log in and out, submit a version, and the organiser's actions (add a
//! team, disable or enable one, give one a new token, pause the matchmaker). Every one checks
//! its CSRF token first; each answers with the page it came from (with its error or its
//! result) or a redirect.

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::auth::{self, Auth};
use super::db::Db;
use super::refusals::{Form, Multipart};
use super::{Site, WebError, blocking, confirm, pages, templates};
use crate::admin;
use crate::store::TeamId;
use crate::submissions::{self, Upload};
use crate::views::Viewer;

const CSRF_REFUSED: &str = "the form has expired or did not come from this site (its CSRF token \
                            does not match): reload the page and send it again";

/// Refuses a form whose CSRF token is not the session's.
pub(super) fn check_csrf(auth: &Auth, given: Option<&str>) -> Result<(), WebError> {
    if auth::csrf_ok(auth.csrf.as_deref(), given) {
        Ok(())
    } else {
        Err(WebError::Forbidden(CSRF_REFUSED.into()))
    }
}

#[derive(Deserialize)]
pub struct LoginForm {
    pub token: String,
    pub csrf: Option<String>,
}

pub async fn login(
    State(site): State<Site>,
    auth::Peer(peer): auth::Peer,
    headers: HeaderMap,
    auth: Auth,
    Form(form): Form<LoginForm>,
) -> Result<Response, WebError> {
    let expected = auth::cookie(&headers, auth::LOGIN_CSRF_COOKIE);
    if !auth::csrf_ok(expected.as_deref(), form.csrf.as_deref()) {
        return Err(WebError::Forbidden(CSRF_REFUSED.into()));
    }
    let address = auth::client_address(&headers, peer, &site);
    let token = form.token.trim().to_string();
    let s = site.clone();
    // A correct token logs in at once, whatever its address did; a wrong one counts against
    // the address and is answered slowly past a few (`throttle`).
    let found = Db(s)
        .run(move |conn, _| match auth::viewer_of_token(conn, &token)? {
            Some(viewer) => Ok(Ok(auth::start_session(conn, &viewer)?)),
            None => Ok(Err(auth::unknown_token(&token))),
        })
        .await?;
    if found.is_err() {
        super::throttle::failed(&site, &address).await?;
    }
    match found {
        Ok(session) => {
            let mut response = Redirect::to("/").into_response();
            let h = response.headers_mut();
            h.append(
                header::SET_COOKIE,
                auth::set_cookie(
                    auth::SESSION_COOKIE,
                    &session,
                    auth::SESSION_MS / 1000,
                    auth.tls,
                ),
            );
            h.append(
                header::SET_COOKIE,
                auth::set_cookie(auth::LOGIN_CSRF_COOKIE, "", 0, auth.tls),
            );
            Ok(response)
        }
        Err(message) => Ok(pages::login_form(&auth, Some(&message), &headers)),
    }
}

#[derive(Deserialize)]
pub struct CsrfForm {
    pub csrf: Option<String>,
}

pub async fn logout(
    db: Db,
    headers: HeaderMap,
    auth: Auth,
    Form(form): Form<CsrfForm>,
) -> Result<Response, WebError> {
    check_csrf(&auth, form.csrf.as_deref())?;
    if let Some(id) = auth::cookie(&headers, auth::SESSION_COOKIE) {
        db.run(move |conn, _| auth::end_session(conn, &id)).await?;
    }
    let mut response = Redirect::to("/").into_response();
    response.headers_mut().append(
        header::SET_COOKIE,
        auth::set_cookie(auth::SESSION_COOKIE, "", 0, auth.tls),
    );
    Ok(response)
}

/// An upload's parts, read from a multipart form: the file, and every other field as text.
pub struct UploadForm {
    pub upload: Option<Upload>,
    pub csrf: Option<String>,
}

/// Reads a multipart upload (`file`, `language`, `label`, and `csrf` for the browser's form).
/// A body over the server's limit is "too large" with the arena's limit in the message.
pub async fn read_upload(
    site: &Site,
    mut multipart: axum::extract::Multipart,
) -> Result<UploadForm, WebError> {
    let max = site.arena.config.uploads.max_bytes;
    let too_large = || {
        WebError::TooLarge(format!(
            "the upload is larger than the arena takes ({}, [uploads] max_bytes in arena.toml): \
             send a smaller file (leave out build outputs and data the bot does not need)",
            crate::config::format_size(max)
        ))
    };
    let mut file: Option<(String, Vec<u8>)> = None;
    let mut language = None;
    let mut label = None;
    let mut csrf = None;
    let mut too_big = false;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) if is_length_limit(&e) => return Err(too_large()),
            Err(e) => {
                return Err(WebError::BadRequest(format!(
                    "the upload is not a valid multipart form: {e}"
                )));
            }
        };
        let name = field.name().unwrap_or("").to_string();
        let file_name = field.file_name().map(str::to_string);
        // Read chunk by chunk: past the arena's limit the rest is read and dropped, so that
        // the client (which is still sending) gets to read the 413 and its message instead
        // of a connection closed under it.
        let mut field = field;
        let mut bytes = Vec::new();
        let mut over = false;
        loop {
            match field.chunk().await {
                Ok(Some(chunk)) => {
                    if !over && (bytes.len() + chunk.len()) as u64 <= max {
                        bytes.extend_from_slice(&chunk);
                    } else {
                        over = true;
                        bytes.clear();
                    }
                }
                Ok(None) => break,
                Err(e) if is_length_limit(&e) => return Err(too_large()),
                Err(e) => {
                    return Err(WebError::BadRequest(format!(
                        "the upload's field {name:?} could not be read: {e}"
                    )));
                }
            }
        }
        if over {
            too_big = true;
            continue;
        }
        let text = || String::from_utf8_lossy(&bytes).trim().to_string();
        match name.as_str() {
            "file" => file = Some((file_name.unwrap_or_default(), bytes)),
            "language" => language = Some(text()).filter(|t| !t.is_empty()),
            "label" => label = Some(text()).filter(|t| !t.is_empty()),
            "csrf" => csrf = Some(text()),
            _ => {}
        }
    }
    if too_big {
        return Err(too_large());
    }
    Ok(UploadForm {
        upload: file
            .filter(|(_, bytes)| !bytes.is_empty())
            .map(|(file_name, bytes)| Upload {
                file_name,
                bytes,
                language,
                label,
            }),
        csrf,
    })
}

/// Whether a multipart read failed on the body's length limit (axum's own status for it).
fn is_length_limit(e: &axum::extract::multipart::MultipartError) -> bool {
    e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE
}

/// An upload refused by [`accept`]: the error, and for too many uploads (HTTP 429) the seconds
/// until the next is taken, which the answer gives as `Retry-After`.
pub struct Rejected {
    pub error: WebError,
    pub retry_after: Option<u64>,
}

impl From<WebError> for Rejected {
    fn from(error: WebError) -> Self {
        Rejected {
            error,
            retry_after: None,
        }
    }
}

/// `response` with the `Retry-After` header, when there is one to give.
pub fn with_retry_after(retry_after: Option<u64>, mut response: Response) -> Response {
    if let Some(secs) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
    }
    response
}

/// Stores an upload for `team` (a team that may submit), or says why not.
pub async fn accept(site: &Site, team: TeamId, upload: Upload) -> Result<i64, Rejected> {
    let site = site.clone();
    blocking(move || {
        Ok(
            submissions::accept(&site.arena, team, upload).map_err(|r| Rejected {
                retry_after: r.retry_after,
                error: r.into(),
            }),
        )
    })
    .await?
}

pub async fn submit(
    State(site): State<Site>,
    auth: Auth,
    Multipart(multipart): Multipart,
) -> Result<Response, WebError> {
    let Viewer::Team { id: team, .. } = auth.viewer else {
        return Err(WebError::Forbidden(
            "only a team submits: log in with the team's token".into(),
        ));
    };
    let form = read_upload(&site, multipart).await;
    let csrf = auth.csrf.clone().unwrap_or_default();
    let form = match form {
        Ok(form) => form,
        Err(e) => {
            let page = pages::submit_form(&site, &auth, &csrf, Some(e.message()));
            return Ok((e.status(), page).into_response());
        }
    };
    check_csrf(&auth, form.csrf.as_deref())?;
    let Some(upload) = form.upload else {
        let e = WebError::BadRequest("choose a file to submit".into());
        let page = pages::submit_form(&site, &auth, &csrf, Some(e.message()));
        return Ok((e.status(), page).into_response());
    };
    match accept(&site, team, upload).await {
        Ok(id) => Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(r) => {
            let e = &r.error;
            let page = pages::submit_form(&site, &auth, &csrf, Some(e.message()));
            Ok(with_retry_after(
                r.retry_after,
                (e.status(), page).into_response(),
            ))
        }
    }
}

pub(super) fn organiser_only(auth: &Auth) -> Result<(), WebError> {
    if auth.viewer.is_organiser() {
        Ok(())
    } else {
        Err(WebError::Forbidden(
            "only the organiser may do this: log in with the organiser's token".into(),
        ))
    }
}

#[derive(Deserialize)]
pub struct AddTeamForm {
    pub csrf: Option<String>,
    pub name: String,
}

pub async fn add_team(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<AddTeamForm>,
) -> Result<Response, WebError> {
    organiser_only(&auth)?;
    check_csrf(&auth, form.csrf.as_deref())?;
    let s = site.clone();
    let name = form.name.clone();
    let added = blocking(move || Ok(admin::add_team(&s.arena, &name))).await?;
    match added {
        Ok(token) => pages::organiser_page(site, auth, Some((form.name, token)), None).await,
        Err(e) => pages::organiser_page(site, auth, None, Some(e.to_string())).await,
    }
}

#[derive(Deserialize)]
pub struct TeamActionForm {
    pub csrf: Option<String>,
    pub team: String,
    /// `disable`, `enable` or `token`.
    pub action: String,
    /// `yes` once the organiser confirmed a disable or a new token ([`super::confirm`]).
    pub confirm: Option<String>,
}

/// What disabling team `team`, or giving it a new token, will do: the question
/// [`team_action`] asks before it acts (`None`: the action needs no confirmation).
fn team_question(team: &str, action: &str) -> Option<confirm::Question> {
    let (title, what, yes) = match action {
        "disable" => (
            format!("Disable {}?", templates::team_title(team)),
            maud::html! {
                p { "The team " b { (team) } " will be disabled: its version leaves the ladder \
                    (no new match seats it; the leaderboard lists it apart, marked disabled), \
                    and it can no longer submit. Its matches and ratings are kept." }
                p { "\"Enable\" on the organiser's page brings it back." }
            },
            format!("Disable {team}"),
        ),
        "token" => (
            format!("Give {} a new token?", templates::team_title(team)),
            maud::html! {
                p { "The team " b { (team) } " gets a new token, shown once on the next page. \
                    Its old token stops working at once and every session logged in with it \
                    ends: the team must be given the new one to log in or submit." }
                p { "This cannot be undone." }
            },
            format!("Give {team} a new token"),
        ),
        _ => return None,
    };
    Some(confirm::Question {
        title,
        what,
        action: "/organiser/team",
        fields: vec![("team", team.to_string()), ("action", action.to_string())],
        yes,
        back: "/organiser",
    })
}

pub async fn team_action(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<TeamActionForm>,
) -> Result<Response, WebError> {
    organiser_only(&auth)?;
    check_csrf(&auth, form.csrf.as_deref())?;
    if !confirm::confirmed(form.confirm.as_deref())
        && let Some(question) = team_question(&form.team, &form.action)
    {
        let csrf = auth.csrf.clone().unwrap_or_default();
        return Ok(confirm::page(&auth, &csrf, &question));
    }
    let s = site.clone();
    let team = form.team.clone();
    let action = form.action.clone();
    let done = Db(s)
        .run(move |conn, arena| {
            let id = match admin::team_id(conn, &team) {
                Ok(id) => id,
                Err(e) => return Ok(Err(e)),
            };
            Ok(match action.as_str() {
                "disable" => admin::set_team_disabled(arena, id, true).map(|_| None),
                "enable" => admin::set_team_disabled(arena, id, false).map(|_| None),
                "token" => admin::new_token(conn, id).map(Some),
                other => Err(crate::Error::Invalid(format!(
                    "unknown action {other:?}: disable, enable or token"
                ))),
            })
        })
        .await?;
    match done {
        Ok(Some(token)) => pages::organiser_page(site, auth, Some((form.team, token)), None).await,
        Ok(None) => Ok(Redirect::to("/organiser").into_response()),
        Err(e) => pages::organiser_page(site, auth, None, Some(e.to_string())).await,
    }
}

#[derive(Deserialize)]
pub struct MatchmakerForm {
    pub csrf: Option<String>,
    pub paused: bool,
}

pub async fn matchmaker(
    State(site): State<Site>,
    auth: Auth,
    Form(form): Form<MatchmakerForm>,
) -> Result<Response, WebError> {
    organiser_only(&auth)?;
    check_csrf(&auth, form.csrf.as_deref())?;
    blocking(move || Ok(admin::set_paused(&site.arena, form.paused)?)).await?;
    Ok(Redirect::to("/organiser").into_response())
}
