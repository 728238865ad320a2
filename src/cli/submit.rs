//! `rollarena submit`: a team's upload to an arena's server over its JSON API. A file goes as
//! it is; a directory is packed as a tar.gz in memory (regular files and directories only;
//! `.git` left out). With `--wait` it follows the build and check until they end and prints
//! their verdict: the check's failed items with their hints and the bot's stderr, exit 1 when
//! the version failed.
//! Every refusal by the server is printed with the server's own message.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde_json::Value;

use super::{EXIT_OK, EXIT_VERDICT, UsageError};

/// Submit a bot to an arena: a source file, or a directory (packed as a tar.gz), or an archive
/// (.tar.gz or .zip).
///
/// Prints the new version's id and the address of its page. With --wait, waits until the
/// arena has built and checked it and prints the verdict; the exit status is then 1 when the
/// version failed its build or check (the check's failed items and hints are printed), or was
/// superseded by a newer upload of the team before it was built (only a team's newest upload
/// waits to be built). An arena takes a limited number of uploads a team in an hour: past
/// it, the refusal says when the next is accepted (exit 2).
#[derive(Args, Debug)]
pub struct SubmitArgs {
    /// The arena's address, e.g. https://arena.example.org or http://127.0.0.1:8080.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The team's token (the organiser gives it); also read from ROLLARENA_TOKEN.
    #[arg(long, env = "ROLLARENA_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The language recipe to build with [default: from the file's name, or the recipe whose
    /// main file a directory or archive holds].
    #[arg(long, value_name = "L")]
    pub language: Option<String>,
    /// A label for this version, shown on the pages [default: the file's name, or the
    /// directory's name for a directory].
    #[arg(long = "name", value_name = "LABEL")]
    pub label: Option<String>,
    /// Wait for the build and the check, and print their verdict.
    #[arg(long)]
    pub wait: bool,
    /// A source file, an archive, or a directory.
    pub path: PathBuf,
}

/// How often --wait asks.
const POLL: Duration = Duration::from_secs(1);

pub fn run(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let server = args.server.trim_end_matches('/').to_string();
    if !(server.starts_with("http://") || server.starts_with("https://")) {
        return Err(UsageError(format!(
            "--server {server:?} is not an address: give it with its scheme, like \
             http://127.0.0.1:8080 or https://arena.example.org"
        ))
        .into());
    }
    let (file_name, bytes) = read_upload(&args.path)?;
    let mut form = Multipart::new();
    form.file("file", &file_name, &bytes);
    if let Some(l) = &args.language {
        form.text("language", l);
    }
    // A directory goes packed as DIR.tar.gz, but is labelled as the team knows it: DIR.
    let label = args.label.clone().or_else(|| {
        args.path
            .is_dir()
            .then(|| file_name.trim_end_matches(".tar.gz").to_string())
    });
    if let Some(l) = &label {
        form.text("label", l);
    }
    let agent = agent();
    let (content_type, body) = form.finish();
    let response = agent
        .post(&format!("{server}/api/submissions"))
        .header("Authorization", &format!("Bearer {}", args.token.trim()))
        .header("Content-Type", &content_type)
        .send(&body[..]);
    let created = answer(response, &server)?;
    let id = created
        .get("id")
        .and_then(Value::as_i64)
        .ok_or_else(|| anyhow::anyhow!("the server's answer has no submission id: {created}"))?;
    let url = format!("{server}/submissions/{id}");
    println!("version {id} {url}");
    if !args.wait {
        return Ok(ExitCode::from(EXIT_OK));
    }
    let mut last_state = String::new();
    loop {
        let response = agent
            .get(&format!("{server}/api/submissions/{id}"))
            .header("Authorization", &format!("Bearer {}", args.token.trim()))
            .call();
        let view = answer(response, &server)?;
        let state = view
            .get("state")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if state != last_state {
            eprintln!("version {id}: {state}");
            last_state = state.clone();
        }
        match state.as_str() {
            "ready" => {
                println!("passed: version {id} built and passed its check; it plays in the ladder");
                return Ok(ExitCode::from(EXIT_OK));
            }
            "failed" => {
                print!("{}", failure_report(&view));
                println!("see {url}");
                return Ok(ExitCode::from(EXIT_VERDICT));
            }
            "superseded" => {
                // A newer upload of the team replaced it before it was built.
                let why = view
                    .get("failure")
                    .and_then(Value::as_str)
                    .unwrap_or("superseded by a newer version");
                println!("not built: version {id} was {why}");
                println!("see {url}");
                return Ok(ExitCode::from(EXIT_VERDICT));
            }
            _ => std::thread::sleep(POLL),
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(300)))
        .build()
        .into()
}

/// The JSON of a successful answer, or the server's error message.
fn answer(
    response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    server: &str,
) -> anyhow::Result<Value> {
    let mut response = response.map_err(|e| {
        anyhow::anyhow!("cannot reach the arena at {server}: {e} (is the address right, and the server running?)")
    })?;
    let status = response.status();
    let mut text = String::new();
    response
        .body_mut()
        .as_reader()
        .read_to_string(&mut text)
        .map_err(|e| anyhow::anyhow!("cannot read the server's answer: {e}"))?;
    let json: Option<Value> = serde_json::from_str(&text).ok();
    if status.is_success() {
        return json.ok_or_else(|| {
            anyhow::anyhow!("the server's answer is not JSON (is {server} a rollarena arena?)")
        });
    }
    let message = json
        .as_ref()
        .and_then(|j| j.get("error"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| text.trim().chars().take(500).collect());
    let err = format!("the server refused ({status}): {message}");
    if status.is_client_error() {
        Err(UsageError(err).into())
    } else {
        Err(anyhow::anyhow!(err))
    }
}

/// The lines of a failed item's stderr that `--wait` prints (its end, where the error is).
const STDERR_LINES: usize = 20;

/// Why a version failed: its one-line failure, then each failed item of its check with the
/// item's detail, hint and the end of the bot's stderr.
pub fn failure_report(view: &Value) -> String {
    let id = view.get("id").and_then(Value::as_i64).unwrap_or(0);
    let mut out = format!(
        "failed: version {id}: {}\n",
        view.get("failure")
            .and_then(Value::as_str)
            .unwrap_or("its build or check failed")
    );
    let items = view
        .pointer("/check/items")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for item in items
        .iter()
        .filter(|i| i.get("status").and_then(Value::as_str) == Some("fail"))
    {
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        out.push_str(&format!(
            "  FAIL {}: {}\n",
            text(item, "title"),
            text(item, "detail")
        ));
        if let Some(problem) = item.get("problem") {
            for line in text(problem, "hint").lines() {
                out.push_str(&format!("       {line}\n"));
            }
            // The hint of a bot that died says its stderr is below: it is.
            let stderr = text(problem, "stderr");
            let lines: Vec<&str> = stderr.lines().collect();
            if !lines.is_empty() {
                let shown = &lines[lines.len().saturating_sub(STDERR_LINES)..];
                out.push_str(&format!(
                    "       its stderr{}:\n",
                    if shown.len() < lines.len() {
                        format!(" (its last {} lines)", shown.len())
                    } else {
                        String::new()
                    }
                ));
                for line in shown {
                    out.push_str(&format!("       | {line}\n"));
                }
            }
        }
    }
    if items.is_empty()
        && let Some(log) = view.get("build_log").and_then(Value::as_str)
    {
        let tail: Vec<&str> = log.lines().rev().take(20).collect();
        out.push_str("the build log's end:\n");
        for line in tail.into_iter().rev() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// The upload's name and bytes: a file as it is, a directory packed.
fn read_upload(path: &Path) -> anyhow::Result<(String, Vec<u8>)> {
    let meta = std::fs::metadata(path)
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    let base = path
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "bot".into());
    if meta.is_dir() {
        let bytes = pack(path)?;
        Ok((format!("{base}.tar.gz"), bytes))
    } else {
        let bytes = std::fs::read(path)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
        Ok((base, bytes))
    }
}

/// A directory as a tar.gz, in memory: its regular files and directories, `.git` left out; a
/// symlink or a special file is an error (the arena refuses them).
pub fn pack(dir: &Path) -> anyhow::Result<Vec<u8>> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    tar.follow_symlinks(false);
    add_dir(&mut tar, dir, Path::new(""))?;
    let gz = tar.into_inner()?;
    Ok(gz.finish()?)
}

fn add_dir(
    tar: &mut tar::Builder<flate2::write::GzEncoder<Vec<u8>>>,
    root: &Path,
    rel: &Path,
) -> anyhow::Result<()> {
    let dir = root.join(rel);
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| UsageError(format!("cannot read {}: {e}", dir.display())))?
        .collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        if name == ".git" {
            continue;
        }
        let rel = rel.join(&name);
        let kind = entry.file_type()?;
        if kind.is_dir() {
            tar.append_dir(&rel, entry.path())?;
            add_dir(tar, root, &rel)?;
        } else if kind.is_file() {
            tar.append_path_with_name(entry.path(), &rel)?;
        } else {
            return Err(UsageError(format!(
                "{} is a symlink or a special file: the arena takes regular files only; \
                 replace it with a copy of what it points to, or remove it",
                entry.path().display()
            ))
            .into());
        }
    }
    Ok(())
}

/// A multipart/form-data body (RFC 7578), written by hand: ureq's multipart support is
/// still in its `unversioned` (unstable) module, and the format is a few lines.
struct Multipart {
    boundary: String,
    body: Vec<u8>,
}

impl Multipart {
    fn new() -> Multipart {
        Multipart {
            boundary: format!("rollarena-{}", crate::arena::tokens::random_hex(16)),
            body: Vec::new(),
        }
    }

    fn head(&mut self, disposition: &str, content_type: Option<&str>) {
        self.body
            .extend_from_slice(format!("--{}\r\n", self.boundary).as_bytes());
        self.body.extend_from_slice(
            format!("Content-Disposition: form-data; {disposition}\r\n").as_bytes(),
        );
        if let Some(t) = content_type {
            self.body
                .extend_from_slice(format!("Content-Type: {t}\r\n").as_bytes());
        }
        self.body.extend_from_slice(b"\r\n");
    }

    fn text(&mut self, name: &str, value: &str) {
        self.head(&format!("name=\"{}\"", quote(name)), None);
        self.body.extend_from_slice(value.as_bytes());
        self.body.extend_from_slice(b"\r\n");
    }

    fn file(&mut self, name: &str, file_name: &str, bytes: &[u8]) {
        self.head(
            &format!(
                "name=\"{}\"; filename=\"{}\"",
                quote(name),
                quote(file_name)
            ),
            Some("application/octet-stream"),
        );
        self.body.extend_from_slice(bytes);
        self.body.extend_from_slice(b"\r\n");
    }

    fn finish(mut self) -> (String, Vec<u8>) {
        self.body
            .extend_from_slice(format!("--{}--\r\n", self.boundary).as_bytes());
        (
            format!("multipart/form-data; boundary={}", self.boundary),
            self.body,
        )
    }
}

/// A file name in a quoted header parameter: quotes and line breaks escaped as browsers do.
fn quote(s: &str) -> String {
    s.replace('"', "%22")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_packs_its_files_without_git() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.py"), "print(1)\n").unwrap();
        std::fs::create_dir_all(dir.path().join("lib/.git")).unwrap();
        std::fs::create_dir_all(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join(".git/HEAD"), "x").unwrap();
        std::fs::write(dir.path().join("lib/util.py"), "x = 1\n").unwrap();
        let bytes = pack(dir.path()).unwrap();
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&bytes[..]));
        let names: Vec<String> = archive
            .entries()
            .unwrap()
            .map(|e| e.unwrap().path().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["lib", "lib/util.py", "main.py"]);
    }

    #[test]
    fn a_symlink_is_refused_with_the_way_out() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("p")).unwrap();
        let err = pack(dir.path()).unwrap_err().to_string();
        assert!(err.contains("regular files only"), "{err}");
    }

    #[test]
    fn a_failure_report_lists_failed_items_with_hints() {
        let view = serde_json::json!({
            "id": 7, "failure": "check: handshake failed",
            "check": {"items": [
                {"title": "Handshake", "status": "fail", "detail": "no ready",
                 "problem": {"hint": "print ready\nand flush"}},
                {"title": "Moves", "status": "skip", "detail": "not run"}
            ]}
        });
        let text = failure_report(&view);
        assert!(
            text.contains("failed: version 7: check: handshake failed"),
            "{text}"
        );
        assert!(text.contains("FAIL Handshake: no ready"), "{text}");
        assert!(text.contains("       and flush"), "{text}");
        assert!(!text.contains("Moves"), "{text}");
    }
}
