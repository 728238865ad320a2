//! The site's error pages (404, 403, 400, ... as HTML), with the closing-time banner every
//! page carries.
//!
//! A [`WebError`] becomes its page where it is turned into a response, which has no database
//! at hand: it renders the page without the banner and leaves its status and message on the
//! response ([`ErrorPage`]). The [`with_banner`] layer, which has the site, renders that page
//! again with the banner read from the database (the closing time can change from the command
//! line at any moment, so it is read, never cached). What axum itself refuses before a
//! handler runs (an address whose number does not parse, a form that does not decode, a
//! method the address does not take) arrives as plain text or nothing: on a page's address it
//! becomes the same page, with the same banner. The API's refusals (`/api/...`) are JSON, made
//! so by [`super::api_refusals`].

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use maud::Markup;

use super::api_refusals::is_api;
use super::templates::{self, Frame};
use super::{Site, WebError, blocking};
use crate::views::Viewer;

/// An error page's status and message, left on the response for [`with_banner`].
#[derive(Clone, Debug)]
pub struct ErrorPage {
    pub status: StatusCode,
    pub message: String,
}

/// The page of an error: the layout as the public sees it (an error never shows private
/// data), with the banner of `closing`.
pub fn render(status: StatusCode, message: &str, closing: Option<i64>) -> Markup {
    templates::layout(
        &Frame {
            viewer: &Viewer::Public,
            csrf: None,
            closing,
        },
        status.canonical_reason().unwrap_or("Error"),
        templates::message(message),
    )
}

/// A [`WebError`] as its page (without the banner, which [`with_banner`] adds).
pub fn response(e: &WebError) -> Response {
    let page = ErrorPage {
        status: e.status(),
        message: e.message().to_string(),
    };
    let mut response = (page.status, render(page.status, &page.message, None)).into_response();
    response.extensions_mut().insert(page);
    response
}

/// The largest refusal of axum's read to be shown on a page (they are a line or two).
pub const REFUSAL_BYTES: usize = 16 * 1024;

/// Gives every error page the banner: those of a [`WebError`], and axum's own refusals on a
/// page's address, made into pages. The API's addresses are left to
/// [`super::api_refusals::as_json`].
pub async fn with_banner(State(site): State<Site>, request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_api(&path) {
        return response;
    }
    let page = match response.extensions().get::<ErrorPage>() {
        Some(page) => page.clone(),
        None if is_plain(&response) => {
            let (parts, body) = response.into_parts();
            let text = match axum::body::to_bytes(body, REFUSAL_BYTES).await {
                Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
                Err(_) => String::new(),
            };
            let message = refusal(status, &method, &path, &text);
            let mut response = Response::from_parts(parts, Body::empty());
            response.headers_mut().remove(header::CONTENT_LENGTH);
            return rendered(&site, response, status, &message).await;
        }
        None => return response,
    };
    rendered(&site, response, status, &page.message).await
}

/// `response`'s headers with the error page of `message` and the banner as its body. When the
/// database cannot say the closing time (the error may be that very failure), the page is
/// served without the banner rather than not at all.
async fn rendered(site: &Site, response: Response, status: StatusCode, message: &str) -> Response {
    let closing = {
        let site = site.clone();
        blocking(move || {
            let conn = site.conn()?;
            crate::finals::freeze::closing(&conn).map_err(WebError::Internal)
        })
        .await
        .ok()
        .flatten()
    };
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    Response::from_parts(
        parts,
        Body::from(render(status, message, closing).into_string()),
    )
}

/// Whether a response is one of axum's refusals: plain text, or no body at all.
pub fn is_plain(response: &Response) -> bool {
    match response.headers().get(header::CONTENT_TYPE) {
        None => true,
        Some(kind) => kind.as_bytes().starts_with(b"text/plain"),
    }
}

/// What a page says of one of axum's refusals.
fn refusal(status: StatusCode, method: &Method, path: &str, text: &str) -> String {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            format!("{path} does not take a {method} request: follow the site's links and buttons")
        }
        _ if !text.is_empty() => format!("{text} (at {path})"),
        _ => format!(
            "{path}: {}",
            status
                .canonical_reason()
                .unwrap_or("the request was refused")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_says_what_was_refused_and_where() {
        let m = refusal(StatusCode::METHOD_NOT_ALLOWED, &Method::GET, "/logout", "");
        assert!(m.contains("/logout does not take a GET request"), "{m}");
        let m = refusal(
            StatusCode::BAD_REQUEST,
            &Method::GET,
            "/matches/x",
            "Invalid URL: Cannot parse `x` to a `i64`",
        );
        assert_eq!(
            m,
            "Invalid URL: Cannot parse `x` to a `i64` (at /matches/x)"
        );
        let m = refusal(StatusCode::PAYLOAD_TOO_LARGE, &Method::POST, "/submit", "");
        assert_eq!(m, "/submit: Payload Too Large");
    }

    #[test]
    fn an_error_page_escapes_its_message_and_carries_the_banner() {
        let page = render(StatusCode::NOT_FOUND, "<b>x</b>", Some(1)).into_string();
        assert!(page.contains("&lt;b&gt;x&lt;/b&gt;"), "{page}");
        assert!(page.contains("id=\"closing\""), "{page}");
        assert!(page.contains("The contest is closed"), "{page}");
        let page = render(StatusCode::NOT_FOUND, "x", None).into_string();
        assert!(!page.contains("id=\"closing\""), "{page}");
    }
}
