//! What a bot under the host's `/tmp` keeps seeing behind its private `/tmp`: the directories
//! its command names, and, for a symbolic link, the directory of the file it leads to (a
//! contest's bots are often links into a build directory).

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use crate::arbiter::{PYTHON, rollarena};

const BOT: &str = r#"import json, sys
legal, tried = [], 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "linked", "version": "1"}), flush=True)
    elif msg["type"] in ("turn", "illegal"):
        if msg["type"] == "turn":
            legal, tried = msg["legal"], 0
        else:
            tried += 1
        print(json.dumps({"type": "move", "move": legal[tried % len(legal)]}), flush=True)
    elif msg["type"] == "bye":
        break
"#;

fn dir_in_tmp(prefix: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in("/tmp")
        .expect("a directory under /tmp");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Before: `B/link.py` -> `A/bot.py` under `/tmp` was bound at `B` only, the link led nowhere
/// inside the bot's world, and every round was a start-up forfeit.
#[test]
fn a_bot_behind_a_symbolic_link_in_tmp_starts_at_every_level() {
    let real = dir_in_tmp("rollarena-real-");
    let links = dir_in_tmp("rollarena-links-");
    let bot = real.path().join("bot.py");
    std::fs::write(&bot, BOT).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    let link = links.path().join("link.py");
    std::os::unix::fs::symlink(&bot, &link).unwrap();
    for level in ["basic", "strict"] {
        let out = Command::new(rollarena())
            .args([
                "match",
                "--size",
                "4",
                "--rounds",
                "2",
                "--json",
                "--sandbox",
                level,
            ])
            .arg(format!("{PYTHON} {}", link.display()))
            .arg("rollarena bot random")
            .output()
            .expect("run rollarena");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{level}: {err}");
        let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for s in result["standings"].as_array().expect("standings") {
            assert_eq!(s["forfeits"], serde_json::json!({}), "{level}: {s}\n{err}");
            assert_eq!(s["rounds"], 2, "{level}: {s}");
        }
    }
}
