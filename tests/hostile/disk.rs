//! A seat's disk (issue 40): a bot that leaves a directory tree 100,000 levels deep in its
//! scratch directory and another in /tmp (fewer levels at `strict`: see [`bombed_strict`]), fills /tmp until the kernel refuses (ENOSPC, its
//! quota: `--disk`), and lists `/sys/fs/cgroup` for the names of other seats' cgroups, plays
//! on. Its match goes on, the record is clean, it saw no cgroup, and nothing of its trees is
//! left on the host: its scratch directory and private directories were one tmpfs of its own,
//! gone with its world.

use super::{Outcome, Row, Verdict::Clean};

/// The disk-bomb's report at `basic`: trees of 100,000 and 20,000 levels.
fn bombed(o: &Outcome) {
    bombed_with(o, 100_000, 20_000);
}

/// At `strict`, landlock makes every file operation the bot does at depth d cost the kernel
/// O(d) (it looks for its rules up the tree), so a 100,000-level tree costs the bot minutes of
/// its own time: the row uses 5,000 and 1,000 levels (paths still far past PATH_MAX).
fn bombed_strict(o: &Outcome) {
    bombed_with(o, 5_000, 1_000);
}

/// The disk-bomb's report, checked: its trees were made whole, its fill stopped at the quota.
fn bombed_with(o: &Outcome, scratch: u64, tmp: u64) {
    let report = o.report("disk");
    eprintln!("disk-bomb: {report}");
    assert_eq!(
        report["scratch"]["levels"], scratch,
        "the scratch tree was made whole: {report}"
    );
    assert_eq!(report["tmp"]["levels"], tmp, "{report}");
    let fill = &report["fill"];
    let error = fill["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("No space left on device"),
        "the quota stopped the writes with ENOSPC: {fill}"
    );
    let bytes = fill["bytes"].as_u64().unwrap();
    assert!(
        (32 << 20..=64 << 20).contains(&bytes),
        "stopped at the 64M quota: {bytes}"
    );
    assert_eq!(
        report["cgroups"],
        serde_json::json!([]),
        "no cgroup is in sight"
    );
    no_tree_left();
}

/// Nothing of a disk-bomb's trees is on the host: no scratch directory of any arbiter holds
/// one (the disk tests are serial, so no other disk-bomb runs meanwhile).
fn no_tree_left() {
    let deep = |dir: &std::path::Path| {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("zoo-deep"))
    };
    for root in std::fs::read_dir("/tmp").unwrap().flatten() {
        if !root.file_name().to_string_lossy().starts_with("rollarena-") {
            continue;
        }
        for seat in std::fs::read_dir(root.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            assert!(
                !deep(&seat.path()),
                "a tree was left in {}",
                seat.path().display()
            );
        }
    }
    assert!(
        !deep(std::path::Path::new("/tmp")),
        "a tree was left in /tmp"
    );
}

rows! {
    fills_its_disk_and_leaves_a_deep_tree: Row {
        issue: "fills its disk and leaves a tree 100,000 levels deep",
        zoo: "--behaviour disk-bomb --at 2",
        flags: &[
            "--disk", "64M", "--inodes", "150000", "--max-file-size", "256M", "--time", "60s",
        ],
        verdict: Clean,
        serial: true,
        check: bombed,
        ..Row::BASE
    };
    fills_its_disk_and_leaves_a_deep_tree_strict: Row {
        issue: "fills its disk and leaves a tree 100,000 levels deep",
        zoo: "--behaviour disk-bomb --at 2 --count 5000 --length 1000",
        flags: &[
            "--sandbox", "strict", "--disk", "64M", "--inodes", "150000", "--max-file-size",
            "256M", "--time", "60s",
        ],
        verdict: Clean,
        serial: true,
        check: bombed_strict,
        ..Row::BASE
    };
}

/// A tournament (`rollarena tournament`, two tables' worth of rounds at `basic`) where one bot
/// leaves deep trees and fills its disk every round: every round is played out with no
/// forfeit, each of its reports shows the quota's ENOSPC and no cgroup, and no scratch
/// directory of any arbiter is left holding its trees.
#[test]
fn a_tournament_plays_on_past_a_disk_bomb() {
    use crate::arbiter::{PYTHON, json_logs, rollarena, zoo_path};
    let _serial = crate::arbiter::timing_lock();
    let dir = tempfile::tempdir().unwrap();
    let zoo = zoo_path();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            r#"game = "rolit"
players = 2
rounds = 2
seed = 1
time = "60s"
output = "out"
[options]
size = 4
[sandbox]
level = "basic"
disk = "64M"
inodes = 150000
max_file_size = "256M"
[[bot]]
name = "bomb"
command = "{PYTHON} {zoo} --behaviour disk-bomb --at 2 --count 20000 --length 5000"
[[bot]]
name = "good"
command = "{PYTHON} {zoo}"
"#,
            zoo = zoo.display()
        ),
    )
    .unwrap();
    let out = std::process::Command::new(rollarena())
        .arg("tournament")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (rounds, _) =
        rollarena::record::read_records(&dir.path().join("out/results.jsonl")).unwrap();
    assert_eq!(rounds.len(), 2);
    for r in &rounds {
        assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);
        let reports: Vec<_> = (0..2).flat_map(|seat| json_logs(r, seat, "disk")).collect();
        assert_eq!(reports.len(), 1, "one disk report a round");
        let report = &reports[0]["disk"];
        eprintln!("tournament disk-bomb: {report}");
        assert_eq!(report["scratch"]["levels"], 20_000);
        assert!(
            report["fill"]["error"]
                .as_str()
                .unwrap()
                .contains("No space left on device"),
            "{report}"
        );
        assert_eq!(report["cgroups"], serde_json::json!([]));
    }
    no_tree_left();
}
