use super::*;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

/// Makes a chain of `levels` directories named `d` under `root`, on descriptors (the path
/// is far past PATH_MAX), with a file at the bottom.
fn deep(root: &Path, levels: usize) {
    let mut cur = open_path(root).unwrap();
    for _ in 0..levels {
        cvt(unsafe { libc::mkdirat(cur.as_raw_fd(), c"d".as_ptr(), 0o755) }).unwrap();
        cur = open_dir_at(cur.as_fd(), c"d").unwrap();
    }
    open_at(
        cur.as_fd(),
        c"bottom",
        libc::O_WRONLY | libc::O_CREAT,
        0o644,
    )
    .unwrap();
}

/// Runs `f` on a thread with a small stack: a walk that recursed per level would overflow it.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 10)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn a_tree_100000_levels_deep_is_removed_without_recursion() {
    // On a tmpfs where there is one: the kernel's work per level is then the least.
    let tmp = tempfile::tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .unwrap();
    let top = tmp.path().join("tree");
    std::fs::create_dir(&top).unwrap();
    deep(&top, 100_000);
    let path = top.clone();
    on_small_stack(move || remove_all(&path)).unwrap();
    assert!(!top.exists());
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn a_wide_tree_with_locked_directories_is_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("tree");
    for i in 0..50 {
        let dir = top.join(format!("{i}/a/b"));
        std::fs::create_dir_all(&dir).unwrap();
        for j in 0..200 {
            std::fs::write(dir.join(j.to_string()), "x").unwrap();
        }
        std::os::unix::fs::symlink("/etc", top.join(format!("{i}/link"))).unwrap();
    }
    std::fs::set_permissions(top.join("3/a"), std::fs::Permissions::from_mode(0o000)).unwrap();
    remove_all(&top).unwrap();
    assert!(!top.exists());
    assert!(Path::new("/etc/hostname").exists() || Path::new("/etc/passwd").exists());
    remove_all(&top).unwrap();
}

#[test]
fn walks_stop_at_their_bounds_and_say_which() {
    let tmp = tempfile::tempdir().unwrap();
    let top = tmp.path().join("tree");
    std::fs::create_dir(&top).unwrap();
    deep(&top, 1_000);
    let path = top.clone();
    let e = on_small_stack(move || {
        walk(&path, Bounds::new(1 << 20, 1 << 30), (), |_, _| {
            Ok(Some(()))
        })
    })
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::Bound {
                what: "depth",
                limit: 128,
                ..
            }
        ),
        "{e}"
    );
    let said = e.to_string();
    assert!(said.contains("deeper than 128 levels"), "{said}");
    assert!(said.len() < 300, "the path is cut short: {said}");
    remove_all(&top).unwrap();

    std::fs::create_dir(&top).unwrap();
    for i in 0..100 {
        std::fs::write(top.join(i.to_string()), vec![0u8; 1000]).unwrap();
    }
    let e = walk(&top, Bounds::new(50, 1 << 30), (), |_, _| Ok(None)).unwrap_err();
    assert!(
        e.to_string().contains("more than 50 files and directories"),
        "{e}"
    );
    let e = walk(&top, Bounds::new(1000, 10_000), (), |_, _| Ok(None)).unwrap_err();
    assert!(e.to_string().contains("hold more than 10000 bytes"), "{e}");
    let totals = walk(&top, Bounds::new(100, 100_000), (), |_, _| Ok(None)).unwrap();
    assert_eq!(
        totals,
        Totals {
            entries: 100,
            bytes: 100_000
        }
    );
}

#[test]
fn walks_go_in_name_order() {
    let tmp = tempfile::tempdir().unwrap();
    for p in ["b/z", "b/a", "a", "c/d/e"] {
        std::fs::create_dir_all(tmp.path().join(p)).unwrap();
    }
    let mut seen = Vec::new();
    walk(tmp.path(), Bounds::new(100, 100), (), |_, e| {
        seen.push(e.rel.display().to_string());
        Ok((e.kind == Kind::Dir).then_some(()))
    })
    .unwrap();
    assert_eq!(seen, ["a", "b", "b/a", "b/z", "c", "c/d", "c/d/e"]);
}

#[test]
fn a_copy_keeps_files_modes_and_links_but_no_foreign_hard_link() {
    let tmp = tempfile::tempdir().unwrap();
    let from = tmp.path().join("from");
    std::fs::create_dir_all(from.join("lib")).unwrap();
    std::fs::write(from.join("bot.py"), "print('hi')").unwrap();
    std::fs::write(from.join("lib/run"), "#!/bin/sh").unwrap();
    std::fs::set_permissions(
        from.join("lib/run"),
        std::fs::Permissions::from_mode(0o4777),
    )
    .unwrap();
    std::os::unix::fs::symlink("lib/run", from.join("start")).unwrap();
    std::fs::write(tmp.path().join("outside"), "secret").unwrap();
    std::fs::hard_link(tmp.path().join("outside"), from.join("linked")).unwrap();
    let to = tmp.path().join("to");
    let totals = copy(&from, &to, Bounds::new(100, 1000), false).unwrap();
    assert_eq!(totals.entries, 5);
    let mode = |p: &Path| std::fs::symlink_metadata(p).unwrap().mode() & 0o7777;
    assert_eq!(mode(&to.join("lib/run")), 0o755, "executable, not setuid");
    assert_eq!(mode(&to.join("bot.py")), 0o644);
    assert_eq!(mode(&to.join("lib")), 0o755);
    assert_eq!(
        std::fs::read_link(to.join("start")).unwrap(),
        Path::new("lib/run")
    );
    assert!(!to.join("linked").exists(), "a hard link is left out");
    let to2 = tmp.path().join("to2");
    copy(&from, &to2, Bounds::new(100, 1000), true).unwrap();
    assert_eq!(
        std::fs::read_to_string(to2.join("linked")).unwrap(),
        "secret"
    );
    let e = copy(&from, &tmp.path().join("to3"), Bounds::new(100, 10), true).unwrap_err();
    assert!(matches!(e, Error::Bound { what: "bytes", .. }), "{e}");
}

#[test]
fn sealing_removes_hard_links_and_setuid() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("build");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/x"), "x").unwrap();
    std::fs::set_permissions(dir.join("sub/x"), std::fs::Permissions::from_mode(0o6755)).unwrap();
    std::fs::set_permissions(dir.join("sub"), std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::write(tmp.path().join("outside"), "o").unwrap();
    std::fs::hard_link(tmp.path().join("outside"), dir.join("h")).unwrap();
    seal(&dir, Bounds::new(10, 100)).unwrap();
    let mode = |p: &Path| std::fs::symlink_metadata(p).unwrap().mode() & 0o7777;
    assert_eq!(mode(&dir.join("sub/x")), 0o755);
    assert_eq!(mode(&dir.join("sub")), 0o755);
    assert!(!dir.join("h").exists());
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("outside")).unwrap(),
        "o"
    );
}

#[test]
fn a_discarded_tree_is_gone_from_its_place_at_once_and_from_the_trash_soon() {
    let tmp = tempfile::tempdir().unwrap();
    let (trash, top) = (tmp.path().join("trash"), tmp.path().join("tree"));
    std::fs::create_dir_all(&trash).unwrap();
    std::fs::create_dir(&top).unwrap();
    deep(&top, 2_000);
    discard(&top, &trash);
    assert!(!top.exists(), "moved aside at once");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_dir(&trash).unwrap().count() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the trash is never emptied"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    discard(&top, &trash);
}
