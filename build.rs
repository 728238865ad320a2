//! The build script: the commit this binary is built from, for `rollarena --version`
//! (`rollarena 0.2.0 (1a2b3c4)`, `(1a2b3c4-dirty)` when the sources differ from it, `(unknown)`
//! when there is no git or no repository of this crate, as when built from a source archive).
//!
//! It runs again only when the commit or the sources may have changed: when `HEAD` moves (the
//! branch's ref or the packed refs change) or a file the binary is built from changes
//! (`src/`, `crates/`, `Cargo.toml`, `Cargo.lock`; such a change recompiles the crate anyway, and the
//! script then costs one `git status`), so that "-dirty" stays true without running git on
//! every build.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What git says, trimmed, when it succeeds.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The commit of the crate's own repository, "-dirty" when the sources that make the binary
/// differ from it (tracked changes or new files), or `None`.
fn commit(root: &Path) -> Option<String> {
    // A checkout of this crate, not a repository the sources merely sit inside.
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(root).ok()? {
        return None;
    }
    let hash = git(root, &["rev-parse", "--short", "HEAD"])?;
    let status = git(
        root,
        &[
            "status",
            "--porcelain",
            "--",
            "src",
            "crates",
            "build.rs",
            "Cargo.toml",
            "Cargo.lock",
        ],
    )?;
    Some(if status.is_empty() {
        hash
    } else {
        format!("{hash}-dirty")
    })
}

/// The files whose change may move HEAD: HEAD itself, the branch's ref, the packed refs.
fn head_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut add = |name: &str| {
        if let Some(p) = git(root, &["rev-parse", "--git-path", name]) {
            files.push(root.join(p));
        }
    };
    add("HEAD");
    add("packed-refs");
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        add(&branch);
    }
    // A file that does not exist would make cargo run this script on every build.
    files.retain(|f| f.exists());
    files
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let commit = commit(&root);
    println!(
        "cargo:rustc-env=ROLLARENA_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
    for f in ["build.rs", "src", "crates", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={f}");
    }
    for f in head_files(&root) {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    // The release build's debug information (this crate's line tables: a panic's backtrace
    // names files and lines) compressed by the linker, with zlib, which the backtrace's reader
    // decompresses: the sections shrink to about a quarter (README, "Performance", "The
    // release build"). Cargo.toml cannot pass a linker flag per profile; the test build
    // (PROFILE "debug") links as before.
    if std::env::var("PROFILE").as_deref() == Ok("release") {
        println!("cargo:rustc-link-arg-bins=-Wl,--compress-debug-sections=zlib");
    }
}
