//! The fuzz's raw HTTP client: a request as bytes on a connection of its own (so that nothing
//! a well-behaved client would refuse to send is out of reach), its answer read within a
//! bound, an event stream answered once its head has arrived.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::BOUND;

/// One raw request.
pub struct Request {
    pub who: &'static str,
    pub method: String,
    pub target: Vec<u8>,
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

impl std::fmt::Display for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short = |b: &[u8], n: usize| {
            let s = String::from_utf8_lossy(&b[..b.len().min(n)]).into_owned();
            if b.len() > n {
                format!("{s:?}... ({} bytes)", b.len())
            } else {
                format!("{s:?}")
            }
        };
        writeln!(
            f,
            "{} {} (as {})",
            self.method,
            short(&self.target, 300),
            self.who
        )?;
        for (k, v) in &self.headers {
            writeln!(f, "  {k}: {}", short(v, 200))?;
        }
        write!(f, "  body: {}", short(&self.body, 400))
    }
}

/// One answer.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub took: Duration,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl std::fmt::Display for Reply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = String::from_utf8_lossy(&self.body[..self.body.len().min(600)]);
        write!(
            f,
            "{} after {:?}, {:?}: {body}",
            self.status, self.took, self.headers
        )
    }
}

/// Sends `req` on a connection of its own and reads the answer, all within [`BOUND`]; an
/// event stream is answered once its head has arrived.
pub fn exchange(addr: &str, req: &Request) -> Result<Reply, String> {
    let start = Instant::now();
    let mut stream = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    stream.set_write_timeout(Some(BOUND)).unwrap();
    let mut head = Vec::new();
    head.extend_from_slice(req.method.as_bytes());
    head.push(b' ');
    head.extend_from_slice(&req.target);
    head.extend_from_slice(
        format!(" HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n").as_bytes(),
    );
    for (k, v) in &req.headers {
        head.extend_from_slice(k.as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(v);
        head.extend_from_slice(b"\r\n");
    }
    head.extend_from_slice(format!("Content-Length: {}\r\n\r\n", req.body.len()).as_bytes());
    // A server that refuses early may close before the body is sent: its answer is still read.
    let sent = stream
        .write_all(&head)
        .and_then(|()| stream.write_all(&req.body));
    let mut got = Vec::new();
    let mut buf = [0u8; 16384];
    let mut head_end = None;
    loop {
        let left = BOUND.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Err(format!(
                "no whole answer within {BOUND:?} ({} bytes: {:?})",
                got.len(),
                String::from_utf8_lossy(&got[..got.len().min(300)])
            ));
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => continue,
            Err(e) if head_end.is_some() => {
                return Err(format!("the answer was cut: {e}"));
            }
            Err(e) => {
                return Err(format!(
                    "no answer: {e} (sending: {sent:?}, {} bytes read)",
                    got.len()
                ));
            }
        }
        if head_end.is_none() {
            head_end = got.windows(4).position(|w| w == b"\r\n\r\n");
        }
        // Whole once its head says so: no need to wait for the server to close (it may reset
        // the connection instead, when it did not read the whole request).
        if let Some(end) = head_end
            && complete(&got, end, &req.method)
        {
            break;
        }
    }
    let took = start.elapsed();
    let end = head_end.ok_or_else(|| {
        format!(
            "no answer's head (sending: {sent:?}): {:?}",
            String::from_utf8_lossy(&got)
        )
    })?;
    let head = String::from_utf8_lossy(&got[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("a bad status line: {status_line:?}"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let raw = got[end + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked && req.method != "HEAD" {
        dechunk(&raw).ok_or_else(|| format!("a bad chunked body: {raw:?}"))?
    } else {
        raw
    };
    Ok(Reply {
        status,
        headers,
        body,
        took,
    })
}

/// Whether `got`, whose head ends at `end`, holds the whole answer: an event stream's head, a
/// body of its `Content-Length`, a chunked body to its last chunk.
fn complete(got: &[u8], end: usize, method: &str) -> bool {
    let head = String::from_utf8_lossy(&got[..end]).to_ascii_lowercase();
    let body = &got[end + 4..];
    let status = head.split(' ').nth(1).unwrap_or_default();
    if head.contains("content-type: text/event-stream")
        || method == "HEAD"
        || status.starts_with('1')
        || status == "204"
        || status == "304"
    {
        return true;
    }
    if let Some(length) = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|l| l.trim().parse::<usize>().ok())
    {
        return body.len() >= length;
    }
    head.contains("transfer-encoding: chunked") && body.ends_with(b"0\r\n\r\n")
}

/// A chunked body's bytes (a stream cut short keeps what came).
fn dechunk(mut raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") else {
            return Some(out);
        };
        let size = std::str::from_utf8(&raw[..eol]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        if size == 0 {
            return Some(out);
        }
        let data = raw.get(eol + 2..eol + 2 + size)?;
        out.extend_from_slice(data);
        raw = raw.get(eol + 2 + size + 2..).unwrap_or_default();
    }
}
