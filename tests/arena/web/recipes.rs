//! Recipes checked at start: an arena with a recipe whose compiler does not exist. `serve`
//! runs each recipe's probe as a build uid and says, one line for it, what is missing and how
//! to install it; the recipe is not offered: not in `GET /api/languages`, not on the submit
//! form, and an upload in it (named or found by its main file) is refused with the reason
//! while the other languages are still taken. The real server on loopback.

use super::{Arena, Server, Who, get, get_with, login, submit};

/// This test's bots' and builds' uids.
const UIDS: [(u32, u32); 2] = [(59500, 59549), (59550, 59599)];

/// A language whose compiler is nowhere.
const GHOST: &str = r#"
[[recipes]]
name = "ghost"
main = "bot.ghost"
extensions = [".ghost"]
build = "ghostcc -o bot bot.ghost"
run = "bot"
probe = "ghostcc --version"
"#;

#[test]
fn a_recipe_whose_compiler_is_missing_is_not_offered_and_serve_says_so() {
    let arena = Arena::init(&["--size", "6"], GHOST);
    arena.own_uids(UIDS[0], UIDS[1]);
    let token = arena.team("Alpha");
    let server = Server::start(&arena, 0);
    // The line serve printed (before it listened), naming the probe and what to do.
    let said = server.stderr();
    let line = said
        .lines()
        .find(|l| l.contains("the language ghost is not offered"))
        .unwrap_or_else(|| panic!("no line about ghost in {said}"));
    assert!(
        line.contains("ghostcc --version")
            && line.contains("not found")
            && line.contains("build uid")
            && line.contains("/usr/local/bin")
            && line.contains("restart serve"),
        "{line}"
    );
    assert!(
        !said.contains("the language python is not offered"),
        "{said}"
    );

    // The API lists the others and says why ghost is not offered.
    let langs = get(&format!("{}/api/languages", server.url), Who::Nobody).json();
    let names: Vec<&str> = langs["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"python") && !names.contains(&"ghost"),
        "{langs}"
    );
    let not = langs["not_offered"].as_array().unwrap();
    let ghost = not.iter().find(|l| l["name"] == "ghost").unwrap();
    assert!(
        ghost["why"].as_str().unwrap().contains("not found"),
        "{langs}"
    );

    // The form offers no ghost.
    let cookie = login(&server.url, &token);
    let form = get_with(&format!("{}/submit", server.url), Who::Cookie(&cookie), &[]);
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(form.body.contains("value=\"python\""), "{}", form.body);
    assert!(!form.body.contains("value=\"ghost\""), "{}", form.body);

    // An upload in it, named or found by its file's name: refused, saying why.
    let tmp = crate::check::shared_tempdir("rollarena-ghost-");
    let bot = tmp.path().join("bot.ghost");
    std::fs::write(&bot, "print 1\n").unwrap();
    for extra in [&["--language", "ghost"][..], &[]] {
        let (code, out, err) = submit(&server, &token, &bot, extra);
        assert_ne!(code, 0, "{out}");
        assert!(
            err.contains("cannot build ghost now") && err.contains("not found"),
            "{extra:?}: {err}"
        );
    }
    assert_eq!(arena.count("SELECT COUNT(*) FROM versions"), 0);
    // The others are taken.
    let py = tmp.path().join("bot.py");
    std::fs::write(&py, "import sys\n").unwrap();
    let (code, out, err) = submit(&server, &token, &py, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(server.stop().success());
}
