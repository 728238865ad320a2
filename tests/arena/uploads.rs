//! The bad-upload table: every upload the arena must refuse, built as data (raw tar headers,
//! so that nothing a well-behaved archiver would refuse to write is out of reach), with the
//! refusal's message and kind expected, and the arena's directory and database unchanged;
//! and the arena's own failure to store an upload, refused as internal (HTTP 500).

use std::io::Write;

use rollarena::arena::submissions::{Upload, accept};

use super::{arena, kit_file, listing, team};

/// One raw tar entry: name, type flag, data, link target.
struct Raw<'a>(&'a str, u8, &'a [u8], &'a str);

/// A gzipped tar of raw ustar headers, written byte by byte.
fn tar_gz(entries: &[Raw]) -> Vec<u8> {
    let mut tar = Vec::new();
    for Raw(name, kind, data, link) in entries {
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name.as_bytes());
        h[100..107].copy_from_slice(b"0000644");
        h[108..115].copy_from_slice(b"0000000");
        h[116..123].copy_from_slice(b"0000000");
        let size = format!("{:011o}", data.len());
        h[124..135].copy_from_slice(size.as_bytes());
        h[136..147].copy_from_slice(b"00000000000");
        h[156] = *kind;
        h[157..157 + link.len()].copy_from_slice(link.as_bytes());
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| b as u32).sum();
        h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
        tar.extend_from_slice(&h);
        tar.extend_from_slice(data);
        tar.resize(tar.len().div_ceil(512) * 512, 0);
    }
    tar.resize(tar.len() + 1024, 0);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

/// A zip with one entry per (name, data); `symlink` adds a symbolic link entry.
fn zip(entries: &[(&str, &[u8])], symlink: Option<(&str, &str)>) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, data) in entries {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    if let Some((name, target)) = symlink {
        w.add_symlink(name, target, opts).unwrap();
    }
    w.finish().unwrap().into_inner()
}

struct Case {
    what: &'static str,
    file_name: &'static str,
    bytes: Vec<u8>,
    language: Option<&'static str>,
    /// What the refusal must say.
    says: &'static str,
    too_large: bool,
}

fn case(what: &'static str, file_name: &'static str, bytes: Vec<u8>, says: &'static str) -> Case {
    Case {
        what,
        file_name,
        bytes,
        language: None,
        says,
        too_large: false,
    }
}

#[test]
fn every_bad_upload_is_refused_with_its_reason_and_nothing_stored() {
    let (_tmp, arena) = arena("rolit", |c| {
        c.uploads.max_bytes = 256 << 10;
        c.uploads.max_unpacked = 1 << 20;
        c.uploads.max_files = 20;
    });
    let team = team(&arena, "alpha");
    let bot = kit_file("python", "bot.py");
    let many: Vec<String> = (0..30).map(|i| format!("f{i}.txt")).collect();
    let many_entries: Vec<Raw> = many.iter().map(|n| Raw(n, b'0', b"x", "")).collect();
    let zeros = vec![0u8; 4 << 20];
    let cases = vec![
        Case {
            too_large: true,
            ..case(
                "oversized",
                "bot.py",
                vec![b'#'; 300 << 10],
                "more than the arena takes",
            )
        },
        case("empty", "bot.py", Vec::new(), "the upload is empty"),
        case(
            "dot-dot in tar",
            "bot.tar.gz",
            tar_gz(&[
                Raw("bot.py", b'0', &bot, ""),
                Raw("../evil.py", b'0', b"x", ""),
            ]),
            "climbs out of the archive",
        ),
        case(
            "dot-dot inside a path",
            "bot.tar.gz",
            tar_gz(&[Raw("src/../../evil", b'0', b"x", "")]),
            "climbs out of the archive",
        ),
        case(
            "absolute path in tar",
            "bot.tar.gz",
            tar_gz(&[Raw("/etc/evil", b'0', b"x", "")]),
            "absolute path",
        ),
        case(
            "symlink in tar",
            "bot.tar.gz",
            tar_gz(&[Raw("bot.py", b'2', b"", "/etc/shadow")]),
            "is a symbolic link",
        ),
        case(
            "hard link in tar",
            "bot.tar.gz",
            tar_gz(&[Raw("bot.py", b'1', b"", "/etc/shadow")]),
            "is a hard link",
        ),
        case(
            "character device in tar",
            "bot.tar.gz",
            tar_gz(&[Raw("mem", b'3', b"", "")]),
            "is a device file",
        ),
        case(
            "block device in tar",
            "bot.tar.gz",
            tar_gz(&[Raw("sda", b'4', b"", "")]),
            "is a device file",
        ),
        case(
            "fifo in tar",
            "bot.tar.gz",
            tar_gz(&[Raw("pipe", b'6', b"", "")]),
            "named pipe",
        ),
        case(
            "gzip bomb",
            "bot.tar.gz",
            tar_gz(&[
                Raw("bot.py", b'0', &bot, ""),
                Raw("zeros", b'0', &zeros, ""),
            ]),
            "unpacks to more than 1M",
        ),
        case(
            "too many files",
            "bot.tar.gz",
            tar_gz(&many_entries),
            "more than 20 entries",
        ),
        case(
            "zip bomb",
            "bot.zip",
            zip(&[("bot.py", &bot), ("zeros", &zeros)], None),
            "unpacks to more than 1M",
        ),
        case(
            "dot-dot in zip",
            "bot.zip",
            zip(&[("bot.py", &bot), ("../../evil", b"x")], None),
            "climbs out of the archive",
        ),
        case(
            "absolute path in zip",
            "bot.zip",
            zip(&[("/tmp/evil", b"x")], None),
            "absolute path",
        ),
        case(
            "symlink in zip",
            "bot.zip",
            zip(&[("bot.py", &bot)], Some(("link", "/etc/shadow"))),
            "is a symbolic link",
        ),
        case(
            "not an archive",
            "bot.tar.gz",
            b"this is not gzip".to_vec(),
            "not a readable tar.gz archive",
        ),
        case(
            "damaged zip",
            "bot.zip",
            b"PK\x03\x04 and then nothing".to_vec(),
            "not a readable zip archive",
        ),
        case(
            "archive naming no language",
            "bot.tar.gz",
            tar_gz(&[Raw("README.txt", b'0', b"hi", "")]),
            "holds no file that names its language",
        ),
        case(
            "single file no language takes",
            "bot.txt",
            bot.clone(),
            "no language of the arena takes a single file named \"bot.txt\"",
        ),
        Case {
            language: Some("python"),
            ..case(
                "single file of another name",
                "bot.rb",
                bot.clone(),
                "must be named bot.py or end with .py",
            )
        },
        Case {
            language: Some("java"),
            ..case(
                "java file not named as its class",
                "Main.java",
                b"class Main {}".to_vec(),
                "must be named RolitBot.java",
            )
        },
        Case {
            language: Some("cobol"),
            ..case(
                "unknown language",
                "bot.py",
                bot.clone(),
                "the arena has no language \"cobol\"",
            )
        },
        Case {
            language: Some("c"),
            ..case(
                "archive without the language's main",
                "bot.tar.gz",
                tar_gz(&[Raw("bot.py", b'0', &bot, "")]),
                "must hold bot.c at its top",
            )
        },
    ];
    let before = listing(&arena.dir);
    let versions = |a: &rollarena::arena::Arena| -> i64 {
        a.conn()
            .unwrap()
            .query_row("SELECT COUNT(*) FROM versions", [], |r| r.get(0))
            .unwrap()
    };
    let mut tried = Vec::new();
    for c in cases {
        let got = accept(
            &arena,
            team,
            Upload {
                file_name: c.file_name.into(),
                bytes: c.bytes,
                language: c.language.map(String::from),
                label: None,
            },
        );
        let refusal = match got {
            Err(r) => r,
            Ok(id) => panic!("{}: accepted as version {id}", c.what),
        };
        assert!(
            refusal.message.contains(c.says),
            "{}: the refusal says {:?}, not {:?}",
            c.what,
            refusal.message,
            c.says
        );
        assert_eq!(refusal.too_large, c.too_large, "{}", c.what);
        assert!(
            !refusal.internal,
            "{}: a bad upload is not the arena's failure",
            c.what
        );
        let after: Vec<_> = listing(&arena.dir)
            .into_iter()
            .filter(|p| !p.to_string_lossy().contains("arena.db-"))
            .collect();
        let before: Vec<_> = before
            .iter()
            .filter(|p| !p.to_string_lossy().contains("arena.db-"))
            .cloned()
            .collect();
        assert_eq!(after, before, "{}: the arena's files changed", c.what);
        assert_eq!(versions(&arena), 0, "{}: a version was stored", c.what);
        tried.push(format!("{}: {}", c.what, refusal.message));
    }
    eprintln!("bad uploads tried:\n  {}", tried.join("\n  "));

    // The same bot, well packed, is taken: as one file, and as an archive of its folder.
    let one = accept(
        &arena,
        team,
        Upload {
            file_name: "my_bot.py".into(),
            bytes: bot.clone(),
            language: None,
            label: Some("first".into()),
        },
    )
    .unwrap();
    let packed = accept(
        &arena,
        team,
        Upload {
            file_name: "bot.tar.gz".into(),
            bytes: tar_gz(&[
                Raw("mybot/", b'5', b"", ""),
                Raw("mybot/bot.py", b'0', &bot, ""),
                Raw("mybot/lib/util.py", b'0', b"x = 1\n", ""),
            ]),
            language: None,
            label: None,
        },
    )
    .unwrap();
    for id in [one, packed] {
        let source = arena.version_dir(id).join("source");
        assert_eq!(std::fs::read(source.join("bot.py")).unwrap(), bot);
    }
    // The team's newer upload supersedes its queued one: only the newest waits to be built.
    let (state, why) = super::state(&arena, one);
    assert_eq!(state, "superseded");
    assert!(
        why.unwrap()
            .starts_with(&format!("superseded by version {packed}"))
    );
    assert_eq!(super::state(&arena, packed).0, "queued");
    assert!(
        arena
            .version_dir(packed)
            .join("source/lib/util.py")
            .is_file()
    );
    assert_eq!(versions(&arena), 2);
}

/// The arena failing to store an upload (here its `versions/` is not a directory, as a broken
/// disk would leave it) is an internal refusal (HTTP 500) that says so, not a bad upload; the
/// same upload is taken once the arena is repaired.
#[test]
fn the_arenas_own_failure_is_internal_not_a_bad_upload() {
    let (_tmp, arena) = arena("rolit", |_| {});
    let team = team(&arena, "unlucky");
    let versions = arena.dir.join("versions");
    std::fs::remove_dir(&versions).unwrap();
    std::fs::write(&versions, "not a directory").unwrap();
    let upload = Upload {
        file_name: "bot.py".into(),
        bytes: kit_file("python", "bot.py"),
        language: None,
        label: None,
    };
    let refusal = accept(&arena, team, upload.clone()).unwrap_err();
    assert!(refusal.internal && !refusal.too_large, "{refusal:?}");
    assert!(
        refusal
            .message
            .contains("the arena could not store the upload")
            && refusal.message.contains("nothing was stored"),
        "{}",
        refusal.message
    );
    assert_eq!(versions_count(&arena), 0);
    std::fs::remove_file(&versions).unwrap();
    std::fs::create_dir(&versions).unwrap();
    accept(&arena, team, upload).unwrap();
    assert_eq!(versions_count(&arena), 1);
}

fn versions_count(arena: &rollarena::arena::Arena) -> i64 {
    arena
        .conn()
        .unwrap()
        .query_row("SELECT COUNT(*) FROM versions", [], |r| r.get(0))
        .unwrap()
}
