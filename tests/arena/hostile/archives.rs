//! Bad archives made by real tools and sent with `rollarena submit` to the real server, where
//! `arena::web::uploads` sends hand-built bytes under lowered limits: a folder of 6,000 files
//! against the default `max_files` (5,000), a zip holding a symbolic link (Python's zipfile),
//! a tar.gz holding a named pipe and one holding an absolute path (GNU tar). Each is refused
//! with its reason (exit 1, the server's sentence), nothing is stored, and the server still
//! answers the other team.

use std::process::Command;

use crate::arena::have;
use crate::arena::web::{Arena, Server, Who, get, kit, submit};
use crate::check::shared_tempdir;

/// A command that must succeed.
fn run(program: &str, args: &[&str], dir: &std::path::Path) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn bad_archives_made_by_real_tools_are_refused_and_nothing_is_stored() {
    if !have("/usr/bin/python3") || !have("/usr/bin/tar") || !have("/usr/bin/mkfifo") {
        return;
    }
    let arena = Arena::init(&[], "");
    let attacker = arena.team("attackers");
    let other = arena.team("others");
    let server = Server::start(&arena, 0);
    let (code, out, err) = submit(&server, &other, &kit("python").join("bot.py"), &[]);
    assert_eq!(code, 0, "{out}{err}");
    let tmp = shared_tempdir("rollarena-hostile-archives-");
    let dir = tmp.path();
    let bot = std::fs::read(kit("python").join("bot.py")).unwrap();

    // 6,000 files in a folder: `submit` packs them all.
    let many = dir.join("many");
    std::fs::create_dir(&many).unwrap();
    std::fs::write(many.join("bot.py"), &bot).unwrap();
    for i in 0..6000 {
        std::fs::write(many.join(format!("f{i}.txt")), "x").unwrap();
    }
    // A zip with a symbolic link to /etc/shadow beside the bot.
    run(
        "/usr/bin/python3",
        &[
            "-c",
            "import zipfile, stat\n\
             z = zipfile.ZipFile('link.zip', 'w')\n\
             z.writestr('bot.py', open('many/bot.py').read())\n\
             i = zipfile.ZipInfo('shadow')\n\
             i.external_attr = (stat.S_IFLNK | 0o777) << 16\n\
             z.writestr(i, '/etc/shadow')\n\
             z.close()",
        ],
        dir,
    );
    // A tar.gz with a named pipe, and one with an absolute path.
    let fifo = dir.join("fifo");
    std::fs::create_dir(&fifo).unwrap();
    std::fs::write(fifo.join("bot.py"), &bot).unwrap();
    run("/usr/bin/mkfifo", &["fifo/pipe"], dir);
    run(
        "/usr/bin/tar",
        &["-czf", "fifo.tar.gz", "-C", "fifo", "bot.py", "pipe"],
        dir,
    );
    let absolute = dir.join("absolute.tar.gz");
    run(
        "/usr/bin/tar",
        &[
            "-czPf",
            "absolute.tar.gz",
            &fifo.join("bot.py").to_string_lossy(),
        ],
        dir,
    );

    for (what, path, says) in [
        ("6,000 files", many.clone(), "max_files"),
        (
            "a zip with a symbolic link",
            dir.join("link.zip"),
            "symbolic link",
        ),
        (
            "a tar.gz with a named pipe",
            dir.join("fifo.tar.gz"),
            "named pipe",
        ),
        (
            "a tar.gz with an absolute path",
            absolute.clone(),
            "absolute path",
        ),
    ] {
        let (code, out, err) = submit(&server, &attacker, &path, &[]);
        println!("{what}: exit {code}: {}", err.trim());
        assert_ne!(code, 0, "{what} is refused: {out}{err}");
        assert!(
            err.contains(says),
            "{what}: the refusal says {says:?}: {err}"
        );
        let team = get(&format!("{}/api/teams/others", server.url), Who::Nobody);
        assert_eq!(team.status, 200, "{what}: {}", team.body);
    }
    assert_eq!(
        arena.count(
            "SELECT COUNT(*) FROM versions JOIN teams ON teams.id = versions.team_id \
             WHERE teams.name = 'attackers'"
        ),
        0,
        "nothing of the attacker's is stored"
    );
    assert_eq!(
        std::fs::read_dir(arena.dir().join("versions"))
            .unwrap()
            .count(),
        1,
        "the other team's version alone"
    );
    assert!(!server.stderr().contains("panicked"), "{}", server.stderr());
}
