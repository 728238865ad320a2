//! The files a game of hidden information's cards follow from stay out of the bots' reach: a
//! tournament file with a `seed` and an openings file of deal seeds that the bots' uids could
//! read are refused before any bot starts, with the way out in the message; `--public-seed`
//! plays anyway; a file made private plays, and so does a readable file without a `seed`
//! (its seed is drawn from the operating system, nothing in the file decides the cards).
//! Rolit's are not checked (nothing of it is hidden). A `--seed` at `--sandbox none`, where a bot can read the
//! arbiter's command line, is warned about. Runs as root, where bots get uids of their own.

use std::fs::Permissions;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::{assert_ok, rollarena, s};

fn write(dir: &Path, name: &str, text: &str, mode: u32) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
    path
}

/// A tournament file of two random bots; `seed = ...` in it unless `openings` (the deals then
/// come from the openings file).
fn file(game: &str, openings: bool) -> String {
    let options = match game {
        "rolit" => "[options]\nsize = 6\n",
        "rollerball" => "[options]\nturn_limit = 60\n",
        _ => "",
    };
    format!(
        "game = \"{game}\"\nplayers = 2\nrounds = 2\n{}{options}[[bot]]\nname = \"a\"\ncommand = \
         \"rollarena bot random --seed 1\"\n[[bot]]\nname = \"b\"\ncommand = \"rollarena bot \
         random --seed 2\"\n",
        if openings {
            "openings = \"deals.txt\"\n"
        } else {
            "seed = 4503599627370517\n"
        }
    )
}

fn refused(out: &std::process::Output, what: &str, path: &Path) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{what} {} can be read by the bots",
            path.display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("chmod 600 {}", path.display())),
        "{err}"
    );
    assert!(err.contains("--public-seed"), "{err}");
}

#[test]
fn readable_files_the_cards_follow_from_are_refused() {
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: needs root (bots then run under uids of their own)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Reachable by anyone, as a directory under /srv or a home would be.
    std::fs::set_permissions(dir.path(), Permissions::from_mode(0o755)).unwrap();
    let d = dir.path();
    for game in ["goofspiel", "rollerball"] {
        let t = write(d, &format!("{game}.toml"), &file(game, false), 0o644);
        let out = d.join(format!("{game}-out"));
        let run = rollarena(&["tournament", s(&t), "-o", s(&out), "-q"]);
        refused(&run, "the tournament file", &t);
        assert!(!out.exists(), "{game}: nothing written before the refusal");
        // With the seed on the command line the file does not decide the cards.
        let seeded = rollarena(&["tournament", s(&t), "-o", s(&out), "-q", "--seed", "99"]);
        assert_ok(&seeded, &format!("{game} with --seed"));
        std::fs::remove_dir_all(&out).unwrap();
        let public = rollarena(&["tournament", s(&t), "-o", s(&out), "-q", "--public-seed"]);
        assert_ok(&public, &format!("{game} with --public-seed"));
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::set_permissions(&t, Permissions::from_mode(0o600)).unwrap();
        assert_ok(
            &rollarena(&["tournament", s(&t), "-o", s(&out), "-q"]),
            &format!("{game}, file private"),
        );
        std::fs::remove_dir_all(&out).unwrap();
        // Without a `seed` the file decides no card: readable, it plays.
        let seedless = write(
            d,
            &format!("{game}-seedless.toml"),
            &file(game, false).replace("seed = 4503599627370517\n", ""),
            0o644,
        );
        assert_ok(
            &rollarena(&["tournament", s(&seedless), "-o", s(&out), "-q"]),
            &format!("{game}, a readable file without a seed"),
        );
    }
    // An openings file of deal seeds, the tournament file private.
    let deals = write(d, "deals.txt", "17\n123456789\n", 0o644);
    let t = write(d, "deals.toml", &file("rollerball", true), 0o600);
    let out = d.join("deals-out");
    refused(
        &rollarena(&["tournament", s(&t), "-o", s(&out), "-q"]),
        "the openings file",
        &deals,
    );
    let run = rollarena(&[
        "match",
        "--game",
        "rollerball",
        "--openings",
        s(&deals),
        "rollarena bot random",
        "rollarena bot random",
    ]);
    refused(&run, "the openings file", &deals);
    std::fs::set_permissions(&deals, Permissions::from_mode(0o600)).unwrap();
    assert_ok(
        &rollarena(&["tournament", s(&t), "-o", s(&out), "-q"]),
        "openings private",
    );
    // At `none` a bot reads the arbiter's command line: a --seed there is warned about.
    for (level, warned) in [("none", true), ("basic", false)] {
        let run = rollarena(&[
            "match",
            "--game",
            "goofspiel",
            "--rounds",
            "2",
            "--seed",
            "1234567890123456",
            "--sandbox",
            level,
        ]);
        assert_ok(&run, level);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(
            err.contains("--seed with --sandbox none: the bots can read this command line"),
            warned,
            "{level}: {err}"
        );
    }
    // Rolit hides nothing: its files are not checked.
    let rolit = write(d, "rolit.toml", &file("rolit", false), 0o644);
    assert_ok(
        &rollarena(&["tournament", s(&rolit), "-o", s(&d.join("rolit-out")), "-q"]),
        "rolit",
    );
}
