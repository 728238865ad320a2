//! Every refusal under `/api/` as the API's JSON, `{"error": "..."}` with its status: the one
//! place that holds the API to that promise.
//!
//! The handlers answer their own refusals so ([`super::api::ApiError`], the worker API's
//! answer). What axum refuses before a handler runs does not: an address whose number does
//! not parse, a query string or a JSON body that does not decode, a body without
//! `Content-Type: application/json` or over the size limit, a method the address does not
//! take (405, with `Allow` and no body). [`as_json`], a layer over the whole router, turns
//! each of those into JSON with the status and headers it had (`Allow` kept) and a message
//! that says what was wrong and what to do, built from axum's own text (which names the
//! field, the value and what was expected). A layer rather than custom extractors, because
//! the 405 and the router's limits are refused before any extractor runs, and because a
//! route added later is covered without anyone remembering to wrap its extractors.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::json;

use super::error_pages::{ErrorPage, REFUSAL_BYTES, is_plain};
use crate::remote::wire::MAX_RECORD;

/// The largest body an API address reads, unless its route says otherwise (the upload of a
/// submission, a worker's record): axum's own default, made explicit so that the message of
/// a body over it can name it.
pub const BODY_LIMIT: usize = 2 << 20;

/// Whether `path` is the API's (the JSON answers), not a page's.
pub fn is_api(path: &str) -> bool {
    path == "/api" || path.starts_with("/api/")
}

/// Makes every error response under `/api/` that is not JSON yet into `{"error": ...}`.
pub async fn as_json(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let status = response.status();
    if !is_api(&path)
        || !(status.is_client_error() || status.is_server_error())
        || is_json(&response)
    {
        return response;
    }
    let page = response.extensions().get::<ErrorPage>().cloned();
    let plain = is_plain(&response);
    let (mut parts, body) = response.into_parts();
    let message = match page {
        // A handler's refusal made as a page: its message is already the user's.
        Some(page) => page.message,
        None => {
            let text = match axum::body::to_bytes(body, REFUSAL_BYTES).await {
                Ok(bytes) if plain => String::from_utf8_lossy(&bytes).trim().to_string(),
                _ => String::new(),
            };
            let allow = parts
                .headers
                .get(header::ALLOW)
                .and_then(|v| v.to_str().ok());
            message(status, &method, &path, allow, &text)
        }
    };
    if status.is_server_error() {
        tracing::error!("{method} {path}: {message}");
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = json!({ "error": message }).to_string();
    Response::from_parts(parts, Body::from(body))
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"))
}

/// The largest body the address `path` reads (its route's limit).
fn body_limit(path: &str) -> usize {
    let record = path
        .strip_prefix("/api/worker/matches/")
        .is_some_and(|rest| rest.ends_with("/record"));
    if record { MAX_RECORD } else { BODY_LIMIT }
}

/// A size in MiB when it is whole ones, else in bytes.
fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Where the addresses of `path`'s part of the API are documented.
fn reference(path: &str) -> &'static str {
    if path.starts_with("/api/worker/") {
        "protocol/ARENA.md, \"The worker API\", lists its addresses"
    } else if path.starts_with("/api/final") || path.starts_with("/api/rejudge") {
        "protocol/ARENA.md, section 15, lists what these addresses take"
    } else {
        "the book's docs/arena.md, \"The JSON API\", lists every address and what it takes"
    }
}

/// What the API says of one of axum's refusals (`text`: axum's own words, if any).
pub fn message(
    status: StatusCode,
    method: &Method,
    path: &str,
    allow: Option<&str>,
    text: &str,
) -> String {
    let see = reference(path);
    if status == StatusCode::METHOD_NOT_ALLOWED {
        let methods: Vec<&str> = allow
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .collect();
        return match methods.as_slice() {
            [] => format!("{path} does not take a {method} request ({see})"),
            [one] => format!("{path} does not take a {method} request: send a {one} ({see})"),
            [init @ .., last] => format!(
                "{path} does not take a {method} request: send a {} or {last} ({see})",
                init.join(", ")
            ),
        };
    }
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        return format!(
            "the request's body is larger than {path} reads (at most {}): send a smaller one",
            size(body_limit(path))
        );
    }
    if status == StatusCode::UNSUPPORTED_MEDIA_TYPE && text.contains("application/json") {
        return format!(
            "{path} takes a JSON body: send it with the header `Content-Type: application/json` \
             ({see})"
        );
    }
    if let Some(detail) = text.strip_prefix("Failed to parse the request body as JSON: ") {
        return format!(
            "the body is not JSON ({detail}): send a JSON object, with the header \
             `Content-Type: application/json` ({see})"
        );
    }
    if let Some(detail) =
        text.strip_prefix("Failed to deserialize the JSON body into the target type: ")
    {
        return format!("the body's JSON does not fit {path}: {detail}: correct it ({see})");
    }
    if let Some(detail) = text.strip_prefix("Failed to deserialize query string: ") {
        return format!(
            "the query string of {path} does not decode ({detail}): correct that parameter \
             ({see})"
        );
    }
    if let Some(detail) = text.strip_prefix("Invalid URL: ") {
        return match not_a_number(detail) {
            Some(value) => format!(
                "`{value}` in {path} is not a number: that part of the address is an id, as in \
                 {} ({see})",
                with_segment(path, value, "12")
            ),
            None => format!("{path} is not an address of the API ({detail}): {see}"),
        };
    }
    if text.contains("multipart/form-data") {
        return format!(
            "{text}: send the upload as `multipart/form-data`, the source in the field `file` \
             (as `rollarena submit` does; {see})"
        );
    }
    if let Some(detail) = text.strip_prefix("Failed to buffer the request body: ") {
        return format!("the request's body could not be read ({detail}): send it again");
    }
    let what = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request was refused")
    } else {
        text
    };
    format!("{method} {path}: {what} ({see})")
}

/// The value of a path's parse error whose expected type is an integer.
fn not_a_number(detail: &str) -> Option<&str> {
    let (before, ty) = detail.rsplit_once(" to a `")?;
    let ty = ty.strip_suffix('`')?;
    let numeric = ["i64", "u64", "i32", "u32", "usize"].contains(&ty);
    let value = before.rsplit_once('`')?.0.rsplit_once('`')?.1;
    numeric.then_some(value)
}

/// `path` with its first segment equal to `value` replaced by `by`.
fn with_segment(path: &str, value: &str, by: &str) -> String {
    let mut done = false;
    path.split('/')
        .map(|s| {
            if !done && s == value {
                done = true;
                by
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn says(status: u16, method: Method, path: &str, allow: Option<&str>, text: &str) -> String {
        message(
            StatusCode::from_u16(status).unwrap(),
            &method,
            path,
            allow,
            text,
        )
    }

    #[test]
    fn a_path_that_does_not_parse_names_the_value_and_shows_a_good_one() {
        let m = says(
            400,
            Method::GET,
            "/api/matches/abc/record",
            None,
            "Invalid URL: Cannot parse `abc` to a `i64`",
        );
        assert!(
            m.starts_with(
                "`abc` in /api/matches/abc/record is not a number: that part of the address is \
                 an id, as in /api/matches/12/record"
            ),
            "{m}"
        );
        let m = says(
            400,
            Method::GET,
            "/api/x/7/y",
            None,
            "Invalid URL: Cannot parse value at index 1 with value `y` to a `u32`",
        );
        assert!(m.contains("as in /api/x/7/12"), "{m}");
        let m = says(
            400,
            Method::GET,
            "/api/worker/artifacts/%FF",
            None,
            "Invalid URL: Invalid UTF-8 in `sha256`",
        );
        assert!(m.contains("(Invalid UTF-8 in `sha256`)"), "{m}");
        assert!(m.contains("The worker API"), "{m}");
    }

    #[test]
    fn a_405_names_the_methods_the_address_takes() {
        let m = says(405, Method::DELETE, "/api/teams/A/pin", Some("POST"), "");
        assert!(
            m.starts_with("/api/teams/A/pin does not take a DELETE request: send a POST"),
            "{m}"
        );
        let m = says(405, Method::POST, "/api/leaderboard", Some("GET,HEAD"), "");
        assert!(m.contains("send a GET or HEAD"), "{m}");
        let m = says(405, Method::PUT, "/api/final", Some("GET,HEAD,POST"), "");
        assert!(m.contains("send a GET, HEAD or POST"), "{m}");
        assert!(m.contains("section 15"), "{m}");
    }

    #[test]
    fn a_body_refusal_says_what_the_address_takes() {
        let m = says(
            415,
            Method::POST,
            "/api/rejudge",
            None,
            "Expected request with `Content-Type: application/json`",
        );
        assert!(
            m.contains("send it with the header `Content-Type: application/json`"),
            "{m}"
        );
        let m = says(
            422,
            Method::POST,
            "/api/final/closing",
            None,
            "Failed to deserialize the JSON body into the target type: action: invalid type: \
             integer `1`, expected a string at line 1 column 11",
        );
        assert!(
            m.starts_with(
                "the body's JSON does not fit /api/final/closing: action: invalid type: integer \
                 `1`, expected a string"
            ),
            "{m}"
        );
        let m = says(
            400,
            Method::POST,
            "/api/final",
            None,
            "Failed to parse the request body as JSON: key must be a string at line 1 column 2",
        );
        assert!(
            m.starts_with("the body is not JSON (key must be a string at line 1 column 2)"),
            "{m}"
        );
        let m = says(413, Method::POST, "/api/teams/A/pin", None, "");
        assert!(m.contains("(at most 2 MiB)"), "{m}");
        let m = says(413, Method::POST, "/api/worker/matches/3/record", None, "");
        assert!(m.contains("(at most 64 MiB)"), "{m}");
        let m = says(
            400,
            Method::POST,
            "/api/worker/matches/3/heartbeat",
            None,
            "Failed to deserialize query string: missing field `lease`",
        );
        assert!(m.contains("(missing field `lease`)"), "{m}");
    }

    #[test]
    fn anything_else_keeps_axums_words_or_the_status() {
        let m = says(400, Method::GET, "/api/x", None, "odd");
        assert!(m.starts_with("GET /api/x: odd ("), "{m}");
        let m = says(404, Method::GET, "/api/x", None, "");
        assert!(m.starts_with("GET /api/x: Not Found ("), "{m}");
        assert!(is_api("/api") && is_api("/api/x") && !is_api("/apis") && !is_api("/"));
    }
}
