//! The site's error pages (404, 403, 400, ... as HTML), with the closing-time banner every
//! page carries.
//!
//! A [`WebError`] becomes its page where it is turned into a response, which has no database
//! at hand: it renders the page without the banner and leaves its status and message on the
//! response ([`ErrorPage`]). The [`with_banner`] layer, which has the site, renders that page
//! again with the banner read from the database (the closing time can change from the command
//! line at any moment, so it is read, never cached). What axum refuses before a handler runs
//! on a page's address (an address whose number does not parse, a form that does not decode,
//! a method the address does not take, an address with no page) is a [`WebError`] too
//! ([`super::refusals`]), so it becomes the same page, with the same banner. The API's
//! refusals (`/api/...`) are its JSON ([`super::ApiError`]).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use maud::Markup;

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

/// Gives every error page of a [`WebError`] the banner.
pub async fn with_banner(State(site): State<Site>, request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    match response.extensions().get::<ErrorPage>().cloned() {
        Some(page) => rendered(&site, response, page.status, &page.message).await,
        None => response,
    }
}

/// `response`'s headers with the error page of `message` and the banner as its body. When the
/// database cannot say the closing time (the error may be that very failure), the page is
/// served without the banner rather than not at all.
async fn rendered(site: &Site, response: Response, status: StatusCode, message: &str) -> Response {
    let closing = {
        let site = site.clone();
        blocking(move || {
            let conn = site.conn()?;
            crate::freeze::closing(&conn).map_err(WebError::Internal)
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

#[cfg(test)]
mod tests {
    use super::*;

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
