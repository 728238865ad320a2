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
    // Nothing of the trees is on the host: no scratch directory of any arbiter holds one
    // (the rows are serial, so no other disk-bomb runs meanwhile).
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
                !seat.path().join("zoo-deep").exists(),
                "a tree was left at {}",
                seat.path().display()
            );
        }
    }
    assert!(!std::path::Path::new("/tmp/zoo-deep").exists());
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
