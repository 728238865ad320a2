//! Knockout brackets as data: byes, re-seeded phases, tie rules, single and double
//! elimination and tables of four driven by scripted tie results; then the real binary: a
//! knockout event whose bracket is printed, written and verified.

use std::collections::BTreeMap;

use rollarena::tournament::knockout::{
    Bracket, Elimination, Format, TieResult, Tiebreak, bracket, first_byes, max_tables,
};

use super::{assert_ok, rollarena, s};

fn format(elimination: Elimination, players: usize, advance: usize) -> Format {
    Format {
        elimination,
        players,
        advance,
        tiebreak: Tiebreak::Points,
    }
}

/// Plays a bracket out: each tie goes to the bot `winner` picks among its bots (a full win),
/// the others score nothing; returns the bracket once no tie is left to play.
fn play_out(f: &Format, seeds: &[usize], winner: impl Fn(&[usize]) -> usize) -> Bracket {
    let mut results: BTreeMap<u32, TieResult> = BTreeMap::new();
    loop {
        let b = bracket(f, seeds, &results);
        let todo: Vec<_> = b
            .phases
            .iter()
            .flat_map(|p| &p.ties)
            .filter(|t| t.result.is_none())
            .cloned()
            .collect();
        if todo.is_empty() {
            return b;
        }
        for tie in todo {
            let w = winner(&tie.bots);
            let rows = tie
                .bots
                .iter()
                .map(|&bot| (bot, if bot == w { 2.0 } else { 0.0 }, 10))
                .collect();
            results.insert(tie.table, rows);
        }
    }
}

fn tables(b: &Bracket) -> Vec<(String, Vec<Vec<usize>>, Vec<usize>)> {
    b.phases
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                p.ties.iter().map(|t| t.bots.clone()).collect(),
                p.byes.clone(),
            )
        })
        .collect()
}

#[test]
fn byes_bring_any_field_down_to_one_final_table() {
    assert_eq!(first_byes(8, 2, 1).ok(), Some(0));
    assert_eq!(
        first_byes(5, 2, 1).ok(),
        Some(3),
        "padded to 8: the top 3 seeds wait"
    );
    assert_eq!(first_byes(3, 2, 1).ok(), Some(1));
    assert_eq!(
        first_byes(6, 4, 2).ok(),
        Some(2),
        "one table of 4, two byes: a final of 4"
    );
    assert_eq!(first_byes(16, 4, 1).ok(), Some(0));
    let e = first_byes(5, 4, 2).unwrap_err().to_string();
    assert!(e.contains("fields that work are 4, 6, 8"), "{e}");
    assert!(
        first_byes(3, 4, 1)
            .unwrap_err()
            .to_string()
            .contains("at least 4 bots")
    );
    assert!(
        first_byes(8, 4, 3)
            .unwrap_err()
            .to_string()
            .contains("advance = 3")
    );
    assert_eq!(
        max_tables(&format(Elimination::Single, 2, 1), 5).ok(),
        Some(4)
    );
    assert_eq!(
        max_tables(&format(Elimination::Single, 4, 2), 8).ok(),
        Some(3)
    );
    assert!(max_tables(&format(Elimination::Double, 4, 1), 8).is_err());
}

#[test]
fn single_elimination_reseeds_every_phase_and_the_favourites_meet_last() {
    let f = format(Elimination::Single, 2, 1);
    // Seeds: bot 4 first, then 3, 2, 1, 0. The better seed wins every tie.
    let seeds = [4, 3, 2, 1, 0];
    let b = play_out(&f, &seeds, |bots| {
        *bots
            .iter()
            .min_by_key(|&&x| seeds.iter().position(|&s| s == x))
            .unwrap()
    });
    assert_eq!(
        tables(&b),
        [
            ("round 1".to_string(), vec![vec![1, 0]], vec![4, 3, 2]),
            (
                "semi-finals".to_string(),
                vec![vec![4, 1], vec![3, 2]],
                vec![]
            ),
            ("final".to_string(), vec![vec![4, 3]], vec![]),
        ]
    );
    assert_eq!(b.champion, Some(4));
    assert_eq!(
        b.places.into_iter().collect::<Vec<_>>(),
        [(0, 5), (1, 3), (2, 3), (3, 2), (4, 1)]
    );
    let numbers: Vec<u32> = b
        .phases
        .iter()
        .flat_map(|p| &p.ties)
        .map(|t| t.table)
        .collect();
    assert_eq!(
        numbers,
        [1, 2, 3, 4],
        "numbered in the order they are played"
    );
}

#[test]
fn a_tie_level_on_wins_goes_to_points_then_to_the_better_seed() {
    let seeds = [0, 1];
    let tie =
        |wa: f64, pa: u64, wb: f64, pb: u64| BTreeMap::from([(1, vec![(0, wa, pa), (1, wb, pb)])]);
    let points = format(Elimination::Single, 2, 1);
    let by_seed = Format {
        tiebreak: Tiebreak::Seed,
        ..points.clone()
    };
    assert_eq!(
        bracket(&points, &seeds, &tie(1.0, 20, 1.0, 30)).champion,
        Some(1)
    );
    assert_eq!(
        bracket(&by_seed, &seeds, &tie(1.0, 20, 1.0, 30)).champion,
        Some(0)
    );
    assert_eq!(
        bracket(&points, &seeds, &tie(1.0, 30, 1.0, 30)).champion,
        Some(0)
    );
    assert_eq!(
        bracket(&points, &seeds, &tie(0.5, 90, 1.5, 10)).champion,
        Some(1)
    );
    // Unplayed: the final is listed, nobody has won.
    let open = bracket(&points, &seeds, &BTreeMap::new());
    assert_eq!(open.champion, None);
    assert_eq!(open.phases.len(), 1);
}

#[test]
fn double_elimination_takes_two_losses_and_resets_the_grand_final() {
    let f = format(Elimination::Double, 2, 1);
    let seeds = [0, 1, 2, 3];
    // The better seed wins, except that bot 1 beats bot 0 whenever they meet.
    let b = play_out(&f, &seeds, |bots| {
        if bots.contains(&0) && bots.contains(&1) {
            1
        } else {
            *bots.iter().min().unwrap()
        }
    });
    let names: Vec<String> = b.phases.iter().map(|p| p.name.clone()).collect();
    assert_eq!(
        names,
        [
            "winners' round 1",
            "losers' round 1",
            "winners' round 2",
            "losers' round 2",
            "grand final"
        ]
    );
    // 0 beat 3, 1 beat 2; 2 beat 3 (out); 1 beat 0 in the winners' final; 0 beat 2 (out);
    // the grand final 1 against 0: 1 wins, unbeaten.
    assert_eq!(b.champion, Some(1));
    assert_eq!(b.places.get(&0), Some(&2));
    assert_eq!(b.places.get(&3), Some(&4));

    // 0 beats 1 in the winners' final: 1 drops, wins the losers' side, and loses the grand
    // final, its second loss.
    let b = play_out(&f, &seeds, |bots| *bots.iter().min().unwrap());
    assert_eq!(b.champion, Some(0));
    assert_eq!(b.phases.last().unwrap().name, "grand final");
    // 1 takes the winners' final, 0 comes back through the losers' side and wins the grand
    // final, 1's first loss: the reset decides.
    let flip = std::cell::Cell::new(0);
    let b = play_out(&f, &seeds, |bots| {
        if bots.contains(&0) && bots.contains(&1) {
            // Winners' final to 1, grand final to 0, reset to 0.
            flip.set(flip.get() + 1);
            if flip.get() == 1 { 1 } else { 0 }
        } else {
            *bots.iter().min().unwrap()
        }
    });
    let last: Vec<&str> = b
        .phases
        .iter()
        .rev()
        .take(2)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(last, ["grand final, reset", "grand final"]);
    assert_eq!(b.champion, Some(0));
    assert_eq!(b.places.get(&1), Some(&2));
    let played = b.phases.iter().map(|p| p.ties.len()).sum::<usize>() as u32;
    assert!(played <= max_tables(&f, 4).unwrap());
    assert_eq!(played, 7, "2(n - 1) ties, and the reset");
}

#[test]
fn tables_of_four_send_their_top_two_through() {
    let f = format(Elimination::Single, 4, 2);
    let seeds = [0, 1, 2, 3, 4, 5];
    // The lowest bot number finishes first, the next second, ...
    let mut results = BTreeMap::new();
    let b = bracket(&f, &seeds, &results);
    assert_eq!(
        tables(&b),
        [("round 1".to_string(), vec![vec![2, 3, 4, 5]], vec![0, 1])]
    );
    results.insert(
        1,
        vec![(2, 0.0, 10), (3, 1.0, 10), (4, 3.0, 10), (5, 0.0, 30)],
    );
    let b = bracket(&f, &seeds, &results);
    // 4 (3 wins) and 3 (1 win) go through; 5 beat 2 on points but both are out.
    assert_eq!(
        tables(&b)[1],
        ("final".to_string(), vec![vec![0, 1, 3, 4]], vec![])
    );
    assert_eq!(b.places.get(&2), Some(&5));
    results.insert(2, vec![(0, 0.0, 0), (1, 1.0, 0), (3, 2.0, 0), (4, 1.0, 5)]);
    let b = bracket(&f, &seeds, &results);
    assert_eq!(b.champion, Some(3));
    assert_eq!(
        (b.places[&3], b.places[&4], b.places[&1], b.places[&0]),
        (1, 2, 3, 4)
    );
}

#[test]
fn a_knockout_event_draws_its_bracket() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cup.toml");
    std::fs::write(
        &file,
        r#"name = "cup"
schedule = "knockout"
elimination = "double"
seeding = "rating"
players = 2
rounds = 2
seed = 4
[options]
size = 6
[[bot]]
name = "random"
command = "rollarena bot random --seed 1"
rating = 900
[[bot]]
name = "positional-d2"
command = "rollarena bot positional --depth 2"
rating = 2000
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
rating = 1500
"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = rollarena(&["tournament", s(&file), "-o", s(&out)]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("bracket:\nwinners' round 1\n  bye       > positional-d2 (1)"),
        "{stdout}"
    );
    assert!(stdout.contains("champion: "), "{stdout}");
    let drawn = std::fs::read_to_string(out.join("bracket.txt")).unwrap();
    assert!(stdout.contains(&drawn));
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("bracket.json")).unwrap()).unwrap();
    assert_eq!(
        data["seeds"],
        serde_json::json!([1, 2, 0]),
        "seeded by rating"
    );
    assert!(data["bracket"]["champion"].is_u64());
    let report = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(report.contains("winners' round 1") || report.contains("winners\\u0027 round 1"));
    let verify = rollarena(&["replay", "--verify", s(&out.join("results.jsonl"))]);
    assert!(verify.status.success());

    // A field no bracket fits is refused before anything is played.
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        r#"schedule = "knockout"
players = 4
advance = 2
[[bot]]
name = "a"
command = "rollarena bot random"
[[bot]]
name = "b"
command = "rollarena bot random"
[[bot]]
name = "c"
command = "rollarena bot random"
[[bot]]
name = "d"
command = "rollarena bot random"
[[bot]]
name = "e"
command = "rollarena bot random"
"#,
    )
    .unwrap();
    let refused = rollarena(&["tournament", s(&bad), "-o", s(&dir.path().join("x"))]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("fields that work are 4, 6, 8"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

#[test]
fn a_knockout_killed_mid_bracket_resumes_into_the_same_bracket() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cup.toml");
    std::fs::write(
        &file,
        r#"name = "long cup"
schedule = "knockout"
players = 2
rounds = 60
seed = 9
opening_plies = 2
[options]
size = 6
[[bot]]
name = "positional-d2"
command = "rollarena bot positional --depth 2"
[[bot]]
name = "positional"
command = "rollarena bot positional"
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
[[bot]]
name = "noisy"
command = "rollarena bot greedy --noise 0.4 --seed 5"
"#,
    )
    .unwrap();
    let (out, reference) = (dir.path().join("out"), dir.path().join("ref"));
    assert_ok(
        &rollarena(&["tournament", s(&file), "-o", s(&reference), "--jobs", "1"]),
        "the uninterrupted knockout",
    );
    let results = out.join("results.jsonl");
    let mut child = std::process::Command::new(crate::arbiter::rollarena())
        .args(["tournament", s(&file), "-o", s(&out), "--jobs", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed inside the second semi-final (table 2 of 3 tables of 60 rounds).
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&results).map_or(0, |t| t.lines().count()) < 80 {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "no progress"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before it was killed"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept = std::fs::read_to_string(&results).unwrap().lines().count();
    assert!(kept < 180, "killed before the final ended ({kept} rounds)");
    let resumed = rollarena(&["tournament", s(&file), "-o", s(&out), "--resume"]);
    assert_ok(&resumed, "--resume");
    let bracket = |d: &std::path::Path| std::fs::read_to_string(d.join("bracket.txt")).unwrap();
    assert_eq!(bracket(&out), bracket(&reference));
    assert!(
        super::comparable_results(&out) == super::comparable_results(&reference),
        "the resumed knockout's rounds differ from an uninterrupted one"
    );
}
