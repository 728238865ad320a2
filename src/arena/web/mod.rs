//! The arena's web server: the pages people read and the JSON API behind each of them, as
//! axum routes over the read models of [`crate::arena::views`] (pages and API serialise the
//! same values) and the plain functions of [`crate::arena::admin`] and
//! [`crate::arena::submissions`].
//!
//! The parts: [`auth`] (tokens, sessions, CSRF, login rate limit), [`pages`] (maud templates:
//! every text is escaped by the template engine, never concatenated into HTML), [`api`]
//! (JSON), [`forms`] (the POSTs of the browser's forms), [`templates`] (the HTML), [`plot`]
//! (the rating history as SVG), [`workers`] (the remote workers' API), [`finals`] (the last
//! day's pages and API), [`live`] (matches in play and pages that update themselves,
//! over server-sent events, and the site's one script), [`pinning`] (a team's choice of the
//! version that plays: its page's buttons and its API), [`error_pages`] (the error pages,
//! with the closing-time banner every page carries), [`api_refusals`] (every refusal under
//! `/api/` as JSON, axum's own included), [`proxies`] (whose `X-Forwarded-For` is believed),
//! [`throttle`] (failed logins slowed, never locked out), [`confirm`] (the second step of the
//! organiser's irreversible or expensive actions).
//! Database work runs on tokio's blocking threads, each request with a connection of the
//! arena's pool, through the [`db::Db`] extractor.

pub mod api;
pub mod api_refusals;
pub mod auth;
pub mod confirm;
pub mod db;
pub mod error_pages;
pub mod finals;
pub mod finals_actions;
pub mod forms;
pub mod live;
pub mod pages;
pub mod pinning;
pub mod plot;
pub mod proxies;
pub mod templates;
pub mod throttle;
pub mod workers;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::Arena;
use super::views::ViewError;

/// What every handler shares: the open arena, and the server's stop (set once a shutdown
/// signal came: every live stream sends its last event and ends, see [`serve`]).
#[derive(Clone)]
pub struct Site {
    pub arena: Arc<Arena>,
    stop: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Site {
    pub fn new(arena: Arc<Arena>) -> Site {
        Site {
            arena,
            stop: Arc::new(tokio::sync::watch::channel(false).0),
        }
    }

    /// Resolves once the server is stopping (at once if it is already).
    pub fn stopping(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut stop = self.stop.subscribe();
        async move {
            // An error is the sender gone: the server is gone too.
            let _ = stop.wait_for(|s| *s).await;
        }
    }

    pub fn conn(&self) -> Result<crate::arena::store::Conn, WebError> {
        self.arena.conn().map_err(WebError::Internal)
    }

    /// Runs `read` in one read transaction: every query of a page or an answer (all its
    /// tables) sees the database as it was at the first, whatever the ladder writes meanwhile
    /// (WAL keeps that snapshot until the transaction ends). For the blocking threads.
    pub fn snapshot<T>(
        &self,
        read: impl FnOnce(&rusqlite::Connection) -> Result<T, WebError>,
    ) -> Result<T, WebError> {
        let mut conn = self.conn()?;
        let tx = conn.transaction()?;
        let out = read(&tx)?;
        // It only read: nothing to commit.
        tx.rollback()?;
        Ok(out)
    }

    /// The largest request body read: four times an upload of the arena's limit and room for
    /// the form. An upload over the limit (but under this) is read to its end and refused with
    /// a 413 the client gets to read; past this the connection is closed.
    pub fn body_limit(&self) -> usize {
        (self.arena.config.uploads.max_bytes as usize)
            .saturating_mul(4)
            .saturating_add(1 << 20)
    }
}

/// Why a request failed, with the message the user reads (as a page or as the API's
/// `{"error": ...}`).
#[derive(Debug)]
pub enum WebError {
    BadRequest(String),
    Unauthorized(String),
    Forbidden(String),
    NotFound(String),
    /// The request is sound but the arena's state refuses it now (the contest has closed).
    Conflict(String),
    TooLarge(String),
    TooManyRequests(String),
    /// The arena's disk has no room for an upload (HTTP 507): the message says so.
    InsufficientStorage(String),
    Internal(String),
}

impl WebError {
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::Conflict(_) => StatusCode::CONFLICT,
            WebError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            WebError::InsufficientStorage(_) => StatusCode::INSUFFICIENT_STORAGE,
            WebError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            WebError::BadRequest(m)
            | WebError::Unauthorized(m)
            | WebError::Forbidden(m)
            | WebError::NotFound(m)
            | WebError::Conflict(m)
            | WebError::TooLarge(m)
            | WebError::TooManyRequests(m)
            | WebError::InsufficientStorage(m)
            | WebError::Internal(m) => m,
        }
    }
}

impl From<ViewError> for WebError {
    fn from(e: ViewError) -> Self {
        match e {
            ViewError::NotFound(m) => WebError::NotFound(m),
            ViewError::Forbidden(m) => WebError::Forbidden(m),
            ViewError::Internal(m) => WebError::Internal(m),
        }
    }
}

impl From<rusqlite::Error> for WebError {
    fn from(e: rusqlite::Error) -> Self {
        WebError::Internal(format!("database: {e}"))
    }
}

/// As a page.
impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        if let WebError::Internal(m) = &self {
            tracing::error!("{m}");
        }
        error_pages::response(&self)
    }
}

/// Runs database work on a blocking thread.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| WebError::Internal(format!("a request's work failed: {e}")))?
}

/// The site's routes.
pub fn router(site: Site) -> Router {
    let upload_limit = DefaultBodyLimit::max(site.body_limit());
    let routes = Router::new()
        .route("/", get(pages::leaderboard))
        .route("/teams/{name}", get(pages::team))
        .route("/matches", get(pages::matches))
        .route("/matches/{id}", get(pages::match_page))
        .route("/matches/{id}/replay", get(pages::replay))
        .route("/matches/{id}/watch", get(live::board))
        .route("/submissions/{id}", get(pages::submission))
        .route("/submissions/{id}/files/{*path}", get(pages::source_file))
        .route("/login", get(pages::login).post(forms::login))
        .route("/logout", post(forms::logout))
        .route(
            "/submit",
            get(pages::submit).post(forms::submit).layer(upload_limit),
        )
        .route("/organiser", get(pages::organiser))
        .route("/organiser/teams", post(forms::add_team))
        .route("/organiser/team", post(forms::team_action))
        .route("/organiser/matchmaker", post(forms::matchmaker))
        .route("/style.css", get(pages::style))
        .route("/api/leaderboard", get(api::leaderboard))
        .route("/api/teams/{name}", get(api::team))
        .route("/api/matches", get(api::matches))
        .route("/api/matches/{id}", get(api::match_page))
        .route("/api/matches/{id}/record", get(api::record))
        .route("/api/submissions/{id}", get(api::submission))
        .route(
            "/api/submissions",
            post(api::submit).layer(DefaultBodyLimit::max(site.body_limit())),
        )
        .route("/api/organiser", get(api::organiser))
        .route("/api/whoami", get(api::whoami))
        .route("/api/languages", get(api::languages))
        .merge(finals::routes())
        .merge(workers::routes())
        .merge(pinning::routes())
        .route("/api/matches/{id}/live", get(live::stream))
        .route("/api/playing", get(live::playing))
        .route("/api/changes", get(live::changes))
        .route("/live.js", get(live::script))
        // On the routes only: an unknown address stays a 404 whatever the token.
        .route_layer(axum::middleware::from_fn_with_state(
            site.clone(),
            auth::api_tokens,
        ))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(api_refusals::BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            site.clone(),
            error_pages::with_banner,
        ))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(site);
    // Around the whole router, not each route (as `layer` above is): axum sets a 405's
    // `Allow` header outside a route's layers, and the API's refusal names those methods.
    Router::new()
        .fallback_service(routes)
        .layer(axum::middleware::from_fn(api_refusals::as_json))
}

async fn not_found(uri: axum::http::Uri) -> Response {
    let path = uri.path();
    if api_refusals::is_api(path) {
        api::ApiError(WebError::NotFound(format!(
            "the API has no address {path}: docs/arena.md, \"The JSON API\", lists them (as GET \
             /api/leaderboard), protocol/ARENA.md the worker API's"
        )))
        .into_response()
    } else {
        WebError::NotFound(format!("nothing is at {path}")).into_response()
    }
}

/// Headers on every response: no sniffing, no framing by others, no referrer to other sites,
/// and (on pages that did not set their own, such as the replay viewer) a policy that allows
/// nothing from elsewhere and no script but the site's own file (`/live.js`), which may only
/// talk to this server.
async fn security_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::X_FRAME_OPTIONS,
        HeaderValue::from_static("SAMEORIGIN"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'none'; script-src 'self'; connect-src 'self'; \
                 style-src 'self'; img-src 'self' data:; \
                 frame-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'",
            ),
        );
    }
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// How long requests under way may take to finish once the server stops (live streams end at
/// once); past it their connections are closed.
pub const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Serves the site on `listener` until `shutdown` resolves. Then it takes no new connection,
/// every live stream (a match's, `/api/changes`) sends a last `shutdown` event and ends, and
/// requests under way get [`STOP_GRACE`] to finish before their connections are closed: an
/// open page never holds the server up.
pub async fn serve(
    listener: tokio::net::TcpListener,
    site: Site,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let stop = site.stop.clone();
    tokio::spawn(async move {
        shutdown.await;
        stop.send_replace(true);
    });
    let stopping = site.stopping();
    let server = axum::serve(
        listener,
        router(site.clone()).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(site.stopping());
    let deadline = async {
        stopping.await;
        tokio::time::sleep(STOP_GRACE).await;
    };
    tokio::select! {
        served = server.into_future() => served,
        () = deadline => {
            eprintln!(
                "rollarena: requests still under way after {} s: their connections are closed",
                STOP_GRACE.as_secs()
            );
            Ok(())
        }
    }
}
