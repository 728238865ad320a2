//! The pages' GET handlers: each reads its view (the same value its JSON API returns) on a
//! blocking thread and renders it with [`super::templates`].

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::Markup;
use serde::Deserialize;

use super::auth::{self, Auth};
use super::db::Db;
use super::refusals::{Path, Query};
use super::templates::{self, Frame};
use super::{Site, WebError};
use crate::store::{MatchId, VersionId};
use crate::views::{self, Viewer};

fn page(auth: &Auth, title: &str, body: Markup) -> Markup {
    templates::layout(
        &Frame {
            viewer: &auth.viewer,
            csrf: auth.csrf.as_deref(),
            closing: auth.closing,
        },
        title,
        body,
    )
}

pub async fn leaderboard(db: Db, auth: Auth) -> Result<Markup, WebError> {
    let dir = db.arena().dir.clone();
    let placement = db.arena().config.ladder.placement_matches;
    let lb = db
        .read(move |conn, _| Ok(views::leaderboard(conn, placement)?))
        .await?;
    let body =
        maud::html! { (super::finals::leaderboard_section(&dir)) (templates::leaderboard(&lb)) };
    Ok(page(&auth, "Leaderboard", body))
}

pub async fn team(
    State(site): State<Site>,
    auth: Auth,
    Path(name): Path<String>,
) -> Result<Response, WebError> {
    team_page(site, auth, name, None).await
}

/// A team's page, with a refused action's error (its status is the page's).
pub async fn team_page(
    site: Site,
    auth: Auth,
    name: String,
    error: Option<WebError>,
) -> Result<Response, WebError> {
    let viewer = auth.viewer.clone();
    let (view, closed) = Db(site)
        .read(move |conn, arena| {
            let closed = crate::freeze::closed(conn).map_err(WebError::from)?;
            Ok((views::team(conn, &arena.dir, &name, &viewer)?, closed))
        })
        .await?;
    let choice = super::pinning::section(
        &view,
        auth.csrf.as_deref(),
        closed,
        error.as_ref().map(WebError::message),
    );
    let status = error
        .as_ref()
        .map_or(axum::http::StatusCode::OK, WebError::status);
    let body = page(
        &auth,
        &templates::team_title(&view.name),
        templates::team(&view, choice),
    );
    Ok((status, body).into_response())
}

#[derive(Deserialize)]
pub struct MatchQuery {
    pub team: Option<String>,
    pub before: Option<i64>,
    pub limit: Option<i64>,
}

pub async fn matches(
    State(site): State<Site>,
    auth: Auth,
    Query(q): Query<MatchQuery>,
) -> Result<Markup, WebError> {
    let playing = match q.before {
        None => super::live::playing_rows(&site).await?,
        Some(_) => Vec::new(),
    };
    let rows = Db(site)
        .read(move |conn, _| {
            Ok(views::matches(
                conn,
                q.team.as_deref(),
                q.before.map(MatchId),
                q.limit.unwrap_or(50),
            )?)
        })
        .await?;
    let older = rows.last().map(|m| m.id);
    let body = maud::html! {
        (super::live::playing_list(&playing))
        (templates::match_list(&rows))
        @if let Some(id) = older { p { a href=(format!("/matches?before={id}")) { "Older matches" } } }
    };
    Ok(page(&auth, "Matches", body))
}

pub async fn match_page(
    State(site): State<Site>,
    auth: Auth,
    Path(id): Path<i64>,
) -> Result<Markup, WebError> {
    if let Some(body) = super::live::match_in_play(&site, id).await? {
        return Ok(page(&auth, &format!("Match {id}"), body));
    }
    let viewer = auth.viewer.clone();
    let view = Db(site)
        .read(move |conn, arena| Ok(views::match_page(conn, &arena.dir, MatchId(id), &viewer)?))
        .await?;
    Ok(page(
        &auth,
        &format!("Match {id}"),
        templates::match_page(&view),
    ))
}

/// The replay viewer of a finished match, with what the viewer may not see taken out of the
/// record. The viewer's page carries its own Content-Security-Policy (its script by hash);
/// the same policy goes in the header, with `frame-ancestors 'self'` so only the match page
/// frames it. Opened alone it carries the closing-time banner; in the match page's frame
/// (`Sec-Fetch-Dest: iframe`) it does not, since the page around it does.
pub async fn replay(
    db: Db,
    auth: Auth,
    headers: HeaderMap,
    Path(id): Path<i64>,
) -> Result<Response, WebError> {
    let viewer = auth.viewer.clone();
    let html = db
        .run(move |conn, arena| {
            let records = views::match_records(conn, &arena.dir, MatchId(id), &viewer)?
                .ok_or_else(|| WebError::NotFound(format!("match {id} has no record")))?;
            crate::show::html::render(&format!("Match {id}"), &records, 1, None, None)
                .map_err(|e| WebError::Internal(format!("the record of match {id}: {e}")))
        })
        .await?;
    Ok(viewer_response(html, &headers, auth.closing))
}

/// A viewer's page (the replay, the live board) as the response: its own policy in the header
/// too, with `frame-ancestors 'self'` so only the match page frames it; opened alone (not
/// `Sec-Fetch-Dest: iframe`) it carries the closing-time banner.
pub(super) fn viewer_response(html: String, headers: &HeaderMap, closing: Option<i64>) -> Response {
    let csp = viewer_policy(&html).unwrap_or_else(|| "default-src 'none'".into());
    let framed = headers
        .get("sec-fetch-dest")
        .is_some_and(|v| v.as_bytes() == b"iframe");
    let html = if framed {
        html
    } else {
        super::finals::banner_in_document(html, closing)
    };
    let mut response = axum::response::Html(html).into_response();
    if let Ok(value) = HeaderValue::from_str(&format!("{csp}; frame-ancestors 'self'")) {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, value);
    }
    response
}

/// The policy of the viewer's `<meta http-equiv="Content-Security-Policy">`.
pub(super) fn viewer_policy(html: &str) -> Option<String> {
    let at = html.find("http-equiv=\"Content-Security-Policy\"")?;
    let rest = &html[at..];
    let start = rest.find("content=\"")? + "content=\"".len();
    let end = rest[start..].find('"')?;
    Some(rest[start..start + end].to_string())
}

pub async fn submission(db: Db, auth: Auth, Path(id): Path<i64>) -> Result<Markup, WebError> {
    let viewer = auth.viewer.clone();
    let view = db
        .run(move |conn, arena| Ok(views::submission(conn, &arena.dir, VersionId(id), &viewer)?))
        .await?;
    Ok(page(
        &auth,
        &format!("Submission #{id}: {}", view.version.label),
        templates::submission(&view),
    ))
}

/// One file of a submission's source, as plain text, for its team and the organiser.
pub async fn source_file(
    db: Db,
    auth: Auth,
    Path((id, path)): Path<(i64, String)>,
) -> Result<Response, WebError> {
    let viewer = auth.viewer.clone();
    let bytes = db
        .run(move |conn, arena| {
            // The same permission as the submission page.
            let view = views::submission(conn, &arena.dir, VersionId(id), &viewer)?;
            if !view.files.iter().any(|f| f.path == path) {
                return Err(WebError::NotFound(format!(
                    "submission {id} has no file {path:?}"
                )));
            }
            let file = arena.version_dir(id).join("source").join(&path);
            std::fs::read(&file).map_err(|e| WebError::Internal(format!("{}: {e}", file.display())))
        })
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CONTENT_DISPOSITION, "inline"),
        ],
        bytes,
    )
        .into_response())
}

pub async fn login(headers: HeaderMap, auth: Auth) -> Response {
    if auth.viewer != Viewer::Public {
        return Redirect::to("/").into_response();
    }
    login_form(&auth, None, &headers)
}

/// The login form, with a fresh double-submit CSRF value in its cookie and its field.
pub fn login_form(auth: &Auth, error: Option<&str>, headers: &HeaderMap) -> Response {
    let csrf = crate::tokens::random_hex(16);
    let status = if error.is_some() {
        axum::http::StatusCode::UNAUTHORIZED
    } else {
        axum::http::StatusCode::OK
    };
    let mut response =
        (status, page(auth, "Log in", templates::login(&csrf, error))).into_response();
    response.headers_mut().append(
        header::SET_COOKIE,
        auth::set_cookie(
            auth::LOGIN_CSRF_COOKIE,
            &csrf,
            3600,
            auth::over_tls(headers),
        ),
    );
    response
}

pub async fn submit(State(site): State<Site>, auth: Auth) -> Result<Response, WebError> {
    let Some(csrf) = auth.csrf.clone() else {
        return Ok(Redirect::to("/login").into_response());
    };
    if !matches!(auth.viewer, Viewer::Team { .. }) {
        return Err(WebError::Forbidden(
            "only a team submits: log in with the team's token".into(),
        ));
    }
    Ok(submit_form(&site, &auth, &csrf, None).into_response())
}

pub fn submit_form(site: &Site, auth: &Auth, csrf: &str, error: Option<&str>) -> Markup {
    let languages: Vec<(String, String)> = site
        .arena
        .config
        .recipes
        .iter()
        .map(|r| (r.name.clone(), r.main.clone()))
        .collect();
    page(
        auth,
        "Submit a version",
        templates::submit(csrf, &languages, site.arena.config.uploads.max_bytes, error),
    )
}

pub async fn organiser(State(site): State<Site>, auth: Auth) -> Result<Response, WebError> {
    organiser_page(site, auth, None, None).await
}

/// The organiser's page, with a new team's token to show once, or an error.
pub async fn organiser_page(
    site: Site,
    auth: Auth,
    new_token: Option<(String, String)>,
    error: Option<String>,
) -> Result<Response, WebError> {
    let Some(csrf) = auth.csrf.clone().filter(|_| auth.viewer.is_organiser()) else {
        return Ok(Redirect::to("/login").into_response());
    };
    let (view, last_day) = Db(site)
        .read(|conn, arena| Ok((views::organiser(conn)?, super::finals::load(arena, conn)?)))
        .await?;
    let status = if error.is_some() {
        axum::http::StatusCode::BAD_REQUEST
    } else {
        axum::http::StatusCode::OK
    };
    let body = templates::organiser(
        &view,
        &csrf,
        new_token.as_ref().map(|(a, b)| (a.as_str(), b.as_str())),
        error.as_deref(),
    );
    let body = maud::html! { (body) (super::finals::organiser_section(&last_day, &csrf)) };
    Ok((status, page(&auth, "Organiser", body)).into_response())
}

pub async fn style() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "max-age=3600"),
        ],
        templates::STYLE.0,
    )
        .into_response()
}
