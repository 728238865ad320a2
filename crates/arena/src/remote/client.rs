//! The worker's HTTP client of the worker API (`ureq`, blocking: each of the worker's
//! threads makes its own calls). Every answer is either what the endpoint returns, or a
//! [`CallError`]: the server could not be reached (the worker retries with backoff), or it
//! answered with a refusal and its message (the worker acts on it).

use std::io::Read;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::wire::{Counted, Hello, Lease, Release, Renewed, Welcome};
use crate::Error;

/// Why a call did not get its answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// No answer: the server is down, restarting, or the network is cut.
    #[error("the server cannot be reached: {0}")]
    Unreachable(String),
    /// The server answered with this status and message.
    #[error("the server refused ({status}): {message}")]
    Refused { status: u16, message: String },
}

/// A call that failed, as the arena's error.
impl From<CallError> for crate::Error {
    fn from(e: CallError) -> Self {
        crate::Error::Remote(e.to_string())
    }
}

/// The worker API of one server, with one worker's token.
#[derive(Clone)]
pub struct Client {
    base: String,
    token: String,
    agent: ureq::Agent,
}

impl Client {
    /// A client of the server at `server` (`http://HOST:PORT` or `https://...`); refuses an
    /// address that is not one.
    pub fn new(server: &str, token: &str) -> Result<Client, Error> {
        let base = server.trim().trim_end_matches('/').to_string();
        let uri: Option<ureq::http::Uri> = base.parse().ok();
        let ok = uri.as_ref().is_some_and(|u| {
            matches!(u.scheme_str(), Some("http" | "https"))
                && u.host().is_some_and(|h| !h.is_empty())
        });
        if !ok {
            return Err(Error::Invalid(format!(
                "--server {server:?} is not an address: give it with its scheme and host, like \
                 http://10.0.0.5:8080 or https://arena.example.org"
            )));
        }
        let token = token.trim().to_string();
        if token.is_empty() {
            return Err(Error::Invalid(
                "no worker token: give --token or set ROLLARENA_WORKER_TOKEN (the organiser \
                 makes one with `rollarena arena worker DIR NAME`)"
                    .into(),
            ));
        }
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(10)))
            .timeout_global(Some(Duration::from_secs(300)))
            .build()
            .into();
        Ok(Client { base, token, agent })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<(&str, &[u8])>,
    ) -> Result<Vec<u8>, CallError> {
        self.call_encoded(method, path, body, None)
    }

    fn call_encoded(
        &self,
        method: &str,
        path: &str,
        body: Option<(&str, &[u8])>,
        encoding: Option<&str>,
    ) -> Result<Vec<u8>, CallError> {
        let url = format!("{}{path}", self.base);
        let auth = format!("Bearer {}", self.token);
        let response = match (method, body) {
            ("GET", _) => self.agent.get(&url).header("Authorization", &auth).call(),
            (_, Some((ctype, bytes))) => {
                let mut req = self
                    .agent
                    .post(&url)
                    .header("Authorization", &auth)
                    .header("Content-Type", ctype);
                if let Some(e) = encoding {
                    req = req.header("Content-Encoding", e);
                }
                req.send(bytes)
            }
            (_, None) => self
                .agent
                .post(&url)
                .header("Authorization", &auth)
                .send_empty(),
        };
        let mut response = response.map_err(|e| CallError::Unreachable(e.to_string()))?;
        let status = response.status().as_u16();
        let mut bytes = Vec::new();
        response
            .body_mut()
            .with_config()
            .limit(u64::MAX)
            .reader()
            .read_to_end(&mut bytes)
            .map_err(|e| CallError::Unreachable(format!("the answer was cut: {e}")))?;
        if (200..300).contains(&status) {
            return Ok(bytes);
        }
        let text = String::from_utf8_lossy(&bytes);
        let message = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|j| j.get("error").and_then(Value::as_str).map(str::to_string))
            .unwrap_or_else(|| {
                format!(
                    "{} (is {} a rollarena arena of this version?)",
                    text.trim().chars().take(300).collect::<String>(),
                    self.base
                )
            });
        Err(CallError::Refused { status, message })
    }

    fn json<T: DeserializeOwned>(
        &self,
        path: &str,
        body: &impl Serialize,
    ) -> Result<Option<T>, CallError> {
        let body = serde_json::to_vec(body).expect("requests serialise");
        let bytes = self.call("POST", path, Some(("application/json", &body)))?;
        if bytes.is_empty() {
            return Ok(None);
        }
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| CallError::Refused {
                status: 200,
                message: format!(
                    "the answer to {path} is not what a rollarena server of this version sends \
                 ({e}): is {} the arena's address?",
                    self.base
                ),
            })
    }

    fn expect<T>(&self, path: &str, answer: Option<T>) -> Result<T, CallError> {
        answer.ok_or_else(|| CallError::Refused {
            status: 204,
            message: format!("{path} answered nothing"),
        })
    }

    pub fn hello(&self, h: &Hello) -> Result<Welcome, CallError> {
        let path = "/api/worker/hello";
        let a = self.json(path, h)?;
        self.expect(path, a)
    }

    /// A match to play, or `None` when the server has none for this worker now.
    pub fn lease(&self, h: &Hello) -> Result<Option<Lease>, CallError> {
        self.json("/api/worker/lease", h)
    }

    pub fn heartbeat(&self, id: i64, lease: &str) -> Result<Renewed, CallError> {
        let path = format!("/api/worker/matches/{id}/heartbeat?lease={lease}");
        let a = self.json(&path, &Value::Null)?;
        self.expect(&path, a)
    }

    pub fn live(&self, id: i64, lease: &str, messages: &[Value]) -> Result<(), CallError> {
        let path = format!("/api/worker/matches/{id}/live?lease={lease}");
        self.json::<Value>(&path, &messages).map(|_| ())
    }

    /// Uploads a record, gzipped (records are JSON: about a tenth of their size).
    pub fn upload(&self, id: i64, lease: &str, record: &[u8]) -> Result<Counted, CallError> {
        let path = format!("/api/worker/matches/{id}/record?lease={lease}");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let packed = std::io::Write::write_all(&mut gz, record)
            .and_then(|_| gz.finish())
            .map_err(|e| CallError::Unreachable(format!("compressing the record: {e}")))?;
        let bytes = self.call_encoded(
            "POST",
            &path,
            Some(("application/x-ndjson", &packed)),
            Some("gzip"),
        )?;
        self.counted(bytes)
    }

    fn counted(&self, bytes: Vec<u8>) -> Result<Counted, CallError> {
        serde_json::from_slice(&bytes).map_err(|e| CallError::Refused {
            status: 200,
            message: format!("the answer to the upload is not understood: {e}"),
        })
    }

    pub fn release(&self, id: i64, lease: &str, error: Option<String>) -> Result<(), CallError> {
        let path = format!("/api/worker/matches/{id}/release?lease={lease}");
        self.json::<Value>(&path, &Release { error }).map(|_| ())
    }

    pub fn artifact(&self, sha256: &str) -> Result<Vec<u8>, CallError> {
        self.call("GET", &format!("/api/worker/artifacts/{sha256}"), None)
    }
}
