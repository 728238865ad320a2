//! The JSON API: the very values the pages show ([`crate::views`]), and the upload
//! (`POST /api/submissions`, multipart, `Authorization: Bearer TOKEN`). Errors are
//! `{"error": "..."}` with the HTTP status ([`super::ApiError`]; what axum refuses before a handler
//! runs is made so by [`super::refusals`]); the book documents every route
//! (`docs/arena.md`, "The JSON API").

use axum::Json;
use axum::extract::{FromRequestParts, State};
use axum::http::header;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::auth::Auth;
use super::db::Db;
use super::pages::MatchQuery;
use super::refusals::{ApiMultipart, ApiPath, ApiQuery};
use super::{ApiError, Site, WebError, forms};
use crate::store::{MatchId, VersionId};
use crate::views::{self, Viewer};

/// [`Auth`] with its refusal in JSON.
pub struct ApiAuth(pub Auth);

impl FromRequestParts<Site> for ApiAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, site: &Site) -> Result<Self, Self::Rejection> {
        Ok(ApiAuth(Auth::from_request_parts(parts, site).await?))
    }
}

type ApiResult<T> = Result<Json<T>, ApiError>;

pub async fn leaderboard(db: Db) -> ApiResult<views::Leaderboard> {
    let placement = db.arena().config.ladder.placement_matches;
    Ok(Json(
        db.read(move |conn, _| Ok(views::leaderboard(conn, placement)?))
            .await?,
    ))
}

pub async fn team(
    db: Db,
    ApiAuth(auth): ApiAuth,
    ApiPath(name): ApiPath<String>,
) -> ApiResult<views::TeamPage> {
    Ok(Json(
        db.read(move |conn, arena| Ok(views::team(conn, &arena.dir, &name, &auth.viewer)?))
            .await?,
    ))
}

pub async fn matches(db: Db, ApiQuery(q): ApiQuery<MatchQuery>) -> ApiResult<Vec<views::MatchRow>> {
    Ok(Json(
        db.read(move |conn, _| {
            Ok(views::matches(
                conn,
                q.team.as_deref(),
                q.before.map(MatchId),
                q.limit.unwrap_or(50),
            )?)
        })
        .await?,
    ))
}

pub async fn match_page(
    db: Db,
    ApiAuth(auth): ApiAuth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<views::MatchPage> {
    Ok(Json(
        db.read(move |conn, arena| {
            Ok(views::match_page(
                conn,
                &arena.dir,
                MatchId(id),
                &auth.viewer,
            )?)
        })
        .await?,
    ))
}

/// A finished match's record (JSON Lines), with what the asker may not see taken out.
pub async fn record(
    db: Db,
    ApiAuth(auth): ApiAuth,
    ApiPath(id): ApiPath<i64>,
) -> Result<Response, ApiError> {
    let text = db
        .run(move |conn, arena| {
            let records = views::match_records(conn, &arena.dir, MatchId(id), &auth.viewer)?
                .unwrap_or_default();
            let mut out = String::new();
            for r in &records {
                out.push_str(
                    &serde_json::to_string(r)
                        .map_err(|e| WebError::Internal(format!("a record: {e}")))?,
                );
                out.push('\n');
            }
            Ok(out)
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], text).into_response())
}

pub async fn submission(
    db: Db,
    ApiAuth(auth): ApiAuth,
    ApiPath(id): ApiPath<i64>,
) -> ApiResult<views::SubmissionPage> {
    Ok(Json(
        db.run(move |conn, arena| {
            Ok(views::submission(
                conn,
                &arena.dir,
                VersionId(id),
                &auth.viewer,
            )?)
        })
        .await?,
    ))
}

#[derive(Serialize)]
pub struct Submitted {
    pub id: i64,
    /// The submission's page, relative to the server.
    pub url: String,
}

/// `POST /api/submissions`: multipart `file` (required), `language`, `label`; a team's bearer
/// token. 201 with the new version's id, or the refusal's status and message.
pub async fn submit(
    State(site): State<Site>,
    ApiAuth(auth): ApiAuth,
    ApiMultipart(multipart): ApiMultipart,
) -> Result<Response, ApiError> {
    let team = match (&auth.viewer, auth.bearer) {
        (Viewer::Team { id, .. }, true) => *id,
        (_, false) => {
            return Err(ApiError(WebError::Unauthorized(
                "send the team's token as `Authorization: Bearer TOKEN`".into(),
            )));
        }
        _ => {
            return Err(ApiError(WebError::Forbidden(
                "only a team submits: this is not a team's token".into(),
            )));
        }
    };
    let form = forms::read_upload(&site, multipart).await?;
    let upload = form.upload.ok_or_else(|| {
        WebError::BadRequest(
            "the form has no file: send the source as the multipart field `file`".into(),
        )
    })?;
    let id = match forms::accept(&site, team, upload).await {
        Ok(id) => id,
        // Too many uploads: 429 with `Retry-After` (the seconds until the next is taken).
        Err(forms::Rejected { error, retry_after }) => {
            return Ok(forms::with_retry_after(
                retry_after,
                ApiError(error).into_response(),
            ));
        }
    };
    Ok((
        axum::http::StatusCode::CREATED,
        Json(Submitted {
            id,
            url: format!("/submissions/{id}"),
        }),
    )
        .into_response())
}

pub async fn organiser(db: Db, ApiAuth(auth): ApiAuth) -> ApiResult<views::OrganiserPage> {
    if !auth.viewer.is_organiser() {
        return Err(ApiError(WebError::Forbidden(
            "only the organiser sees this: send the organiser's token".into(),
        )));
    }
    Ok(Json(db.read(|conn, _| Ok(views::organiser(conn)?)).await?))
}

/// A language the arena offers.
#[derive(serde::Serialize)]
pub struct Language {
    pub name: String,
    /// The file a submission holds at its top.
    pub main: String,
    /// Endings a single uploaded file may have.
    pub extensions: Vec<String>,
}

/// `GET /api/languages`: what a team may submit in, and what the server cannot build now.
#[derive(serde::Serialize)]
pub struct Languages {
    pub languages: Vec<Language>,
    /// Recipes of `arena.toml` whose compiler probe failed at the server's start: not offered.
    pub not_offered: Vec<NotOffered>,
}

#[derive(serde::Serialize)]
pub struct NotOffered {
    pub name: String,
    pub why: String,
}

pub async fn languages(State(site): State<Site>) -> Json<Languages> {
    Json(Languages {
        languages: site
            .arena
            .config
            .recipes
            .iter()
            .map(|r| Language {
                name: r.name.clone(),
                main: r.main.clone(),
                extensions: r.extensions.clone(),
            })
            .collect(),
        not_offered: site
            .arena
            .unavailable
            .iter()
            .map(|u| NotOffered {
                name: u.recipe.name.clone(),
                why: u.why.clone(),
            })
            .collect(),
    })
}

/// Who the token or session is.
pub async fn whoami(ApiAuth(auth): ApiAuth) -> Json<Viewer> {
    Json(auth.viewer)
}
