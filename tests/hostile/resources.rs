//! Bots that use up resources: stderr, processes, memory, CPU. The fork bomb and the memory
//! hog run only under the limits that contain them (`--max-processes 32`, `--memory 256M`);
//! the zoo stops by itself should a limit fail (128 children, 1 GiB), which fails the test
//! instead of harming the machine.

use rollarena::record::ForfeitKind::Crash;

use super::{
    Outcome, Row, Setup,
    Verdict::{Clean, Forfeit},
};
use crate::arbiter::{json_logs, ply_of_turn};

/// The stderr tail kept in the record, in bytes.
const STDERR_TAIL: usize = 4096;
/// The process limit the fork bomb runs under.
const MAX_PROCESSES: usize = 32;

fn memory_hog_killed(o: &Outcome) {
    let f = o.forfeit();
    assert_eq!(f.ply, ply_of_turn(o.round(), 1, 2));
    let exit = f.exit.as_ref().expect("the exit is evidence");
    assert_eq!(exit.signal, Some(9), "killed by the OOM killer: {f:#?}");
    assert!(
        o.round()
            .logs
            .iter()
            .all(|l| !l.text.contains("nothing stopped it")),
        "the safety net of the zoo was reached: the limit did not hold"
    );
}

pub(super) const MEMORY_HOG: Row = Row {
    issue: "allocates memory without end",
    zoo: "--behaviour memory-hog --at 2",
    flags: &["--memory", "256M"],
    verdict: Forfeit(Crash, "the bot was killed by signal 9 (SIGKILL)"),
    serial: true,
    check: memory_hog_killed,
    ..Row::BASE
};

rows! {
    /// 300 MiB on stderr during one turn, and the bot plays on: no forfeit, the record keeps
    /// only the tail, the arbiter's memory does not grow with it.
    floods_stderr: Row {
        issue: "floods stderr",
        zoo: "--behaviour stderr-flood --at 2",
        verdict: Clean,
        serial: true,
        check: |o| {
            let flood = o.report("stderr_flood");
            eprintln!("stderr flood: {flood}");
            assert_eq!(flood["bytes"], 300 << 20, "{flood}");
            let tail = &o.round().stderr[1];
            assert!(tail.len() <= STDERR_TAIL, "the tail is bounded: {} bytes", tail.len());
            assert!(tail.len() > STDERR_TAIL / 2, "{} bytes", tail.len());
            assert!(tail.ends_with("eee\nzoo-stderr-end\n"), "{:?}", &tail[tail.len() - 40..]);
        },
        ..Row::BASE
    };
    /// Forks until fork fails, and every child keeps trying to fork: the bot's processes never
    /// exceed the limit (W, I and the bot included), the bot sees fork fail, plays on, and
    /// nothing of it survives the match.
    fork_bomb: Row {
        issue: "fork bomb",
        zoo: "--behaviour fork-bomb --at 2",
        flags: &["--max-processes", "32"],
        setup: Setup::CountProcesses("fork-bomb"),
        verdict: Clean,
        serial: true,
        check: |o| {
            let bomb = o.report("fork_bomb");
            eprintln!("fork bomb: {bomb}; at most {} processes seen", o.most_processes);
            assert!(bomb["failed"].as_u64() >= Some(1), "fork failed at the limit: {bomb}");
            let forked = bomb["forked"].as_u64().unwrap() as usize;
            assert!((8..MAX_PROCESSES).contains(&forked), "{bomb}");
            assert!(
                o.most_processes <= MAX_PROCESSES,
                "{} processes of the bot at once",
                o.most_processes
            );
            assert!(o.most_processes > forked, "the sampler saw the bomb: {}", o.most_processes);
        },
    };
    /// Touches memory without end under `--memory 256M`: killed (SIGKILL, by the cgroup's OOM
    /// killer), a crash. (That the detail names the memory limit is
    /// [`memory_hog_names_its_limit`].)
    allocates_memory_without_end: MEMORY_HOG;
    /// A thread spins for the whole match: frozen between its turns, it plays every move.
    /// (How much CPU it gets between turns is measured by `arbiter::processes`.)
    burns_cpu_between_turns: Row {
        issue: "burns CPU while it is not its turn",
        zoo: "--behaviour burn-between-turns",
        verdict: Clean,
        serial: true,
        check: |o| {
            assert!(json_logs(o.round(), 1, "burn").len() >= 4, "{:#?}", o.round().logs);
        },
        ..Row::BASE
    };
}

/// The memory hog's crash says that it reached its memory limit (docs/sandbox.md: "A bot killed by a
/// limit forfeits as a crash, and the record says which limit").
#[test]
fn memory_hog_names_its_limit() {
    let o = super::run_row("memory-hog-detail", &MEMORY_HOG);
    let f = o.forfeit();
    assert!(
        f.detail.contains("it reached its memory limit"),
        "the detail names the limit: {:?}",
        f.detail
    );
}
