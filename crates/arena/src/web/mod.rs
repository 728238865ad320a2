//! The arena's web server: the pages people read and the JSON API behind each of them, as
//! axum routes over the read models of [`crate::views`] (pages and API serialise the
//! same values) and the plain functions of [`crate::admin`] and
//! [`crate::submissions`].
//!
//! The parts: [`auth`] (tokens, sessions, CSRF, login rate limit), [`pages`] (maud templates:
//! every text is escaped by the template engine, never concatenated into HTML), [`api`]
//! (JSON), [`forms`] (the POSTs of the browser's forms), [`templates`] (the HTML), [`plot`]
//! (the rating history as SVG), [`workers`] (the remote workers' API), [`finals`] (the last
//! day's pages and API), [`live`] (matches in play and pages that update themselves,
//! over server-sent events, and the site's one script), [`pinning`] (a team's choice of the
//! version that plays: its page's buttons and its API), [`error_pages`] (the error pages,
//! with the closing-time banner every page carries), [`refusals`] (what axum refuses before a
//! handler runs, as a page or the API's JSON: the extractors the handlers take and the
//! routers' fallbacks), [`proxies`] (whose `X-Forwarded-For` is believed),
//! [`throttle`] (failed logins slowed, never locked out), [`confirm`] (the second step of the
//! organiser's irreversible or expensive actions).
//! The API is a router of its own nested under `/api` ([`router`]); a handler's error is a
//! [`WebError`], answered as a page or, under `/api`, as [`ApiError`] (its JSON).
//! Database work runs on tokio's blocking threads, each request with a connection of the
//! arena's pool, through the [`db::Db`] extractor.

pub mod api;
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
pub mod refusals;
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
use super::pinning::PinError;
use super::remote::server::{Refused, Why};
use super::submissions;
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

    pub fn conn(&self) -> Result<crate::store::Conn, WebError> {
        self.arena.conn().map_err(WebError::from)
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
/// `{"error": ...}`). Its HTTP status is [`WebError::status`]; the lower layers' errors
/// (the arena's [`crate::Error`], the views', a pin's, an upload's, the worker API's) become
/// one here, by their kind.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// A method the address does not take (HTTP 405).
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The request is sound but the arena's state refuses it now (the contest has closed).
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooLarge(String),
    /// A body without the content type the address reads (HTTP 415).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// A body that decodes but does not fit (HTTP 422), such as a worker's record that does
    /// not verify.
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    TooManyRequests(String),
    /// The arena's disk has no room for an upload (HTTP 507): the message says so.
    #[error("{0}")]
    InsufficientStorage(String),
    #[error("{0}")]
    Internal(String),
}

impl WebError {
    /// The one place a refusal's HTTP status is chosen.
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            WebError::Conflict(_) => StatusCode::CONFLICT,
            WebError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            WebError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
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
            | WebError::MethodNotAllowed(m)
            | WebError::Conflict(m)
            | WebError::TooLarge(m)
            | WebError::UnsupportedMediaType(m)
            | WebError::Unprocessable(m)
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

/// The arena's error, by its kind: the caller's mistake 400, no such thing 404, refused by the
/// arena's state or already there 409, anything else (the database, the disk, a lower layer,
/// the arena's own machinery) 500.
impl From<crate::Error> for WebError {
    fn from(e: crate::Error) -> Self {
        use crate::Error as E;
        let message = e.to_string();
        match e.kind() {
            E::Invalid(_) => WebError::BadRequest(message),
            E::NotFound(_) => WebError::NotFound(message),
            E::Refused(_) | E::Conflict(_) => WebError::Conflict(message),
            E::Unverified(_) => WebError::Unprocessable(message),
            E::At { .. }
            | E::Store(_)
            | E::Io { .. }
            | E::Rules(_)
            | E::Run(_)
            | E::Games(_)
            | E::Tournament(_)
            | E::Remote(_)
            | E::Internal(_) => WebError::Internal(message),
        }
    }
}

impl From<crate::Error> for ApiError {
    fn from(e: crate::Error) -> Self {
        ApiError(e.into())
    }
}

/// A pin refused: no such team 404, closed 409, anything else asked amiss 400.
impl From<PinError> for WebError {
    fn from(e: PinError) -> Self {
        match e {
            PinError::NoTeam(m) => WebError::NotFound(m),
            PinError::Closed(m) => WebError::Conflict(m),
            PinError::Refused(m) => WebError::BadRequest(m),
            PinError::Internal(m) => WebError::Internal(m),
        }
    }
}

/// An upload refused, by what [`crate::submissions::accept`] says of it.
impl From<submissions::Refusal> for WebError {
    fn from(r: submissions::Refusal) -> Self {
        if r.forbidden {
            WebError::Forbidden(r.message)
        } else if r.too_large {
            WebError::TooLarge(r.message)
        } else if r.disk_full {
            WebError::InsufficientStorage(r.message)
        } else if r.internal {
            WebError::Internal(r.message)
        } else if r.retry_after.is_some() {
            WebError::TooManyRequests(r.message)
        } else {
            WebError::BadRequest(r.message)
        }
    }
}

/// The worker API's refusals ([`crate::remote::server`]): a record that does not
/// verify is 422, another version or a lost lease 409.
impl From<Refused> for WebError {
    fn from(r: Refused) -> Self {
        match r.why {
            Why::Bad => WebError::BadRequest(r.message),
            Why::NotFound => WebError::NotFound(r.message),
            Why::Conflict => WebError::Conflict(r.message),
            Why::TooLarge => WebError::TooLarge(r.message),
            Why::Unverified => WebError::Unprocessable(r.message),
            Why::Internal => WebError::Internal(r.message),
        }
    }
}

impl From<rusqlite::Error> for WebError {
    fn from(e: rusqlite::Error) -> Self {
        crate::Error::from(e).into()
    }
}

/// A [`WebError`] answered as the API's JSON, `{"error": message}` with its status.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct ApiError(#[from] pub WebError);

impl From<ViewError> for ApiError {
    fn from(e: ViewError) -> Self {
        ApiError(e.into())
    }
}

impl From<Refused> for ApiError {
    fn from(r: Refused) -> Self {
        ApiError(r.into())
    }
}

/// As a page (its banner added by [`error_pages::with_banner`]).
impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        if let WebError::Internal(m) = &self {
            tracing::error!("{m}");
        }
        error_pages::response(&self)
    }
}

/// As the API's JSON.
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let WebError::Internal(m) = &self.0 {
            tracing::error!("{m}");
        }
        let body = axum::Json(serde_json::json!({ "error": self.0.message() }));
        (self.0.status(), body).into_response()
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

/// The site's routes: the pages' router, with the `/api` router nested in it. Each answers what
/// it does not take in its own way ([`refusals`]): the pages with the error page (its banner
/// added by [`error_pages::with_banner`]), the API with its JSON.
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
        .merge(finals::routes())
        .merge(pinning::routes())
        .route("/live.js", get(live::script))
        .method_not_allowed_fallback(refusals::page_method_not_allowed)
        .fallback(refusals::page_not_found)
        .layer(axum::middleware::from_fn_with_state(
            site.clone(),
            error_pages::with_banner,
        ))
        .nest("/api", api_routes(&site))
        // The nested router's fallback answers `/api` and `/api/...`, not `/api/` itself.
        .route_service("/api/", axum::routing::any(refusals::api_not_found))
        .layer(DefaultBodyLimit::max(refusals::BODY_LIMIT));
    let routes = security_headers(routes).with_state(site);
    // Around the whole router, not each route (as `layer` above is): axum sets a 405's
    // `Allow` header outside a route's layers, and the API's refusal names those methods.
    Router::new()
        .fallback_service(routes)
        .layer(axum::middleware::map_response(
            refusals::name_allowed_methods,
        ))
}

/// The API's routes, nested under `/api` (their paths here are below it): JSON answers, and
/// JSON refusals of an address or a method it does not have.
fn api_routes(site: &Site) -> Router<Site> {
    Router::new()
        .route("/leaderboard", get(api::leaderboard))
        .route("/teams/{name}", get(api::team))
        .route("/matches", get(api::matches))
        .route("/matches/{id}", get(api::match_page))
        .route("/matches/{id}/record", get(api::record))
        .route("/submissions/{id}", get(api::submission))
        .route(
            "/submissions",
            post(api::submit).layer(DefaultBodyLimit::max(site.body_limit())),
        )
        .route("/organiser", get(api::organiser))
        .route("/whoami", get(api::whoami))
        .route("/languages", get(api::languages))
        .merge(finals::api_routes())
        .merge(workers::api_routes())
        .merge(pinning::api_routes())
        .route("/matches/{id}/live", get(live::stream))
        .route("/playing", get(live::playing))
        .route("/changes", get(live::changes))
        .method_not_allowed_fallback(refusals::api_method_not_allowed)
        // On the routes only: an unknown address stays a 404 whatever the token.
        .route_layer(axum::middleware::from_fn_with_state(
            site.clone(),
            auth::api_tokens,
        ))
        .fallback(refusals::api_not_found)
}

/// The policy of a page that did not set its own (the replay viewer does): nothing from
/// elsewhere and no script but the site's own file (`/live.js`), which may only talk to this
/// server.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     connect-src 'self'; style-src 'self'; img-src 'self' data:; frame-src 'self'; \
     form-action 'self'; frame-ancestors 'self'; base-uri 'none'";

/// Headers on every response: no sniffing, no framing by others, no referrer to other sites,
/// the policy above and no caching unless the response set its own (tower-http's layers).
fn security_headers<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    use tower_http::set_header::SetResponseHeaderLayer;
    let always =
        |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    let unless_set =
        |name, value| SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value));
    router
        .layer(always(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(always(header::X_FRAME_OPTIONS, "SAMEORIGIN"))
        .layer(always(header::REFERRER_POLICY, "same-origin"))
        .layer(unless_set(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(unless_set(header::CACHE_CONTROL, "no-store"))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    /// Each kind of the arena's error answers with its status, and keeps its message; one
    /// wrapped in a context answers as what it wraps.
    #[test]
    fn each_kind_of_the_arenas_error_has_its_status() {
        let io = || std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let cases: Vec<(Error, StatusCode)> = vec![
            (Error::Invalid("bad".into()), StatusCode::BAD_REQUEST),
            (Error::NotFound("none".into()), StatusCode::NOT_FOUND),
            (Error::Refused("closed".into()), StatusCode::CONFLICT),
            (Error::Conflict("taken".into()), StatusCode::CONFLICT),
            (
                Error::Unverified("torn".into()),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                Error::at("a file", Error::NotFound("none".into())),
                StatusCode::NOT_FOUND,
            ),
            (Error::io("a path", io()), StatusCode::INTERNAL_SERVER_ERROR),
            (
                rusqlite::Error::InvalidQuery.into(),
                StatusCode::INTERNAL_SERVER_ERROR,
            ),
            (Error::rules("x"), StatusCode::INTERNAL_SERVER_ERROR),
            (Error::run("x"), StatusCode::INTERNAL_SERVER_ERROR),
            (Error::games("x"), StatusCode::INTERNAL_SERVER_ERROR),
            (Error::tournament("x"), StatusCode::INTERNAL_SERVER_ERROR),
            (
                crate::remote::client::CallError::Unreachable("x".into()).into(),
                StatusCode::INTERNAL_SERVER_ERROR,
            ),
            (Error::internal("x"), StatusCode::INTERNAL_SERVER_ERROR),
        ];
        for (e, status) in cases {
            let message = e.to_string();
            let web = WebError::from(e);
            assert_eq!(web.status(), status, "{message}");
            assert_eq!(web.message(), message);
        }
    }
}
