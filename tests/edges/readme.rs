//! The smallest useful bot of the book's "Writing a bot" (`docs/writing-a-bot.md`), taken from
//! the chapter itself, passes `check`.

use super::{PYTHON, shared_dir, stdout};

/// The chapter's block of Python after "The smallest useful bot".
pub fn smallest_bot() -> String {
    let readme = include_str!("../../docs/writing-a-bot.md");
    let from = readme
        .find("The smallest useful bot")
        .expect("docs/writing-a-bot.md shows the smallest bot");
    let block = &readme[from..];
    let start = block.find("```python\n").expect("a python block") + "```python\n".len();
    let end = block[start..].find("```").expect("the block ends");
    block[start..start + end].to_string()
}

/// Before: the bot ignored `illegal`, so `check`'s refused move became a timeout forfeit.
#[test]
fn the_smallest_useful_bot_passes_check() {
    let dir = shared_dir();
    let bot = dir.path().join("first.py");
    std::fs::write(&bot, smallest_bot()).unwrap();
    let command = format!("{PYTHON} {}", bot.display());
    let (code, report, out) = crate::check::check(&command, &["--startup", "5s", "--time", "5s"]);
    assert_eq!(
        code,
        0,
        "the book's smallest bot fails check:\n{}\n{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(report["passed"], true, "{report}");
}
