//! The bad uploads, through HTTP as `rollarena submit` and the form send them: each answered
//! with its status and a message that says what was wrong (and, for limits, which setting),
//! and nothing stored: no version, no directory.

use std::io::Write;

use super::{Arena, Server, Who, multipart, post};

/// A tar entry written by hand, so that the test can make what a careful tar refuses to.
struct Raw<'a> {
    name: &'a str,
    kind: tar::EntryType,
    data: &'a [u8],
    link: Option<&'a str>,
}

fn raw_tar_gz(entries: &[Raw]) -> Vec<u8> {
    let mut tar = Vec::new();
    for e in entries {
        let mut header = tar::Header::new_gnu();
        {
            let gnu = header.as_gnu_mut().unwrap();
            gnu.name[..e.name.len()].copy_from_slice(e.name.as_bytes());
            if let Some(link) = e.link {
                gnu.linkname[..link.len()].copy_from_slice(link.as_bytes());
            }
        }
        header.set_entry_type(e.kind);
        header.set_size(e.data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.extend_from_slice(header.as_bytes());
        tar.extend_from_slice(e.data);
        let pad = (512 - e.data.len() % 512) % 512;
        tar.extend(std::iter::repeat_n(0u8, pad));
    }
    tar.extend(std::iter::repeat_n(0u8, 1024));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&tar).unwrap();
    gz.finish().unwrap()
}

fn file<'a>(name: &'a str, data: &'a [u8]) -> Raw<'a> {
    Raw {
        name,
        kind: tar::EntryType::Regular,
        data,
        link: None,
    }
}

fn zip_with(name: &str, data: &[u8]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut out);
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(data).unwrap();
        zip.finish().unwrap();
    }
    out.into_inner()
}

/// (what, file name, bytes, language, status, words of the message)
type Case<'a> = (&'a str, &'a str, Vec<u8>, Option<&'a str>, u16, &'a str);

#[test]
fn every_bad_upload_is_refused_with_its_status_and_message_and_nothing_stored() {
    let arena = Arena::init(&[], "");
    let toml = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("max_bytes = \"10M\"", "max_bytes = \"64K\"")
        .replace("max_unpacked = \"100M\"", "max_unpacked = \"1M\"")
        .replace("max_files = 5000", "max_files = 50");
    std::fs::write(&toml, text).unwrap();
    let token = arena.team("a");
    let server = Server::start(&arena, 1);
    let url = format!("{}/api/submissions", server.url);

    let bot = b"print('hi')\n".to_vec();
    let zeros = vec![0u8; 2 << 20];
    let many: Vec<String> = (0..60).map(|i| format!("f{i}.py")).collect();
    let many_entries: Vec<Raw> = many.iter().map(|n| file(n, b"x")).collect();
    let mut too_big = b"# ".to_vec();
    too_big.extend(std::iter::repeat_n(b'x', 100 * 1024));
    let mut far_too_big = too_big.clone();
    far_too_big.extend(std::iter::repeat_n(b'x', 300 * 1024));

    let cases: Vec<Case> = vec![
        ("over max_bytes", "bot.py", too_big, None, 413, "max_bytes"),
        (
            "over the server's body limit",
            "bot.py",
            far_too_big,
            None,
            413,
            "max_bytes",
        ),
        (
            "not an archive",
            "bot.tar.gz",
            b"not gzip at all".to_vec(),
            None,
            400,
            "",
        ),
        (
            "a zip that is not one",
            "bot.zip",
            b"PK\x03\x04broken".to_vec(),
            None,
            400,
            "",
        ),
        (
            "an entry with ..",
            "bot.tar.gz",
            raw_tar_gz(&[file("bot.py", &bot), file("../evil.py", &bot)]),
            None,
            400,
            "..",
        ),
        (
            "an absolute path",
            "bot.tar.gz",
            raw_tar_gz(&[file("/tmp/evil.py", &bot)]),
            None,
            400,
            "/tmp/evil.py",
        ),
        (
            "a symlink",
            "bot.tar.gz",
            raw_tar_gz(&[
                file("bot.py", &bot),
                Raw {
                    name: "link",
                    kind: tar::EntryType::Symlink,
                    data: b"",
                    link: Some("/etc/shadow"),
                },
            ]),
            None,
            400,
            "symbolic link",
        ),
        (
            "a hard link",
            "bot.tar.gz",
            raw_tar_gz(&[
                file("bot.py", &bot),
                Raw {
                    name: "hard",
                    kind: tar::EntryType::Link,
                    data: b"",
                    link: Some("bot.py"),
                },
            ]),
            None,
            400,
            "link",
        ),
        (
            "a device file",
            "bot.tar.gz",
            raw_tar_gz(&[
                file("bot.py", &bot),
                Raw {
                    name: "dev",
                    kind: tar::EntryType::Char,
                    data: b"",
                    link: None,
                },
            ]),
            None,
            400,
            "device",
        ),
        (
            "an archive bomb",
            "bot.tar.gz",
            raw_tar_gz(&[file("bot.py", &bot), file("zeros", &zeros)]),
            None,
            400,
            "max_unpacked",
        ),
        (
            "too many files",
            "bot.tar.gz",
            raw_tar_gz(&many_entries),
            None,
            400,
            "max_files",
        ),
        (
            "a zip entry with ..",
            "bot.zip",
            zip_with("../evil.py", &bot),
            None,
            400,
            "..",
        ),
        (
            "an unknown language",
            "bot.py",
            bot.clone(),
            Some("cobol"),
            400,
            "cobol",
        ),
        (
            "a file no language takes",
            "bot.xyz",
            bot.clone(),
            None,
            400,
            "python",
        ),
        ("an empty file", "bot.py", Vec::new(), None, 400, "file"),
    ];
    let mut table = Vec::new();
    for (what, name, bytes, language, status, words) in &cases {
        let mut fields: Vec<(&str, Option<&str>, &[u8])> = vec![("file", Some(name), bytes)];
        if let Some(l) = language {
            fields.push(("language", None, l.as_bytes()));
        }
        let (ct, body) = multipart(&fields);
        let answer = post(&url, Who::Token(&token), &ct, &body);
        let message = answer.json()["error"].as_str().unwrap_or("").to_string();
        table.push(format!("{what}: {} {message}", answer.status));
        assert_eq!(answer.status, *status, "{what}: {}", answer.body);
        assert!(
            message.contains(words),
            "{what}: {message:?} does not say {words:?}"
        );
        assert!(
            message.len() > 30,
            "{what}: the message says too little: {message:?}"
        );
    }
    // Who may upload.
    let (ct, body) = multipart(&[("file", Some("bot.py"), &bot)]);
    for (what, who, status) in [
        ("no token", Who::Nobody, 401),
        ("a wrong token", Who::Token("team_00"), 401),
        ("the organiser's token", Who::Token(&arena.organiser), 403),
    ] {
        let answer = post(&url, who, &ct, &body);
        table.push(format!("{what}: {} {}", answer.status, answer.body));
        assert_eq!(answer.status, status, "{what}: {}", answer.body);
    }
    println!("{}", table.join("\n"));

    assert_eq!(
        arena.count("SELECT COUNT(*) FROM versions"),
        0,
        "nothing stored"
    );
    let left: Vec<_> = std::fs::read_dir(arena.dir().join("versions"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "files left behind: {left:?}");

    // And a good one still goes in.
    let answer = post(&url, Who::Token(&token), &ct, &body);
    assert_eq!(answer.status, 201, "{}", answer.body);
    assert_eq!(arena.count("SELECT COUNT(*) FROM versions"), 1);
}
