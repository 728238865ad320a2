//! The worker API's routes (`/api/worker/...`), thin over [`crate::remote::server`]:
//! each authenticates the worker's bearer token, runs its function on a blocking thread and
//! answers JSON (`{"error": ...}` with the status on a refusal, [`ApiError`]; axum's own
//! refusals, such as a match id that does not parse or a missing `?lease=`, by
//! [`super::refusals`]). A
//! middleware counts the bytes each endpoint moves (request and response bodies), which the
//! organiser reads at `/api/worker/traffic` (the benchmark's figures). Also the organiser
//! page's list of workers.

use std::collections::BTreeMap;
use std::sync::Mutex;

use axum::Json;
use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use maud::{Markup, html};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::auth::{Auth, bearer_token};
use super::db::Db;
use super::refusals::{ApiBytes, ApiPath, ApiQuery};
use super::{ApiError, Site, WebError};
use crate::remote::registry::{self, Worker, WorkerRow};
use crate::remote::server::{self, Refused, Why};
use crate::remote::wire::{Hello, MAX_RECORD, Release};

/// The worker API's routes (below `/api`).
pub fn api_routes() -> Router<Site> {
    Router::new()
        .route("/worker/hello", post(hello))
        .route("/worker/lease", post(lease))
        .route("/worker/matches/{id}/heartbeat", post(heartbeat))
        .route("/worker/matches/{id}/live", post(live))
        .route(
            "/worker/matches/{id}/record",
            post(upload).layer(DefaultBodyLimit::max(MAX_RECORD)),
        )
        .route("/worker/matches/{id}/release", post(release))
        .route("/worker/artifacts/{sha256}", get(artifact))
        // Before the count, so that a method refused is counted as it always was.
        .method_not_allowed_fallback(super::refusals::api_method_not_allowed)
        .layer(axum::middleware::from_fn(count))
        .route("/worker/traffic", get(traffic))
}

/// Authenticates the worker and runs `work` with it on a blocking thread.
async fn as_worker<T: Send + 'static>(
    site: Site,
    headers: &HeaderMap,
    work: impl FnOnce(&Site, &mut rusqlite::Connection, &Worker) -> Result<T, Refused> + Send + 'static,
) -> Result<T, ApiError> {
    let token = bearer_token(headers);
    let s = site.clone();
    let r = Db(site)
        .run(move |conn, _| {
            Ok(registry::authenticate(conn, token.as_deref())
                .map_err(token_refused)
                .and_then(|w| Ok(work(&s, conn, &w)?)))
        })
        .await?;
    Ok(r?)
}

/// A worker's token refused ([`registry::authenticate`]: a missing, unknown or revoked one is
/// 401, a team's or the organiser's 403, a database that fails 500).
fn token_refused((status, message): registry::Refused) -> WebError {
    match status {
        401 => WebError::Unauthorized(message),
        403 => WebError::Forbidden(message),
        _ => WebError::Internal(message),
    }
}

fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes, what: &str) -> Result<T, Refused> {
    serde_json::from_slice(body).map_err(|e| Refused {
        why: Why::Bad,
        message: format!("the body is not {what} ({e})"),
    })
}

async fn hello(
    State(site): State<Site>,
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> Result<Response, ApiError> {
    let w = as_worker(site, &headers, move |s, c, w| {
        server::hello(&s.arena, c, w, &parse::<Hello>(&body, "a worker's hello")?)
    })
    .await?;
    Ok(Json(w).into_response())
}

async fn lease(
    State(site): State<Site>,
    headers: HeaderMap,
    ApiBytes(body): ApiBytes,
) -> Result<Response, ApiError> {
    let l = as_worker(site, &headers, move |s, c, w| {
        server::lease(&s.arena, c, w, &parse::<Hello>(&body, "a worker's hello")?)
    })
    .await?;
    Ok(match l {
        Some(l) => Json(l).into_response(),
        None => StatusCode::NO_CONTENT.into_response(),
    })
}

#[derive(Deserialize)]
struct LeaseQuery {
    lease: String,
}

async fn heartbeat(
    State(site): State<Site>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<LeaseQuery>,
) -> Result<Response, ApiError> {
    let r = as_worker(site, &headers, move |s, c, w| {
        server::heartbeat(&s.arena, c, w, id, &q.lease)
    })
    .await?;
    Ok(Json(r).into_response())
}

async fn live(
    State(site): State<Site>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<LeaseQuery>,
    ApiBytes(body): ApiBytes,
) -> Result<Response, ApiError> {
    as_worker(site, &headers, move |s, c, w| {
        let messages = parse::<Vec<Value>>(&body, "a JSON array of live messages")?;
        server::live(&s.arena, c, w, id, &q.lease, messages)
    })
    .await?;
    Ok(Json(json!({})).into_response())
}

async fn upload(
    State(site): State<Site>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<LeaseQuery>,
    ApiBytes(body): ApiBytes,
) -> Result<Response, ApiError> {
    let gzipped = headers
        .get(header::CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("gzip"));
    let counted = as_worker(site, &headers, move |s, c, w| {
        let record = if gzipped {
            gunzip(&body)?
        } else {
            body.to_vec()
        };
        server::upload(&s.arena, c, w, id, &q.lease, &record)
    })
    .await?;
    Ok(Json(counted).into_response())
}

/// A gzipped body, unpacked up to [`MAX_RECORD`] bytes (a bomb stops there).
fn gunzip(body: &[u8]) -> Result<Vec<u8>, Refused> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(body)
        .take(MAX_RECORD as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| Refused {
            why: Why::Bad,
            message: format!("the body says it is gzipped, but it does not unpack ({e})"),
        })?;
    if out.len() > MAX_RECORD {
        return Err(Refused {
            why: Why::TooLarge,
            message: format!(
                "the record unpacks to more than the {MAX_RECORD} bytes an upload may be"
            ),
        });
    }
    Ok(out)
}

async fn release(
    State(site): State<Site>,
    headers: HeaderMap,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<LeaseQuery>,
    ApiBytes(body): ApiBytes,
) -> Result<Response, ApiError> {
    as_worker(site, &headers, move |s, c, w| {
        let r = if body.is_empty() {
            Release::default()
        } else {
            parse::<Release>(&body, "a release")?
        };
        server::release(&s.arena, c, w, id, &q.lease, &r)
    })
    .await?;
    Ok(Json(json!({})).into_response())
}

async fn artifact(
    State(site): State<Site>,
    headers: HeaderMap,
    ApiPath(sha256): ApiPath<String>,
) -> Result<Response, ApiError> {
    let bytes = as_worker(site, &headers, move |s, c, _| {
        server::artifact_bytes(&s.arena, c, &sha256)
    })
    .await?;
    Ok((
        [(header::CONTENT_TYPE, "application/gzip")],
        Body::from(bytes),
    )
        .into_response())
}

/// Requests and body bytes of one endpoint.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Traffic {
    pub requests: u64,
    /// Bytes of request bodies (worker to server) and of response bodies (server to worker).
    pub bytes_in: u64,
    pub bytes_out: u64,
}

/// Traffic per endpoint since the server started.
static TRAFFIC: Mutex<BTreeMap<String, Traffic>> = Mutex::new(BTreeMap::new());

async fn count(path: Option<MatchedPath>, request: Request, next: Next) -> Response {
    let endpoint = path.map_or_else(|| "?".to_string(), |p| p.as_str().to_string());
    let bytes_in = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let response = next.run(request).await;
    let bytes_out = response.body().size_hint().exact().unwrap_or(0);
    let mut t = TRAFFIC.lock().unwrap_or_else(|p| p.into_inner());
    let e = t.entry(endpoint).or_default();
    e.requests += 1;
    e.bytes_in += bytes_in;
    e.bytes_out += bytes_out;
    response
}

/// `GET /api/worker/traffic`: the organiser's (bearer token or session).
async fn traffic(auth: Result<Auth, WebError>) -> Result<Response, ApiError> {
    let auth = auth?;
    if !auth.viewer.is_organiser() {
        return Err(ApiError(WebError::Forbidden(
            "only the organiser sees this: send the organiser's token".into(),
        )));
    }
    let t = TRAFFIC.lock().unwrap_or_else(|p| p.into_inner()).clone();
    Ok(Json(t).into_response())
}

/// The organiser page's section: the workers.
pub fn section(workers: &[WorkerRow]) -> Markup {
    html! {
        h2 { "Workers" }
        @if workers.is_empty() {
            p { "No remote worker yet: register one with " code { "rollarena arena worker DIR NAME" } " and start "
                code { "rollarena worker --server URL --token TOKEN" } " on a machine." }
        } @else {
            (super::templates::wide(html! { table #workers {
                thead { tr {
                    th { "Worker" } th { "Process" } th { "Architecture" } th { "Last contact" }
                    th.num { "Matches" } th.num { "In the last hour" } th.num { "Refused uploads" }
                    th.num { "Holding" }
                } }
                tbody {
                    @for w in workers {
                        tr {
                            td { (super::templates::clip(&w.name)) @if w.revoked { " " span.badge.failed { "revoked" } } }
                            td { (w.instance.as_deref().unwrap_or("-")) }
                            td { (w.arch.as_deref().unwrap_or("-")) }
                            td { (w.last_contact.map(super::templates::time).unwrap_or_else(|| "never".into())) }
                            td.num { (w.matches_played) }
                            td.num { (w.matches_last_hour) }
                            td.num { (w.refused_uploads) }
                            td.num { (w.holding) }
                        }
                    }
                }
            } }))
        }
    }
}
