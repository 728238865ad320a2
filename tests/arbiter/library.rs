//! The library entry point, [`run_match`], for what the command line cannot reach: a bot
//! whose program cannot be started at all, and the registry of live bot groups.

use std::sync::Arc;

use super::*;
use rollarena::arbiter::events::{Event, Observer};
use rollarena::arbiter::{BotSpec, Limits, MatchConfig, TimeControl, run_match};
use rollarena::game::rolit::Rolit;
use rollarena::record::ForfeitKind;

/// Collects finished rounds.
struct Collect(Vec<RoundRecord>);

impl Observer for Collect {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::RoundEnded { record } = event {
            self.0.push((*record).clone());
        }
        Ok(())
    }
}

/// Through the library: a seat whose program cannot be started forfeits every round as a
/// crash before the first move, and no bot group is left registered.
#[test]
fn library_run_match_with_a_program_that_cannot_start() {
    let tag = unique_tag("library");
    let zoo = format!(
        "{PYTHON} {} --tag {tag}",
        shell_words::quote(&zoo_path().display().to_string())
    );
    let config = MatchConfig {
        game: Arc::new(Rolit::new(4, 2).unwrap()),
        bots: vec![
            BotSpec::parse("zoo", &zoo).unwrap(),
            BotSpec::parse("ghost", "/nonexistent/rollarena-ghost").unwrap(),
        ],
        rounds: 2,
        time: TimeControl {
            per_move: Duration::from_secs(10),
            ..TimeControl::default()
        },
        retries: 2,
        freeze: true,
        hide_legal: false,
        limits: Limits::default(),
        isolation: rollarena::sandbox::Isolation::unwrapped(),
        seed: 5,
        match_id: "library-test".into(),
        table: None,
        openings: Vec::new(),
        deals: Vec::new(),
        withdraw_after: None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut collect = Collect(Vec::new());
    let standings = runtime
        .block_on(run_match(&config, &mut collect))
        .expect("the match runs");
    assert_eq!(collect.0.len(), 2);
    for r in &collect.0 {
        let f = assert_forfeit(r, 1, ForfeitKind::Crash);
        assert_eq!(f.ply, 0, "before the first move");
        assert!(f.detail.contains("does not exist"), "{}", f.detail);
        assert!(f.exit.is_none());
        assert_clean(r, 0);
    }
    assert_eq!(standings[0].name, "zoo");
    assert_eq!(standings[1].forfeits["crash"], 2);
    assert_eq!(
        rollarena::arbiter::process::live_count(),
        0,
        "no bot group left registered"
    );
    assert_no_survivors(&tag);
}
