//! The JSON Schemas derived from the engine's view and event types describe what the engine
//! writes: random games' states (every seat's and the spectator's), events and secrets are
//! validated against them.

use jsonschema::Validator;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rollarena::game::rollerball::{Event, Rollerball, Secret, View};

fn validator<T: schemars::JsonSchema>() -> Validator {
    let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
    jsonschema::validator_for(&schema).expect("a valid schema")
}

fn check(v: &Validator, value: &serde_json::Value) {
    if let Err(e) = v.validate(value) {
        panic!("{e}\n{value}");
    }
}

#[test]
fn random_games_match_the_schemas() {
    let (view, event, secret) = (
        validator::<View>(),
        validator::<Event>(),
        validator::<Secret>(),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for players in 2..=6 {
        let mut g = Rollerball::new(players, 60, players as u64).unwrap();
        while let Some(t) = g.to_act() {
            for s in 0..players {
                check(&view, &serde_json::to_value(g.view(s)).unwrap());
            }
            check(&view, &serde_json::to_value(g.spectator_view()).unwrap());
            let seat = t.seats[0];
            let legal = g.legal(seat);
            let a = g
                .apply(seat, &legal[rng.random_range(0..legal.len())])
                .unwrap();
            for e in &a.events {
                check(&event, &serde_json::to_value(e).unwrap());
            }
            for s in &a.secrets {
                check(&secret, &serde_json::to_value(s).unwrap());
            }
        }
        check(&view, &serde_json::to_value(g.view(0)).unwrap());
    }
}
