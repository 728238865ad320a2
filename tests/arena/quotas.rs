//! Builds that attack the disk (issue 40), as real processes in the sandbox: one leaves a
//! directory tree 3,000 levels deep (made by mkdir and chdir; its paths are far past PATH_MAX,
//! and a build runs under landlock, where each operation at depth d costs the kernel O(d): a
//! 100,000-level tree would take the build minutes, and end at `[build] time`), one tries to make 1,000,000
//! files, one writes four files of 300 MB. Each fails with the bound that stopped it named
//! (the kept tree's depth, the build's inodes, its disk), keeps its log and nothing of its
//! tree, leaves nothing in the run directories, and the next build (the Python kit) is built,
//! kept and checked as ever.

use std::path::Path;
use std::time::{Duration, Instant};

use rollarena::arena::rundir::Sandboxes;

use super::builds::{build_next, recipe, submit};
use super::{arena, state, team};

/// Bytes of the regular files under `dir` (the arena's own tree: shallow).
fn du(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let meta = e.path().symlink_metadata().unwrap();
            if meta.is_dir() {
                stack.push(e.path());
            } else {
                use std::os::unix::fs::MetadataExt;
                total += meta.blocks() * 512;
            }
        }
    }
    total
}

#[test]
fn builds_that_leave_deep_wide_or_huge_trees_fail_naming_the_bound_and_leave_nothing() {
    if !rollarena::sandbox::is_root() {
        eprintln!(
            "SKIP builds_that_leave_deep_wide_or_huge_trees...: the build's tmpfs quota \
             needs root"
        );
        return;
    }
    let (_tmp, arena) = arena("rolit", |c| {
        c.build.disk = 64 << 20;
        // Room for the whole deep tree, so that the kept tree's depth is what stops it.
        c.build.inodes = 200_000;
        c.build.max_file_size = 512 << 20;
        c.build.time = Duration::from_secs(120);
        c.recipes.push(recipe(
            "deep",
            "/usr/bin/python3 -c 'import os\nfor _ in range(3000):\n    os.mkdir(\"d\"); \
             os.chdir(\"d\")\nprint(\"deep: done\")'",
        ));
        c.recipes.push(recipe(
            "wide",
            "/usr/bin/python3 -c 'for i in range(1000000): open(str(i), \"w\").close()'",
        ));
        c.recipes.push(recipe(
            "huge",
            "for i in 1 2 3 4; do head -c 300M /dev/zero > f$i || exit 1; done",
        ));
    });
    let sandboxes = Sandboxes::new(&arena).unwrap();
    let team = team(&arena, "diggers");
    // Each built before the next is submitted: a team's newer upload supersedes its queued one.
    let mut versions = Vec::new();
    for name in ["deep", "wide", "huge"] {
        let v = submit(&arena, team, name, "bot.sh", b"exit 0\n");
        versions.push(v);
        let started = Instant::now();
        build_next(&arena, &sandboxes);
        let (s, why) = state(&arena, v);
        eprintln!(
            "{name}: {s} in {:.1} s: {why:?}",
            started.elapsed().as_secs_f64()
        );
        assert_eq!(s, "failed");
        let dir = arena.version_dir(v);
        assert!(!dir.join("build").exists(), "{name}: no tree is kept");
        assert!(dir.join("build.log").is_file(), "{name}: the log is kept");
    }
    let [deep, wide, huge] = versions[..] else {
        unreachable!("three versions")
    };
    let why = |v| state(&arena, v).1.unwrap();
    assert!(
        why(deep).contains("deeper than 128 levels"),
        "{}",
        why(deep)
    );
    let log = std::fs::read_to_string(arena.version_dir(deep).join("build.log")).unwrap();
    assert!(
        log.contains("deep: done"),
        "the build made its tree whole: {log}"
    );
    assert!(
        why(wide).contains("quota of 200000 files and directories ([build] inodes)"),
        "{}",
        why(wide)
    );
    assert!(
        why(huge).contains("disk quota of 64M ([build] disk)"),
        "{}",
        why(huge)
    );
    // The builder goes on as ever: a good bot is built, kept (root's, read-only for others)
    // and checked.
    let fine = submit(
        &arena,
        team,
        "python",
        "bot.py",
        &super::kit_file("python", "bot.py"),
    );
    build_next(&arena, &sandboxes);
    assert_eq!(state(&arena, fine), ("ready".to_string(), None));
    let kept = arena.version_dir(fine).join("build/bot.py");
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        super::kit_file("python", "bot.py")
    );
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(&kept).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (0, 0o644));
    // Nothing is left in the run directories (what was moved aside goes in the background).
    let run = arena.dir.join("run");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left: Vec<_> = std::fs::read_dir(&run).unwrap().flatten().collect();
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "left in run/: {left:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let used = du(&arena.dir);
    eprintln!(
        "the arena's directory after the three builds: {:.1} MiB",
        used as f64 / (1 << 20) as f64
    );
    assert!(used < 64 << 20, "within the 64M quota: {used} bytes");
}

/// An arena whose disk has no room for one more submission (a 64M tmpfs, where a submission
/// may take its upload, 100M unpacked and a 512M build) refuses an upload, saying the disk is
/// full, and stores nothing; its team and everything recorded stay as they were.
#[test]
fn a_full_disk_refuses_uploads_saying_so() {
    if !rollarena::sandbox::is_root() {
        eprintln!("SKIP a_full_disk_refuses_uploads_saying_so: mounting a small disk needs root");
        return;
    }
    let tmp = crate::check::shared_tempdir("arena-full-");
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    let target = c(tmp.path());
    // SAFETY: mount(2) with valid C strings.
    let mounted = unsafe {
        libc::mount(
            c"tmpfs".as_ptr(),
            target.as_ptr(),
            c"tmpfs".as_ptr(),
            0,
            c"size=64M,mode=0755".as_ptr().cast(),
        )
    };
    assert_eq!(mounted, 0, "{}", std::io::Error::last_os_error());
    struct Unmount(std::ffi::CString);
    impl Drop for Unmount {
        fn drop(&mut self) {
            // SAFETY: umount2 with a valid C string.
            unsafe { libc::umount2(self.0.as_ptr(), libc::MNT_DETACH) };
        }
    }
    let unmount = Unmount(target.clone());
    let (tmp, arena) = super::arena_in(tmp, "rolit", |_| {});
    let team = team(&arena, "late");
    let refused = rollarena::arena::submissions::accept(
        &arena,
        team,
        rollarena::arena::submissions::Upload {
            file_name: "bot.py".into(),
            bytes: super::kit_file("python", "bot.py"),
            language: None,
            label: None,
        },
    )
    .unwrap_err();
    eprintln!("full disk: {}", refused.message);
    assert!(
        refused.message.contains("the arena's disk is full"),
        "{refused}"
    );
    assert!(refused.disk_full);
    assert_eq!(
        std::fs::read_dir(arena.dir.join("versions"))
            .unwrap()
            .count(),
        0,
        "nothing stored"
    );
    let versions: i64 = arena
        .conn()
        .unwrap()
        .query_row("SELECT COUNT(*) FROM versions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(versions, 0);
    // The disk goes first, then its mount point.
    drop(arena);
    drop(unmount);
    drop(tmp);
}
