//! Seat names: what the table, the record, the standings and the viewer call each seat.
//!
//! A name the organiser gave (`--names`, a tournament's `[[bot]] name`) is kept as given.
//! Otherwise a seat is first named after its command ([`default_name`]: a built-in bot by its
//! name and options, a script by its file name), which is what `hello.seats` carries, since
//! `hello` goes out before any bot has said who it is. Once the first round's `ready` messages
//! are in, [`after_ready`] names every such seat after its bot's own `ready` name (a built-in
//! bot run through this binary keeps its command's name, which holds its options as well),
//! keeps the command's name for seats whose bots gave the same one, and numbers (`name#2`)
//! only what is still equal. Names are unique within a match.

use super::bot::BotSpec;

/// Longest name taken from a `ready` message, in characters.
const READY_NAME_MAX: usize = 40;

/// A seat's name from its command: a built-in bot's name and options, else the program or
/// script name.
pub fn default_name(argv: &[String]) -> String {
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    // A built-in bot, however this binary is named on its command line.
    if built_in(argv) {
        return argv[2..].join(" ").replace("--", "");
    }
    let interpreters = [
        "python3", "python", "node", "java", "sh", "bash", "ruby", "perl",
    ];
    let program = base(&argv[0]);
    match argv.get(1) {
        Some(arg) if interpreters.contains(&program.as_str()) && !arg.starts_with('-') => base(arg),
        _ => program,
    }
}

/// The command runs a built-in bot through this binary (`.../rollarena bot NAME ...`): its
/// command's name (the bot's name and options) says more than its `ready` name.
fn built_in(argv: &[String]) -> bool {
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    argv.len() >= 3 && base(&argv[0]) == "rollarena" && argv[1] == "bot"
}

/// The file a seat's stderr goes to under `--bot-logs`: `seat-<SEAT>-<name>.log`, the name as
/// the tables show it, with every character but letters and digits made `_`.
pub fn log_file_name(seat: usize, name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("seat-{seat}-{safe}.log")
}

/// Once a seat is named after its bot's `ready`, its log file (named after the command's name,
/// `before`, when the bot started) takes the seat's name (`after`), as the tables show it. The
/// open file is renamed in place (the bot goes on writing to it), and the bot's restarts
/// append to the new name. A log path the organiser chose otherwise is left alone.
pub fn rename_log(spec: &mut BotSpec, seat: usize, before: &str, after: &str) {
    let Some(old) = spec.log.clone() else {
        return;
    };
    if old.file_name().and_then(|n| n.to_str()) != Some(log_file_name(seat, before).as_str()) {
        return;
    }
    let new = old.with_file_name(log_file_name(seat, after));
    if new != old && std::fs::rename(&old, &new).is_ok() {
        spec.log = Some(new);
    }
}

/// Makes names unique by numbering repeats in seat order ("greedy", "greedy#2", "greedy#3"),
/// never making a name another seat already has.
pub fn numbered(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let taken = |n: &str, out: &[String]| {
            out.iter().any(|o| o == n) || names[i + 1..].contains(&n.to_string())
        };
        if !out.contains(name) {
            out.push(name.clone());
            continue;
        }
        let mut k = 2;
        while taken(&format!("{name}#{k}"), &out) {
            k += 1;
        }
        out.push(format!("{name}#{k}"));
    }
    out
}

/// The seats' names once the first round's `ready` messages are in (`ready[seat]`: the name the
/// bot gave, `None` if it gave none). Organiser-given names stay; every other seat takes its
/// bot's name; seats whose bots gave the same name keep their commands' names where those
/// tell them apart; what is still equal is numbered.
pub fn after_ready(specs: &[BotSpec], ready: &[Option<String>]) -> Vec<String> {
    let own: Vec<String> = specs
        .iter()
        .zip(ready)
        .map(
            |(spec, r)| match r.as_deref().map(clean).filter(|n| !n.is_empty()) {
                Some(n) if !spec.named && !built_in(&spec.argv) => n,
                _ => spec.name.clone(),
            },
        )
        .collect();
    let chosen: Vec<String> = (0..specs.len())
        .map(|s| {
            let shared = (0..specs.len()).any(|o| o != s && own[o] == own[s]);
            let command = default_name(&specs[s].argv);
            let unique_command =
                !(0..specs.len()).any(|o| o != s && default_name(&specs[o].argv) == command);
            if shared && !specs[s].named && unique_command {
                command
            } else {
                own[s].clone()
            }
        })
        .collect();
    numbered(&chosen)
}

/// A name from a bot, fit for a table: control characters out, spaces collapsed, cut short.
fn clean(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ").chars().take(READY_NAME_MAX).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shell_words::split(s).unwrap()
    }

    /// A seat named `name` (by the organiser or not) running `command`.
    fn seat(name: &str, named: bool, command: &str) -> BotSpec {
        let mut s = BotSpec::parse("", command).unwrap();
        s.name = name.into();
        s.named = named;
        s
    }

    #[test]
    fn default_names() {
        assert_eq!(default_name(&words("rollarena bot greedy")), "greedy");
        assert_eq!(
            default_name(&words("rollarena bot random --seed 3")),
            "random seed 3"
        );
        assert_eq!(default_name(&words("python3 bots/mine.py")), "mine.py");
        assert_eq!(
            default_name(&words("/opt/rollarena/target/release/rollarena bot greedy")),
            "greedy",
            "a built-in bot named by a path to this binary"
        );
        assert_eq!(default_name(&words("./target/release/bot -v")), "bot");
    }

    #[test]
    fn repeats_are_numbered_once_each() {
        let names = |v: &[&str]| numbered(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&["a", "a", "a"]), ["a", "a#2", "a#3"]);
        assert_eq!(names(&["a", "b", "a"]), ["a", "b", "a#2"]);
        assert_eq!(
            names(&["a", "a", "a#2"]),
            ["a", "a#3", "a#2"],
            "a#2 is taken"
        );
    }

    #[test]
    fn ready_names_where_the_organiser_gave_none() {
        // Three copies of one program: the bots say who they are.
        let specs = [
            seat("rollarena", false, "/x/rollarena"),
            seat("rollarena#2", false, "/x/rollarena"),
            seat("rollarena#3", false, "/x/rollarena"),
        ];
        let ready = [
            Some("random".into()),
            Some("greedy".into()),
            Some("positional".into()),
        ];
        assert_eq!(
            after_ready(&specs, &ready),
            ["random", "greedy", "positional"]
        );
        // Equal ready names: the commands tell them apart.
        let specs = [
            seat("a.py", false, "python3 a.py"),
            seat("b.py", false, "python3 b.py"),
        ];
        let ready = [Some("mybot".into()), Some("mybot".into())];
        assert_eq!(after_ready(&specs, &ready), ["a.py", "b.py"]);
        // A built-in bot through this binary keeps its command's name, options and all.
        let specs = [
            seat("solver", false, "rollarena bot solver"),
            seat(
                "solver strength 6",
                false,
                "/x/rollarena bot solver --strength 6",
            ),
        ];
        let ready = [Some("solver-10".into()), Some("solver-6".into())];
        assert_eq!(after_ready(&specs, &ready), ["solver", "solver strength 6"]);
        // Still equal: numbered.
        let specs = [
            seat("bot.py", false, "python3 bot.py"),
            seat("bot.py#2", false, "python3 bot.py"),
        ];
        let ready = [Some("mybot".into()), Some("mybot".into())];
        assert_eq!(after_ready(&specs, &ready), ["mybot", "mybot#2"]);
        // The organiser's names stay; a bot that never said ready keeps its command's.
        let specs = [seat("alice", true, "a.py"), seat("b.py", false, "b.py")];
        let ready = [Some("greedy".into()), None];
        assert_eq!(after_ready(&specs, &ready), ["alice", "b.py"]);
        // A ready name equal to an organiser's name is numbered.
        let specs = [seat("greedy", true, "a.py"), seat("g.py", false, "g.py")];
        let ready = [Some("x".into()), Some("greedy".into())];
        assert_eq!(after_ready(&specs, &ready), ["greedy", "g.py"]);
        // Control characters and long names are cleaned.
        let specs = [seat("a", false, "a")];
        let ready = [Some(format!("my\tbot\n{}", "x".repeat(80)))];
        let got = after_ready(&specs, &ready);
        assert!(
            got[0].starts_with("my bot x") && got[0].chars().count() == 40,
            "{got:?}"
        );
    }
}
