//! What axum refuses before a handler runs, as the arena's refusals: an address whose number
//! does not parse, a query string, a form or a JSON body that does not decode, a body without
//! its content type or over the limit, an upload that is not multipart, a method the address
//! does not take, an address that does not exist.
//!
//! By axum's own means, as in its "customize-extractor-error" example: the handlers take the
//! extractors of this file, each axum's own with its rejection turned into a [`WebError`] by
//! the rejection's type (never its text): [`Path`], [`Query`], [`Form`] and [`Multipart`] for
//! the pages (their refusal is the error page), [`ApiPath`], [`ApiQuery`], [`ApiJson`],
//! [`ApiBytes`] and [`ApiMultipart`] for the API (its JSON, [`ApiError`]). Where axum's
//! refusal names what was wrong (the field and what was expected), that detail is the error
//! it wraps (serde's, through `serde_path_to_error`), put in the arena's sentence. The
//! routers' fallbacks ([`page_not_found`], [`api_not_found`]) and method-not-allowed
//! fallbacks ([`page_method_not_allowed`], [`api_method_not_allowed`]) answer the rest; the
//! API's 405 names the methods the address takes from the `Allow` header axum sets around it
//! ([`name_allowed_methods`]). The statuses and what each message says: protocol/ARENA.md,
//! section 18.

use axum::body::Bytes;
use axum::extract::multipart::MultipartRejection;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::{
    BytesRejection, FormRejection, JsonRejection, PathRejection, QueryRejection,
};
use axum::extract::{FromRequest, FromRequestParts, OriginalUri, Request};
use axum::http::request::Parts;
use axum::http::{Method, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use super::{ApiError, WebError};
use crate::remote::wire::MAX_RECORD;

/// The largest body an API address reads, unless its route says otherwise (the upload of a
/// submission, a worker's record): axum's own default, made explicit so that the message of
/// a body over it can name it.
pub const BODY_LIMIT: usize = 2 << 20;

/// The request's address as the client sent it (inside the nested `/api` router, axum's
/// `Uri` has lost its prefix).
fn path_of(parts: &Parts) -> String {
    match parts.extensions.get::<OriginalUri>() {
        Some(OriginalUri(uri)) => uri.path().to_string(),
        None => parts.uri.path().to_string(),
    }
}

/// What axum refused, by the type of its rejection; `detail` is the error it wraps.
#[derive(Debug)]
enum Refused {
    /// A part of the address is not a number (`value`).
    NotANumber {
        value: String,
    },
    /// Another part of the address that does not parse.
    Address {
        detail: String,
    },
    Query {
        detail: String,
    },
    /// The JSON body does not parse (400).
    NotJson {
        detail: String,
    },
    /// The JSON body parses but does not fit (422).
    JsonShape {
        detail: String,
    },
    /// A JSON body without `Content-Type: application/json` (415).
    NoJsonType,
    /// A form sent without its content type (415).
    NoFormType,
    /// A form that does not decode (400, 422 for the body's).
    Form {
        detail: String,
        body: bool,
    },
    /// An upload that is not `multipart/form-data` with a boundary.
    NotMultipart,
    /// A body over the address's limit (413).
    TooLarge,
    /// A body that could not be read.
    Unreadable {
        detail: String,
    },
}

/// The error a rejection wraps (serde's words, naming the field), or the rejection's own.
fn detail(e: &(dyn std::error::Error + 'static)) -> String {
    match e.source() {
        Some(inner) => inner.to_string(),
        None => e.to_string(),
    }
}

impl From<PathRejection> for Refused {
    fn from(e: PathRejection) -> Self {
        match &e {
            PathRejection::FailedToDeserializePathParams(p) => match p.kind() {
                ErrorKind::ParseErrorAtKey {
                    value,
                    expected_type,
                    ..
                }
                | ErrorKind::ParseErrorAtIndex {
                    value,
                    expected_type,
                    ..
                }
                | ErrorKind::ParseError {
                    value,
                    expected_type,
                } if is_number(expected_type) => Refused::NotANumber {
                    value: value.clone(),
                },
                kind => Refused::Address {
                    detail: kind.to_string(),
                },
            },
            other => Refused::Address {
                detail: other.body_text(),
            },
        }
    }
}

fn is_number(ty: &str) -> bool {
    ["i64", "u64", "i32", "u32", "usize"].contains(&ty)
}

impl From<QueryRejection> for Refused {
    fn from(e: QueryRejection) -> Self {
        Refused::Query { detail: detail(&e) }
    }
}

impl From<BytesRejection> for Refused {
    fn from(e: BytesRejection) -> Self {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            Refused::TooLarge
        } else {
            Refused::Unreadable { detail: detail(&e) }
        }
    }
}

impl From<JsonRejection> for Refused {
    fn from(e: JsonRejection) -> Self {
        match e {
            JsonRejection::JsonDataError(e) => Refused::JsonShape { detail: detail(&e) },
            JsonRejection::JsonSyntaxError(e) => Refused::NotJson { detail: detail(&e) },
            JsonRejection::MissingJsonContentType(_) => Refused::NoJsonType,
            JsonRejection::BytesRejection(e) => e.into(),
            other => Refused::Unreadable {
                detail: other.body_text(),
            },
        }
    }
}

impl From<FormRejection> for Refused {
    fn from(e: FormRejection) -> Self {
        match e {
            FormRejection::InvalidFormContentType(_) => Refused::NoFormType,
            FormRejection::FailedToDeserializeForm(e) => Refused::Form {
                detail: detail(&e),
                body: false,
            },
            FormRejection::FailedToDeserializeFormBody(e) => Refused::Form {
                detail: detail(&e),
                body: true,
            },
            FormRejection::BytesRejection(e) => e.into(),
            other => Refused::Unreadable {
                detail: other.body_text(),
            },
        }
    }
}

impl From<MultipartRejection> for Refused {
    fn from(_: MultipartRejection) -> Self {
        Refused::NotMultipart
    }
}

/// A size in MiB when it is whole ones, else in bytes.
fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The largest body the API's address `path` reads (its route's limit).
fn body_limit(path: &str) -> usize {
    let record = path
        .strip_prefix("/api/worker/matches/")
        .is_some_and(|rest| rest.ends_with("/record"));
    if record { MAX_RECORD } else { BODY_LIMIT }
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

impl Refused {
    /// The API's refusal of `path`.
    fn api(self, path: &str) -> WebError {
        let see = reference(path);
        match self {
            Refused::NotANumber { value } => WebError::BadRequest(format!(
                "`{value}` in {path} is not a number: that part of the address is an id, as in \
                 {} ({see})",
                with_segment(path, &value, "12")
            )),
            Refused::Address { detail } => WebError::BadRequest(format!(
                "{path} is not an address of the API ({detail}): {see}"
            )),
            Refused::Query { detail } => WebError::BadRequest(format!(
                "the query string of {path} does not decode ({detail}): correct that parameter \
                 ({see})"
            )),
            Refused::NotJson { detail } => WebError::BadRequest(format!(
                "the body is not JSON ({detail}): send a JSON object, with the header \
                 `Content-Type: application/json` ({see})"
            )),
            Refused::JsonShape { detail } => WebError::Unprocessable(format!(
                "the body's JSON does not fit {path}: {detail}: correct it ({see})"
            )),
            Refused::NoJsonType => WebError::UnsupportedMediaType(format!(
                "{path} takes a JSON body: send it with the header `Content-Type: \
                 application/json` ({see})"
            )),
            Refused::NoFormType | Refused::Form { .. } => {
                WebError::BadRequest(format!("{path} takes no form: {see}"))
            }
            Refused::NotMultipart => WebError::BadRequest(format!(
                "the upload is not `multipart/form-data` with a boundary: send the upload as \
                 `multipart/form-data`, the source in the field `file` (as `rollarena submit` \
                 does; {see})"
            )),
            Refused::TooLarge => WebError::TooLarge(format!(
                "the request's body is larger than {path} reads (at most {}): send a smaller one",
                size(body_limit(path))
            )),
            Refused::Unreadable { detail } => WebError::BadRequest(format!(
                "the request's body could not be read ({detail}): send it again"
            )),
        }
    }

    /// A page's refusal of `path`.
    fn page(self, path: &str) -> WebError {
        match self {
            Refused::NotANumber { value } => WebError::BadRequest(format!(
                "`{value}` is not a number: that part of the address is an id, as in {} (at \
                 {path})",
                with_segment(path, &value, "12")
            )),
            Refused::Address { detail } => {
                WebError::BadRequest(format!("the address does not parse ({detail}) (at {path})"))
            }
            Refused::Query { detail } => WebError::BadRequest(format!(
                "the query string does not decode ({detail}): follow the site's links (at \
                 {path})"
            )),
            Refused::NoJsonType | Refused::NotJson { .. } | Refused::JsonShape { .. } => {
                WebError::BadRequest(format!("{path} takes no JSON: use the site's forms"))
            }
            Refused::NoFormType => WebError::UnsupportedMediaType(format!(
                "the form was not sent as a form (`application/x-www-form-urlencoded`): send \
                 it from the site's page (at {path})"
            )),
            Refused::Form { detail, body } => {
                let message = format!(
                    "the form does not decode ({detail}): reload the page and send it again (at \
                     {path})"
                );
                if body {
                    WebError::Unprocessable(message)
                } else {
                    WebError::BadRequest(message)
                }
            }
            Refused::NotMultipart => WebError::BadRequest(format!(
                "the upload is not `multipart/form-data` with a boundary: send it with the \
                 submit page's form (at {path})"
            )),
            Refused::TooLarge => WebError::TooLarge(format!(
                "the request's body is larger than {path} reads: send a smaller one"
            )),
            Refused::Unreadable { detail } => WebError::BadRequest(format!(
                "the request's body could not be read ({detail}): send it again (at {path})"
            )),
        }
    }
}

/// Declares an extractor of the pages (`$page`, refused with the error page) and one of the API
/// (`$api`, refused with its JSON) over axum's `$axum`, whose value is a `T`.
macro_rules! from_parts {
    ($(#[$doc:meta])* $page:ident, $api:ident, $axum:ident) => {
        $(#[$doc])*
        pub struct $page<T>(pub T);

        $(#[$doc])*
        pub struct $api<T>(pub T);

        impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for $page<T> {
            type Rejection = WebError;

            async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, WebError> {
                match axum::extract::$axum::<T>::from_request_parts(parts, state).await {
                    Ok(axum::extract::$axum(value)) => Ok($page(value)),
                    Err(e) => Err(Refused::from(e).page(&path_of(parts))),
                }
            }
        }

        impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for $api<T> {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
                match axum::extract::$axum::<T>::from_request_parts(parts, state).await {
                    Ok(axum::extract::$axum(value)) => Ok($api(value)),
                    Err(e) => Err(ApiError(Refused::from(e).api(&path_of(parts)))),
                }
            }
        }
    };
}

from_parts!(
    /// axum's `Path`, refused as the arena refuses.
    Path,
    ApiPath,
    Path
);
from_parts!(
    /// axum's `Query`, refused as the arena refuses.
    Query,
    ApiQuery,
    Query
);

/// Runs the body extractor `E` on `request`, its refusal made by `refuse` with the address.
async fn from_body<E, S>(
    request: Request,
    state: &S,
    refuse: impl FnOnce(Refused, &str) -> WebError,
) -> Result<E, WebError>
where
    E: FromRequest<S>,
    Refused: From<E::Rejection>,
    S: Send + Sync,
{
    let path = match request.extensions().get::<OriginalUri>() {
        Some(OriginalUri(uri)) => uri.path().to_string(),
        None => request.uri().path().to_string(),
    };
    E::from_request(request, state)
        .await
        .map_err(|e| refuse(Refused::from(e), &path))
}

/// axum's `Form`, refused with the error page.
pub struct Form<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Form<T> {
    type Rejection = WebError;

    async fn from_request(request: Request, state: &S) -> Result<Self, WebError> {
        let axum::extract::Form(value) = from_body(request, state, Refused::page).await?;
        Ok(Form(value))
    }
}

/// axum's `Multipart`, refused with the error page.
pub struct Multipart(pub axum::extract::Multipart);

impl<S: Send + Sync> FromRequest<S> for Multipart {
    type Rejection = WebError;

    async fn from_request(request: Request, state: &S) -> Result<Self, WebError> {
        Ok(Multipart(from_body(request, state, Refused::page).await?))
    }
}

/// axum's `Json`, refused with the API's JSON.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let axum::Json(value) = from_body(request, state, Refused::api).await?;
        Ok(ApiJson(value))
    }
}

/// The body's bytes, refused with the API's JSON.
pub struct ApiBytes(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for ApiBytes {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        Ok(ApiBytes(from_body(request, state, Refused::api).await?))
    }
}

/// axum's `Multipart`, refused with the API's JSON.
pub struct ApiMultipart(pub axum::extract::Multipart);

impl<S: Send + Sync> FromRequest<S> for ApiMultipart {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        Ok(ApiMultipart(from_body(request, state, Refused::api).await?))
    }
}

/// The pages' fallback: no page at that address.
pub async fn page_not_found(OriginalUri(uri): OriginalUri) -> WebError {
    WebError::NotFound(format!("nothing is at {}", uri.path()))
}

/// The pages' method-not-allowed fallback.
pub async fn page_method_not_allowed(method: Method, OriginalUri(uri): OriginalUri) -> WebError {
    WebError::MethodNotAllowed(format!(
        "{} does not take a {method} request: follow the site's links and buttons",
        uri.path()
    ))
}

/// The API's fallback (the nested `/api` router's): the API has no such address.
pub async fn api_not_found(OriginalUri(uri): OriginalUri) -> ApiError {
    let path = uri.path();
    ApiError(WebError::NotFound(format!(
        "the API has no address {path}: docs/arena.md, \"The JSON API\", lists them (as GET \
         /api/leaderboard), protocol/ARENA.md the worker API's"
    )))
}

/// A method an API address does not take, left on the response for [`name_allowed_methods`].
#[derive(Clone, Debug)]
pub struct MethodRefused {
    method: Method,
    path: String,
}

/// The API's method-not-allowed fallback: the refusal without the methods the address takes,
/// which only the `Allow` header axum sets around the route knows ([`name_allowed_methods`]
/// adds them).
pub async fn api_method_not_allowed(method: Method, OriginalUri(uri): OriginalUri) -> Response {
    let refused = MethodRefused {
        method,
        path: uri.path().to_string(),
    };
    let mut response =
        ApiError(WebError::MethodNotAllowed(method_message(&refused, None))).into_response();
    response.extensions_mut().insert(refused);
    response
}

/// Around the whole router (where axum's `Allow` is set): an API's 405 made again with the
/// methods of its `Allow` header named.
pub async fn name_allowed_methods(response: Response) -> Response {
    let Some(refused) = response.extensions().get::<MethodRefused>().cloned() else {
        return response;
    };
    let allow = response
        .headers()
        .get(header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let again = ApiError(WebError::MethodNotAllowed(method_message(
        &refused,
        allow.as_deref(),
    )))
    .into_response();
    // The response's own headers (`Allow`, the security headers), with the new body.
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, again.into_body())
}

/// What the API says of a method its address does not take (`allow`: the methods it takes).
fn method_message(refused: &MethodRefused, allow: Option<&str>) -> String {
    let MethodRefused { method, path } = refused;
    let see = reference(path);
    let methods: Vec<&str> = allow
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .collect();
    match methods.as_slice() {
        [] => format!("{path} does not take a {method} request ({see})"),
        [one] => format!("{path} does not take a {method} request: send a {one} ({see})"),
        [init @ .., last] => format!(
            "{path} does not take a {method} request: send a {} or {last} ({see})",
            init.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(method: Method, path: &str, allow: Option<&str>) -> String {
        method_message(
            &MethodRefused {
                method,
                path: path.into(),
            },
            allow,
        )
    }

    #[test]
    fn a_path_that_does_not_parse_names_the_value_and_shows_a_good_one() {
        let m = Refused::NotANumber {
            value: "abc".into(),
        }
        .api("/api/matches/abc/record");
        assert!(
            m.message().starts_with(
                "`abc` in /api/matches/abc/record is not a number: that part of the address is \
                 an id, as in /api/matches/12/record"
            ),
            "{m}"
        );
        let m = Refused::NotANumber { value: "y".into() }.api("/api/x/7/y");
        assert!(m.message().contains("as in /api/x/7/12"), "{m}");
        let m = Refused::NotANumber { value: "x".into() }.page("/matches/x");
        assert!(
            m.message().ends_with("as in /matches/12 (at /matches/x)"),
            "{m}"
        );
        let m = Refused::Address {
            detail: "Invalid UTF-8 in `sha256`".into(),
        }
        .api("/api/worker/artifacts/%FF");
        assert!(m.message().contains("(Invalid UTF-8 in `sha256`)"), "{m}");
        assert!(m.message().contains("The worker API"), "{m}");
    }

    #[test]
    fn a_405_names_the_methods_the_address_takes() {
        let m = refused(Method::DELETE, "/api/teams/A/pin", Some("POST"));
        assert!(
            m.starts_with("/api/teams/A/pin does not take a DELETE request: send a POST"),
            "{m}"
        );
        let m = refused(Method::POST, "/api/leaderboard", Some("GET,HEAD"));
        assert!(m.contains("send a GET or HEAD"), "{m}");
        let m = refused(Method::PUT, "/api/final", Some("GET,HEAD,POST"));
        assert!(m.contains("send a GET, HEAD or POST"), "{m}");
        assert!(m.contains("section 15"), "{m}");
    }

    #[test]
    fn a_body_refusal_says_what_the_address_takes_with_its_status() {
        let e = Refused::NoJsonType.api("/api/rejudge");
        assert_eq!(e.status(), 415);
        assert!(
            e.message()
                .contains("send it with the header `Content-Type: application/json`"),
            "{e}"
        );
        let e = Refused::JsonShape {
            detail: "action: invalid type: integer `1`, expected a string".into(),
        }
        .api("/api/final/closing");
        assert_eq!(e.status(), 422);
        assert!(
            e.message().starts_with(
                "the body's JSON does not fit /api/final/closing: action: invalid type"
            ),
            "{e}"
        );
        let e = Refused::TooLarge.api("/api/teams/A/pin");
        assert_eq!(e.status(), 413);
        assert!(e.message().contains("(at most 2 MiB)"), "{e}");
        let e = Refused::TooLarge.api("/api/worker/matches/3/record");
        assert!(e.message().contains("(at most 64 MiB)"), "{e}");
        let e = Refused::Form {
            detail: "paused: invalid value".into(),
            body: true,
        }
        .page("/organiser/matchmaker");
        assert_eq!(e.status(), 422);
    }

    /// The detail is the error axum's rejection wraps (serde's, with the field's path), found
    /// by type: a query string that does not decode, decoded by axum itself.
    #[test]
    fn the_detail_is_the_wrapped_error() {
        #[derive(serde::Deserialize, Debug)]
        struct Q {
            #[allow(dead_code)]
            limit: i64,
        }
        let uri: axum::http::Uri = "/api/matches?limit=many".parse().unwrap();
        let e = axum::extract::Query::<Q>::try_from_uri(&uri).unwrap_err();
        let Refused::Query { detail } = Refused::from(e) else {
            panic!("not a query's refusal");
        };
        assert!(detail.starts_with("limit: invalid digit"), "{detail}");
    }
}
