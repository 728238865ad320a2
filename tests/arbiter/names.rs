//! Seat names with real processes: three built-in bots started through one program whose
//! name says nothing get their own `ready` names in the table, the record and the standings;
//! bots that call themselves alike keep their commands' names, or are numbered.

use super::*;

/// `DIR/arena bot random`, `... bot greedy`, `... bot positional`: the program's name is the
/// same for all three, the bots' `ready` names differ.
#[test]
fn built_in_bots_behind_one_program_are_named_by_their_ready() {
    let arena = Arena::new("names");
    let program = arena.dir.path().join("arena");
    std::os::unix::fs::symlink(rollarena(), &program).unwrap();
    let bot = |name: &str| format!("{} bot {name}", program.display());
    let run = arena
        .flags(&["--size", "6", "--players", "3", "--rounds", "1"])
        .bot(&bot("random"))
        .bot(&bot("greedy"))
        .bot(&bot("positional"))
        .run();
    let r = &run.ok(1)[0];
    let names: Vec<&str> = r.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["random", "greedy", "positional"], "{}", run.stderr);
    for name in &names {
        assert!(
            run.stdout.contains(name),
            "the table names {name}:\n{}",
            run.stdout
        );
    }
    assert!(!run.stdout.contains("arena#"), "{}", run.stdout);
}

/// Two seats whose bots give the same `ready` name: the commands tell them apart; the same
/// command twice is numbered, each number once.
#[test]
fn equal_ready_names_fall_back_to_the_commands_then_numbers() {
    let arena = Arena::new("names-equal");
    let program = arena.dir.path().join("arena");
    std::os::unix::fs::symlink(rollarena(), &program).unwrap();
    let p = program.display();
    let run = arena
        .flags(&["--size", "6", "--players", "3", "--rounds", "1"])
        .bot(&format!("{p} bot random"))
        .bot(&format!("{p} bot random --seed 2"))
        .bot(&format!("{p} bot random --seed 2"))
        .run();
    let r = &run.ok(1)[0];
    let names: Vec<&str> = r.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["random", "random#2", "random#3"], "{}", run.stderr);
}
