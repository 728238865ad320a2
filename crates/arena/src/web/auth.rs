//! Who is asking, and the logins: a token in `Authorization: Bearer` (the CLI), or a browser
//! session whose id is in an HttpOnly, SameSite=Strict cookie (and `Secure` when the request
//! came over TLS, as a reverse proxy says with `X-Forwarded-Proto: https`).
//!
//! Tokens and session ids are looked up by their SHA-256 ([`tokens::hash`]), never stored.
//! Every form carries a CSRF token that every POST checks: a session's own token once logged
//! in; before that (the login form) a random value also set in a cookie (double submit).
//! A refused token (the login form's, or a bearer token) counts against its address and is
//! answered slowly past a few ([`super::throttle`]); a correct one never is.
//!
//! Under `/api/`, [`api_tokens`] checks a request's token before any handler runs, so every
//! address of the API refuses a bad token with 401 (the public ones included, which answer
//! as to the public only when no token is sent), and the handlers reuse what it found.
//!
//! The `Authorization` and `Cookie` headers are read here in a few lines ([`bearer_token`],
//! [`cookie`]) rather than by `axum-extra`'s `TypedHeader<Authorization<Bearer>>` and
//! `CookieJar`: none of `axum-extra`, `headers` or `cookie` is in the tree, and they would
//! bring second copies of `base64` and `digest` (`headers`) or the `time` crate (`cookie`)
//! for a split on `' '` and on `';'`; `headers`' `Bearer` also keeps the blanks a proxy may
//! leave around the token, which these trim. The CSRF compare is `subtle`'s.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, OriginalUri, Request, State};
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rusqlite::Connection;

use super::{ApiError, Site, proxies, throttle};
use crate::remote::registry;
use crate::store::db;
use crate::store::{sessions, teams};
use crate::tokens;
use crate::views::Viewer;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "rollarena_session";
/// The login form's CSRF cookie (before there is a session).
pub const LOGIN_CSRF_COOKIE: &str = "rollarena_login_csrf";
/// How long a browser session lasts.
pub const SESSION_MS: i64 = 7 * 24 * 3600 * 1000;

/// The viewer of a request and, for a browser session, its CSRF token.
#[derive(Clone, Debug)]
pub struct Auth {
    pub viewer: Viewer,
    /// The session's CSRF token (`None`: no session, or a bearer token).
    pub csrf: Option<String>,
    /// Whether a bearer token was given (and valid).
    pub bearer: bool,
    /// Whether the request came over TLS (for the cookie's `Secure`).
    pub tls: bool,
    /// The contest's closing time, for every page's banner.
    pub closing: Option<i64>,
}

/// A bad bearer token is refused rather than served as the public's, so a mistyped token never
/// looks like "logged out" (and counts as a failed login of its address, answered slowly past
/// a few); an expired or unknown session cookie is just no session. What [`api_tokens`]
/// found already is taken as it is.
impl FromRequestParts<Site> for Auth {
    type Rejection = super::WebError;

    async fn from_request_parts(parts: &mut Parts, site: &Site) -> Result<Self, Self::Rejection> {
        if let Some(auth) = parts.extensions.get::<Auth>() {
            return Ok(auth.clone());
        }
        let bearer = bearer_token(&parts.headers);
        let session = cookie(&parts.headers, SESSION_COOKIE);
        let tls = over_tls(&parts.headers);
        let address = address_of(parts, site);
        let s = site.clone();
        let found = super::blocking(move || {
            let conn = s.conn()?;
            let closing = crate::freeze::closing(&conn).map_err(super::WebError::from)?;
            if let Some(token) = bearer {
                let Some(viewer) = viewer_of_token(&conn, &token)? else {
                    return Ok(Err(unknown_token(&token)));
                };
                return Ok(Ok(Auth {
                    viewer,
                    csrf: None,
                    bearer: true,
                    tls,
                    closing,
                }));
            }
            if let Some(id) = session
                && let Some((viewer, csrf)) = session_of(&conn, &id)?
            {
                return Ok(Ok(Auth {
                    viewer,
                    csrf: Some(csrf),
                    bearer: false,
                    tls,
                    closing,
                }));
            }
            Ok(Ok(Auth {
                viewer: Viewer::Public,
                csrf: None,
                bearer: false,
                tls,
                closing,
            }))
        })
        .await?;
        match found {
            Ok(auth) => Ok(auth),
            Err(message) => {
                throttle::failed(site, &address).await?;
                Err(super::WebError::Unauthorized(message))
            }
        }
    }
}

/// The address a request's failed logins count against ([`proxies::client_address`]).
pub fn address_of(parts: &Parts, site: &Site) -> String {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    client_address(&parts.headers, peer, site)
}

/// [`proxies::client_address`] with the arena's trusted proxies.
pub fn client_address(headers: &HeaderMap, peer: Option<SocketAddr>, site: &Site) -> String {
    // Checked when the arena was opened: an entry that does not parse trusts nobody.
    let trusted = crate::config::proxies::parse_list(&site.arena.config.server.trusted_proxies)
        .unwrap_or_default();
    proxies::client_address(headers, peer, &trusted)
}

/// Whether `path` is the worker API's, whose handlers take a worker's token themselves.
fn worker_api(path: &str) -> bool {
    path.starts_with("/api/worker/") && path != "/api/worker/traffic"
}

/// Every request to an address of the API (a layer of its routes) with an `Authorization`
/// header: a token that is not valid is refused with 401 in the API's JSON before its handler
/// runs (so the public addresses refuse it too, and nothing in the request's method, path,
/// query or body is looked at first), and counted as a failed login of its address; a valid
/// one is handed on to the handler. On the worker API the token must be a worker's (its
/// handlers check it again, and answer a team's token with 403).
pub async fn api_tokens(State(site): State<Site>, request: Request, next: Next) -> Response {
    if !request.headers().contains_key(AUTHORIZATION) {
        return next.run(request).await;
    }
    if bearer_token(request.headers()).is_none() {
        return ApiError(super::WebError::Unauthorized(
            "the Authorization header must be `Bearer TOKEN` (a team's token starts with \
             team_, the organiser's with org_, a worker's with worker_); leave it out to be \
             answered as the public"
                .into(),
        ))
        .into_response();
    }
    let (mut parts, body) = request.into_parts();
    // The address as sent (inside the nested `/api` router, `parts.uri` has lost its prefix).
    let path = parts
        .extensions
        .get::<OriginalUri>()
        .map_or_else(|| parts.uri.path().to_string(), |u| u.0.path().to_string());
    if worker_api(&path) {
        // A worker's token, checked as its handler will (which answers the other refusals,
        // such as a team's token here).
        let token = bearer_token(&parts.headers);
        let s = site.clone();
        let refused =
            super::blocking(
                move || Ok(registry::authenticate(&*s.conn()?, token.as_deref()).err()),
            )
            .await;
        return match refused {
            Ok(Some((401, message))) => {
                if let Err(e) = throttle::failed(&site, &address_of(&parts, &site)).await {
                    return ApiError(e).into_response();
                }
                ApiError(super::WebError::Unauthorized(message)).into_response()
            }
            Ok(_) => next.run(Request::from_parts(parts, body)).await,
            Err(e) => ApiError(e).into_response(),
        };
    }
    // A worker's own token is not a bad one: the address answers it as it answers anyone (a
    // 405 for a method it does not take, a 401 where it needs a team or the organiser).
    if let Some(token) = bearer_token(&parts.headers)
        && tokens::Kind::of(&token) == Some(tokens::Kind::Worker)
    {
        let s = site.clone();
        let known =
            super::blocking(move || Ok(registry::authenticate(&*s.conn()?, Some(&token)).is_ok()))
                .await;
        if matches!(known, Ok(true)) {
            return next.run(Request::from_parts(parts, body)).await;
        }
    }
    match Auth::from_request_parts(&mut parts, &site).await {
        Ok(auth) => {
            parts.extensions.insert(auth);
            next.run(Request::from_parts(parts, body)).await
        }
        Err(e) => ApiError(e).into_response(),
    }
}

/// What a refused token's message says: what kind of token it looked like.
pub fn unknown_token(token: &str) -> String {
    match tokens::Kind::of(token) {
        Some(tokens::Kind::Worker) => {
            "this is a worker's token: log in with a team's token (team_...) or the organiser's \
             (org_...)"
                .into()
        }
        Some(_) => "this token is not valid here: check that it was copied whole, or ask the \
                    organiser for the team's token again"
            .into(),
        None => "this is not a rollarena token: a team's token starts with team_, the \
                 organiser's with org_"
            .into(),
    }
}

/// The viewer a token is (`None`: no such token).
pub fn viewer_of_token(conn: &Connection, token: &str) -> Result<Option<Viewer>, super::WebError> {
    let hash = tokens::hash(token);
    if sessions::is_organiser_token(conn, &hash)? {
        return Ok(Some(Viewer::Organiser));
    }
    let team = sessions::team_of_token(conn, &hash)?;
    Ok(team.map(|(id, name)| Viewer::Team { id, name }))
}

fn session_of(conn: &Connection, id: &str) -> Result<Option<(Viewer, String)>, super::WebError> {
    let Some(sessions::Session {
        team,
        organiser,
        csrf,
    }) = sessions::find(conn, &tokens::hash(id), db::now_ms())?
    else {
        return Ok(None);
    };
    if organiser {
        return Ok(Some((Viewer::Organiser, csrf)));
    }
    let Some(team) = team else {
        return Ok(None);
    };
    let name = teams::name(conn, team)?;
    Ok(name.map(|name| (Viewer::Team { id: team, name }, csrf)))
}

/// Starts a session for `viewer`: its id (for the cookie) and its CSRF token.
pub fn start_session(conn: &Connection, viewer: &Viewer) -> Result<String, super::WebError> {
    let id = tokens::random_hex(32);
    let csrf = tokens::random_hex(32);
    let now = db::now_ms();
    let (team, organiser) = match viewer {
        Viewer::Team { id, .. } => (Some(*id), false),
        Viewer::Organiser => (None, true),
        Viewer::Public => return Err(super::WebError::Internal("no one to log in".into())),
    };
    let session = sessions::Session {
        team,
        organiser,
        csrf,
    };
    sessions::start(conn, &tokens::hash(&id), &session, now, now + SESSION_MS)?;
    Ok(id)
}

pub fn end_session(conn: &Connection, id: &str) -> Result<(), super::WebError> {
    sessions::end(conn, &tokens::hash(id))?;
    Ok(())
}

/// The connection's peer, when the server knows it.
pub struct Peer(pub Option<SocketAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Peer(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0),
        ))
    }
}

/// The token of `Authorization: Bearer TOKEN`.
pub fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

/// A cookie's value.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// Whether the request came over TLS (as the reverse proxy in front says).
pub fn over_tls(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, for the whole site, `Secure` over TLS;
/// `max_age_s` 0 removes the cookie.
pub fn set_cookie(name: &str, value: &str, max_age_s: i64, tls: bool) -> HeaderValue {
    let secure = if tls { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{name}={value}; Path=/; Max-Age={max_age_s}; HttpOnly; SameSite=Strict{secure}"
    ))
    .expect("cookie values are hex digits")
}

/// Checks a form's CSRF token against the expected one, in constant time (`subtle`; the
/// length, the same for every token, is not hidden).
pub fn csrf_ok(expected: Option<&str>, given: Option<&str>) -> bool {
    use subtle::ConstantTimeEq;
    match (expected, given) {
        (Some(a), Some(b)) if !a.is_empty() => a.as_bytes().ct_eq(b.as_bytes()).into(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csrf_tokens_must_match_whole() {
        assert!(csrf_ok(Some("abcd"), Some("abcd")));
        assert!(!csrf_ok(Some("abcd"), Some("abce")));
        assert!(!csrf_ok(Some("abcd"), Some("abc")));
        assert!(!csrf_ok(Some(""), Some("")));
        assert!(!csrf_ok(None, Some("abcd")));
        assert!(!csrf_ok(Some("abcd"), None));
    }

    #[test]
    fn headers_are_read_as_a_proxy_sends_them() {
        let mut h = HeaderMap::new();
        h.insert(AUTHORIZATION, HeaderValue::from_static("Bearer  team_x "));
        h.insert(
            COOKIE,
            HeaderValue::from_static("a=1; rollarena_session=abc"),
        );
        h.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_static("1.2.3.4, 10.0.0.7"),
        );
        assert_eq!(bearer_token(&h).as_deref(), Some("team_x"));
        assert_eq!(cookie(&h, SESSION_COOKIE).as_deref(), Some("abc"));
        assert!(over_tls(&h));
        assert!(
            set_cookie("a", "b", 5, true)
                .to_str()
                .unwrap()
                .ends_with("; Secure")
        );
        assert!(
            !set_cookie("a", "b", 5, false)
                .to_str()
                .unwrap()
                .contains("Secure")
        );
    }
}
