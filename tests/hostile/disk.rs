//! A seat's disk (issue 40): a bot that leaves a directory tree 100,000 levels deep in its
//! scratch directory and another in /tmp, fills /tmp until the kernel refuses (ENOSPC, its
//! quota: `--disk`), and lists `/sys/fs/cgroup` for the names of other seats' cgroups, plays
//! on. Its match goes on, the record is clean, it saw no cgroup, and nothing of its trees is
//! left on the host: its scratch directory and private directories were one tmpfs of its own,
//! gone with its world.

use super::{Outcome, Row, Verdict::Clean};

/// The disk-bomb's report, checked.
fn bombed(o: &Outcome) {
    let report = o.report("disk");
    eprintln!("disk-bomb: {report}");
    assert_eq!(
        report["scratch"]["levels"], 100_000,
        "the scratch tree was made whole: {report}"
    );
    assert_eq!(report["tmp"]["levels"], 20_000, "{report}");
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
        flags: &["--disk", "64M", "--inodes", "150000", "--time", "60s"],
        verdict: Clean,
        serial: true,
        check: bombed,
        ..Row::BASE
    };
    fills_its_disk_and_leaves_a_deep_tree_strict: Row {
        issue: "fills its disk and leaves a tree 100,000 levels deep",
        zoo: "--behaviour disk-bomb --at 2",
        flags: &["--sandbox", "strict", "--disk", "64M", "--inodes", "150000", "--time", "60s"],
        verdict: Clean,
        serial: true,
        check: bombed,
        ..Row::BASE
    };
}
