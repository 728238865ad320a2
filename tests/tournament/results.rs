//! `results.jsonl` read as a stream: complete tables in schedule order whatever the order of
//! the lines, each round once, a torn last line cut off the file, a bad line named.

use rollarena::tournament::results::{Tables, scan};

fn key(table: u32, round: u32) -> String {
    format!(
        "{{\"match\":\"m-{table}\",\"table\":{table},\"round\":{round},\"n\":\"{table}.{round}\"}}\n"
    )
}

/// A table whose match the rules ended early (robots: a player reached the tokens) is complete
/// with the rounds up to the one marked `ends_match`; a table without that mark is not.
#[test]
fn a_table_ended_by_the_rules_is_complete_before_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.jsonl");
    let ended = |t: u32, r: u32| {
        format!("{{\"match\":\"m-{t}\",\"table\":{t},\"round\":{r},\"ends_match\":true}}\n")
    };
    let text = key(1, 1) + &key(1, 2) + &ended(1, 3) + &key(2, 1) + &key(2, 2) + &key(3, 2);
    let text = text + &ended(3, 3);
    std::fs::write(&path, &text).unwrap();
    let s = scan(&path, 10, |_| Ok(())).unwrap();
    // Table 1 ended at round 3; table 2 is still playing; table 3 lacks its round 1.
    assert_eq!(s.complete.into_iter().collect::<Vec<_>>(), [(1, 3)]);
    assert_eq!(s.kept, 3);
    let s = scan(&path, 10, |_| Ok(())).unwrap();
    let mut tables = Tables::open(&path, s.complete).unwrap();
    let (table, lines) = tables.next_table().unwrap().unwrap();
    assert_eq!((table, lines.len()), (1, 3));
    assert!(tables.next_table().unwrap().is_none());
}

#[test]
fn complete_tables_come_in_schedule_order_once_each() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.jsonl");
    // Completion order, 2 rounds a table: table 3 finishes first, table 2 has a round twice
    // (the first is kept), table 4 never finished, and the last line is torn.
    let mut text = String::new();
    for (t, r) in [(3, 1), (2, 1), (3, 2), (1, 1), (4, 1)] {
        text += &key(t, r);
    }
    for (t, r) in [(2, 1), (1, 2), (2, 2)] {
        text += &key(t, r);
    }
    let whole = text.len() as u64;
    text += "{\"match\":\"m-4\",\"table\":4,\"ro";
    std::fs::write(&path, &text).unwrap();

    let mut seen = Vec::new();
    let s = scan(&path, 2, |k| {
        seen.push(k.match_id.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(s.complete.keys().copied().collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!((s.lines, s.kept), (8, 6));
    assert_eq!(seen.len(), 8);
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        whole,
        "the torn last line is cut off"
    );

    let mut tables = Tables::open(&path, s.complete).unwrap();
    let mut got = Vec::new();
    while let Some((table, lines)) = tables.next_table().unwrap() {
        let texts: Vec<String> = lines
            .iter()
            .map(|l| {
                let v: serde_json::Value =
                    serde_json::from_slice(&tables.read(l).unwrap()).unwrap();
                format!("{}@{}", v["n"].as_str().unwrap(), l.number)
            })
            .collect();
        got.push((table, texts));
    }
    assert_eq!(
        got,
        [
            (1, vec!["1.1@4".to_string(), "1.2@7".into()]),
            (2, vec!["2.1@2".to_string(), "2.2@8".into()]),
            (3, vec!["3.1@1".to_string(), "3.2@3".into()]),
        ]
    );
}

#[test]
fn a_line_that_is_not_a_round_is_named_and_another_tournament_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.jsonl");
    std::fs::write(&path, key(1, 1) + "{\"match\":\"m-1\"}\n" + &key(1, 2)).unwrap();
    let err = scan(&path, 2, |_| Ok(())).unwrap_err().to_string();
    assert!(err.contains("line 2 is damaged"), "{err}");
    // A torn line is one only at the end: in the middle it is damage, named with the way out.
    std::fs::write(&path, key(1, 1) + "{\"match\":\"m-9\",\"tab\n" + &key(1, 2)).unwrap();
    let err = scan(&path, 2, |_| Ok(())).unwrap_err().to_string();
    assert!(
        err.contains("line 2 is damaged")
            && err.contains("sed -i '2d'")
            && err.contains("--resume"),
        "{err}"
    );

    std::fs::write(&path, key(1, 1) + &key(1, 2)).unwrap();
    let err = scan(&path, 2, |k| {
        if k.match_id == "m-1" {
            Err(rollarena::TournamentError::Results("not ours".into()))
        } else {
            Ok(())
        }
    })
    .unwrap_err();
    assert_eq!(err.to_string(), "not ours");
    let missing = scan(&dir.path().join("none.jsonl"), 2, |_| Ok(())).unwrap();
    assert!(missing.complete.is_empty() && missing.lines == 0);
}
