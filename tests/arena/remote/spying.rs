//! A team never reads another's files on a remote worker either: the arena suite's spy bot
//! (`tests/bots/arena_spy.py`, the Python kit plus hundreds of read attempts) plays the
//! victim (the Python kit carrying a unique token) on a `rollarena worker` whose cache and
//! work directory are outside /tmp, so that only their modes keep seats out. The spy is told
//! the exact paths a guess could reach: the worker's cache, the victim's artifact in it (by
//! its hash) and the file in that artifact. The victim's token and the worker's token must
//! appear nowhere in what the spy printed or in any record, and the spy must have read
//! nothing but its own run directory.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::Duration;

use rollarena::arena::remote::artifact::pack;
use rollarena::tournament::config::sha256_hex;

use super::{Worker, register, wait_for};
use crate::arena::have;
use crate::arena::spying::{
    read_nothing, record_paths, record_text, spy_reports, spy_source, stderr_tails,
};
use crate::arena::web::{Arena, Server, kit, processes_of, submit};

const BOTS: (u32, u32) = (63400, 63419);
const BUILDS: (u32, u32) = (63420, 63429);
const WORKER: (u32, u32) = (63430, 63449);

/// Submits `source` as team `name`'s `bot.py` and waits for its check; the team's token.
fn team(arena: &Arena, server: &Server, name: &str, source: &[u8]) -> String {
    let token = arena.team(name);
    let tmp = crate::check::shared_tempdir("rollarena-remote-spy-");
    let file = tmp.path().join("bot.py");
    std::fs::write(&file, source).unwrap();
    let (code, out, err) = submit(server, &token, &file, &["--wait"]);
    assert_eq!(code, 0, "{out}{err}");
    token
}

#[test]
fn a_spy_on_a_remote_worker_reads_nothing_of_the_victim_or_the_worker() {
    if !have("/usr/bin/python3") {
        return;
    }
    let arena = Arena::init(&["--size", "6"], "");
    arena.own_uids(BOTS, BUILDS);
    let server = Server::start(&arena, 0);
    let victim_token = format!("VICTIM-{}", rollarena::arena::tokens::random_hex(12));
    let mut victim = std::fs::read(kit("python").join("bot.py")).unwrap();
    victim.extend_from_slice(format!("\n# {victim_token}\n").as_bytes());
    team(&arena, &server, "victims", &victim);
    // The hash its artifact will have (packed when a worker first needs it, deterministically).
    let id: i64 = arena
        .db()
        .query_row(
            "SELECT v.id FROM versions v JOIN teams t ON t.id = v.team_id \
             WHERE t.name = 'victims'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let build = arena.dir().join(format!("versions/{id}/build"));
    let sha = sha256_hex(&pack(&build).unwrap());

    // The worker's directories outside /tmp, in a directory every uid may traverse.
    let place = tempfile::Builder::new()
        .prefix("remote-spied-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    std::fs::set_permissions(place.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let worker_token = register(&arena, "w");
    let worker = Worker::start_in(&server.url, &worker_token, WORKER, "w-1", place.path());
    let cache = worker.cache.path().to_path_buf();
    let artifact = cache.join("artifacts").join(&sha);
    let targets: Vec<String> = [
        cache.clone(),
        cache.join("artifacts"),
        artifact.clone(),
        artifact.join("bot.py"),
    ]
    .iter()
    .map(|p| p.display().to_string())
    .collect();
    team(&arena, &server, "spies", &spy_source(&targets));

    wait_for("two matches played", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state IN ('done', 'failed')") >= 2
    });
    // The victim's artifact is where the spy was told to look, with the token in it.
    let cached = std::fs::read_to_string(artifact.join("bot.py")).unwrap_or_else(|e| {
        let listing = std::fs::read_dir(cache.join("artifacts"))
            .map(|d| d.flatten().map(|e| e.file_name()).collect::<Vec<_>>());
        panic!("{}: {e}; the cache holds {listing:?}", artifact.display())
    });
    assert!(
        cached.contains(&victim_token),
        "the cached artifact holds the token"
    );
    let status = worker.stop();
    assert!(status.success(), "the worker stops cleanly: {status:?}");
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'failed'"),
        0,
        "the spy plays legally: {}",
        server.stderr()
    );
    assert!(
        processes_of(&[WORKER]).is_empty(),
        "no bot of the worker is left"
    );

    let mut printed = Vec::new();
    let paths = record_paths(&arena.db(), "state = 'done'");
    for path in &paths {
        let record = record_text(&arena.dir().join(path));
        for secret in [&victim_token, &worker_token] {
            assert!(!record.contains(secret.as_str()), "{path} holds a token");
        }
        printed.extend(stderr_tails(&record));
    }
    for report in spy_reports(&printed, paths.len()) {
        let dir = report
            .lines()
            .find_map(|l| l.strip_prefix("ARENA "))
            .map(PathBuf::from)
            .unwrap_or_else(|| panic!("the spy names its directory: {report}"));
        let worker_dir = std::fs::canonicalize(place.path())
            .unwrap()
            .join("rollarena-worker-");
        assert!(
            dir.display()
                .to_string()
                .starts_with(&worker_dir.display().to_string()),
            "the spy ran from the worker's work directory, not {}: {report}",
            dir.display()
        );
        read_nothing(&report, &dir);
        for target in &targets {
            assert!(
                report.contains(&format!("TARGET {target}\n")),
                "the spy tried {target}: {report}"
            );
        }
        assert!(
            !report.contains(&victim_token) && !report.contains(&worker_token),
            "the spy printed a token: {report}"
        );
    }
    server.stop();
}
