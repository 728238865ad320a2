//! What an installer meets: `--version` naming the commit the binary was built from, the shell
//! completion scripts and the manual pages, each made from the same clap definitions as
//! `--help` (so every subcommand, nested ones included, is found by walking those definitions
//! here, not listed by hand).

use std::path::Path;
use std::process::{Command, Output, Stdio};

use super::{run_in, stderr, stdout};

fn run(args: &[&str]) -> Output {
    run_in(Path::new("/"), args)
}

/// Every subcommand as the words that name it (`["match"]`, `["arena", "init"]`).
fn subcommands() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, above: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands().filter(|c| !c.is_hide_set()) {
            if sub.get_name() == "help" {
                continue;
            }
            let mut path = above.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            walk(sub, &path, out);
        }
    }
    let mut out = Vec::new();
    walk(&rollarena::cli::command(), &[], &mut out);
    out
}

/// What git says in the checkout, if it is one.
fn git(args: &[&str]) -> Option<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let out = run(&["--version"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text.trim();
    let re =
        regex::Regex::new(r"^rollarena (\d+\.\d+\.\d+) \(([0-9a-f]{7,40}(-dirty)?|unknown)\)$")
            .unwrap();
    let caps = re
        .captures(line)
        .unwrap_or_else(|| panic!("not `rollarena X.Y.Z (COMMIT)`: {line:?}"));
    assert_eq!(&caps[1], env!("CARGO_PKG_VERSION"));
    // In a checkout of this crate, the commit is HEAD's (the build script runs again when
    // HEAD moves, so the binary under test was built from it).
    let ours = git(&["rev-parse", "--show-toplevel"]).is_some_and(|top| {
        std::fs::canonicalize(top).ok() == std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).ok()
    });
    if let (true, Some(head)) = (ours, git(&["rev-parse", "HEAD"])) {
        let commit = caps[2].trim_end_matches("-dirty");
        assert!(
            head.starts_with(commit),
            "built from {commit}, HEAD is {head}"
        );
    } else {
        assert_eq!(&caps[2], "unknown", "no repository of this crate: {line}");
    }
}

#[test]
fn bash_completes_every_subcommand() {
    let out = run(&["completions", "bash"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let script = stdout(&out);
    // Bash itself, with the script loaded, completing the first word from nothing, and from
    // "ar" (arena), and the words after `arena `.
    let complete = |words: &str, cword: usize| -> Vec<String> {
        let program = format!(
            "{script}\nCOMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE=\"${{COMP_WORDS[*]}}\"; \
             COMP_POINT=${{#COMP_LINE}}; _rollarena rollarena \"${{COMP_WORDS[COMP_CWORD]}}\" \
             \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let out = Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &program])
            .output()
            .expect("bash runs");
        assert!(out.status.success(), "bash: {}", stderr(&out));
        stdout(&out).lines().map(str::to_string).collect()
    };
    let first = complete("rollarena ''", 1);
    let second = complete("rollarena arena ''", 2);
    for path in subcommands() {
        let (words, name) = match path.as_slice() {
            [name] => (&first, name),
            [parent, name] if parent == "arena" => (&second, name),
            _ => continue,
        };
        assert!(
            words.contains(name),
            "bash does not complete `rollarena {}`: it offers {words:?}",
            path.join(" ")
        );
        assert!(script.contains(name.as_str()));
    }
    assert_eq!(complete("rollarena ar", 1), vec!["arena".to_string()]);
    // The other shells' scripts name every subcommand too.
    for shell in ["zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for path in subcommands() {
            assert!(
                script.contains(path.last().unwrap().as_str()),
                "{shell}'s script lacks {path:?}"
            );
        }
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bash"), "{}", stderr(&out));
}

/// A page rendered by groff as man would (`man -l` runs groff -man), its text and warnings;
/// `None` without groff.
fn render(page: &[u8]) -> Option<(String, String)> {
    use std::io::Write;
    let mut child = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-P-cbou"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take().unwrap().write_all(page).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "groff failed: {}", stderr(&out));
    Some((stdout(&out), stderr(&out)))
}

#[test]
fn every_subcommand_has_a_man_page() {
    let top = run(&["man"]);
    assert!(top.status.success(), "{}", stderr(&top));
    let roff = stdout(&top);
    assert!(
        roff.starts_with(".ie") || roff.contains("\n.TH rollarena 1 "),
        "{roff}"
    );
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH SUBCOMMANDS",
    ] {
        assert!(roff.contains(section), "the top page lacks {section}");
    }
    let rendered = render(&top.stdout);
    if let Some((text, warnings)) = &rendered {
        assert!(warnings.trim().is_empty(), "groff warns: {warnings}");
        assert!(
            text.contains("SUBCOMMANDS") && text.contains("rollarena-match(1)"),
            "{text}"
        );
    } else {
        eprintln!("note: no groff here: the pages' roff is checked for its structure only");
    }
    let paths = subcommands();
    assert!(paths.len() > 15, "{paths:?}");
    for path in &paths {
        let name = format!("rollarena-{}", path.join("-"));
        if path.len() == 1 {
            assert!(
                roff.contains(&format!("{}(1)", name.replace('-', "\\-"))),
                "the top page does not list {name}"
            );
        }
        let mut args = vec!["man"];
        args.extend(path.iter().map(String::as_str));
        let out = run(&args);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let page = stdout(&out);
        assert!(
            page.contains(&format!("\n.TH {name} 1 "))
                || page.starts_with(&format!(".TH {name} 1 ")),
            "{name}'s title: {}",
            &page[..page.len().min(300)]
        );
        assert!(
            page.contains(".SH NAME") && page.contains(".SH SYNOPSIS"),
            "{name}"
        );
        assert!(
            page.contains(&format!("\"rollarena {}", env!("CARGO_PKG_VERSION"))),
            "{name}'s footer names the build"
        );
        if let Some((text, warnings)) = render(&out.stdout) {
            assert!(
                warnings.trim().is_empty(),
                "groff warns on {name}: {warnings}"
            );
            assert!(text.contains(&name), "{name} rendered: {text}");
        }
    }
    // `--dir` writes them all.
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut files: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut want: Vec<String> = paths
        .iter()
        .map(|p| format!("rollarena-{}.1", p.join("-")))
        .chain(["rollarena.1".to_string()])
        .collect();
    want.sort();
    assert_eq!(files, want);
    // A subcommand that does not exist: the ones that do.
    let out = run(&["man", "arena", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("`rollarena arena` has no subcommand \"nosuch\"") && err.contains("init"),
        "{err}"
    );
}
