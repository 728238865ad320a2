//! `check` judges as the referee does, and never says more than it saw: no flush hint when a
//! line arrived, no "in time" when an answer was late.

use std::path::Path;

use super::{PYTHON, shared_dir};

/// A broken bot of tests/bots/broken/, with its helper, where the bot user can read it.
fn broken(dir: &Path, name: &str) -> String {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/broken");
    for file in [name, "common.py"] {
        std::fs::copy(source.join(file), dir.join(file)).unwrap();
    }
    format!("{PYTHON} {}", dir.join(name).display())
}

fn item<'r>(report: &'r serde_json::Value, id: &str) -> &'r serde_json::Value {
    report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item"] == id)
        .unwrap_or_else(|| panic!("no item {id} in {report}"))
}

/// Before: `turn` failed with "nothing arrived ... Did you flush?" though the transcript showed
/// the bot's line, which a match refuses with `the object has no "type" field`.
#[test]
fn a_move_without_its_type_is_judged_as_the_referee_judges_it() {
    let dir = shared_dir();
    let bot = broken(dir.path(), "move_without_type.py");
    let (code, report, _) = crate::check::check(&bot, &["--startup", "3s", "--time", "1s"]);
    assert_eq!(code, 1, "{report}");
    let turn = item(&report, "turn");
    assert_eq!(turn["status"], "fail", "{turn}");
    assert_eq!(turn["problem"]["cause"], "bad_message", "{turn}");
    let what = turn["problem"]["what"].as_str().unwrap();
    assert!(what.contains("the object has no \"type\" field"), "{what}");
    assert!(
        !report.to_string().contains("Did you flush?"),
        "no flush hint when a line arrived: {report}"
    );
    assert_ne!(item(&report, "flush")["status"], "fail", "{report}");
}

/// Before: the `flush` item passed with "every answer arrived in time as a whole line" in the
/// run where `turn` failed for a move 2 s late.
#[test]
fn the_flush_item_does_not_claim_a_late_answer_was_in_time() {
    let dir = shared_dir();
    let bot = broken(dir.path(), "slow_move.py");
    let (_, report, _) = crate::check::check(&bot, &["--startup", "3s", "--time", "1s"]);
    assert_eq!(item(&report, "turn")["status"], "fail", "{report}");
    let flush = item(&report, "flush");
    let detail = flush["detail"].as_str().unwrap();
    assert!(!detail.contains("in time"), "{detail}");
    assert!(detail.contains("see turn"), "{detail}");
}
