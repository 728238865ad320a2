//! The languages an arena offers: `serve` runs each recipe's probe (its compiler's
//! `--version`, `[[recipes]] probe`) as a build uid before it takes submissions, and a recipe
//! whose probe fails is not offered: not on the form, not in `GET /api/languages`, and an
//! upload in it is refused saying why (a team would otherwise wait for a build that can only
//! fail, "cargo: not found"). `serve` prints one line per such recipe: what is missing, and
//! how to install it where the build uids find it.
//!
//! The probes run at once, each in the build sandbox (see `build::probe`); what they find
//! holds until the next start (install the compiler, then restart `serve`).

use std::time::Duration;

use serde::Serialize;

use crate::Arena;
use crate::config::Recipe;

/// The longest a probe may take.
pub const PROBE_TIME: Duration = Duration::from_secs(30);

/// A recipe that cannot build on this server, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unavailable {
    pub recipe: Recipe,
    /// What its probe said.
    pub why: String,
}

impl Unavailable {
    /// The line `serve` prints: what failed, what to install, where.
    pub fn line(&self) -> String {
        format!(
            "rollarena: the language {} is not offered: its probe `{}` failed as a build uid \
             ({}). {} Then restart serve.",
            self.recipe.name,
            self.recipe.probe,
            self.why,
            install_hint(&self.recipe.name)
        )
    }
}

/// How to install a default recipe's compiler for the build uids.
pub fn install_hint(language: &str) -> &'static str {
    match language {
        "python" => "Install Python 3 as /usr/bin/python3 (apt install python3).",
        "javascript" => "Install Node.js as /usr/bin/node (apt install nodejs).",
        "c" => "Install gcc in /usr/bin (apt install gcc).",
        "cpp" => "Install g++ in /usr/bin (apt install g++).",
        "java" => "Install a JDK with javac and /usr/bin/java (apt install default-jdk-headless).",
        "rust" => {
            "Install a Rust toolchain under /usr/local, not in a user's ~/.cargo (the build \
             uids have no home and cannot read root's): Rust's standalone installer \
             (rust-VERSION-ARCH-unknown-linux-gnu.tar.xz from \
             https://forge.rust-lang.org/infra/other-installation-methods.html), unpacked, \
             then `./install.sh --prefix=/usr/local` as root puts cargo and rustc in \
             /usr/local/bin."
        }
        _ => {
            "Install its compiler where the build uids can run it (/usr/bin or \
             /usr/local/bin, readable and executable by all)."
        }
    }
}

/// Runs every recipe's probe (at once, each as a build uid); the recipes that failed, in
/// `arena.toml`'s order. The caller holds the arena's lock.
pub fn check(arena: &Arena) -> Result<Vec<Unavailable>, String> {
    let sandboxes = crate::rundir::Sandboxes::new(arena)?;
    let iso = &sandboxes.builds;
    let time = PROBE_TIME.min(arena.config.build.time);
    let results: Vec<Result<Option<Unavailable>, String>> = std::thread::scope(|s| {
        let probes: Vec<_> = arena
            .config
            .recipes
            .iter()
            .filter(|r| !r.probe.trim().is_empty())
            .map(|r| {
                s.spawn(move || {
                    let verdict = super::build::probe(iso, &r.probe, &arena.dir, time)?;
                    Ok(verdict.err().map(|why| Unavailable {
                        recipe: r.clone(),
                        why,
                    }))
                })
            })
            .collect();
        probes
            .into_iter()
            .map(|p| p.join().unwrap_or_else(|_| Err("a probe panicked".into())))
            .collect()
    });
    let mut out = Vec::new();
    for r in results {
        if let Some(u) = r? {
            out.push(u);
        }
    }
    Ok(out)
}

/// Offers only the recipes that can build: the others leave `arena.config.recipes` for
/// `arena.unavailable`; returns the lines `serve` prints.
pub fn restrict(arena: &mut Arena, unavailable: Vec<Unavailable>) -> Vec<String> {
    let mut lines: Vec<String> = unavailable.iter().map(Unavailable::line).collect();
    arena
        .config
        .recipes
        .retain(|r| !unavailable.iter().any(|u| u.recipe.name == r.name));
    if arena.config.recipes.is_empty() && !unavailable.is_empty() {
        lines.push(
            "rollarena: no language can be built: teams cannot submit until a compiler is \
             installed (see above) and serve restarted."
                .into(),
        );
    }
    arena.unavailable = unavailable;
    lines
}

/// The refusal for an upload in a language the server cannot build now.
pub fn refusal(u: &Unavailable, offered: &[Recipe]) -> String {
    let names: Vec<&str> = offered.iter().map(|r| r.name.as_str()).collect();
    format!(
        "the arena cannot build {} now: its compiler is missing on the server ({}); the \
         organiser was told when the server started. It takes {}",
        u.recipe.name,
        u.why,
        if names.is_empty() {
            "no language now".to_string()
        } else {
            names.join(", ")
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recipe_that_cannot_build_leaves_the_offer_and_its_refusal_says_why() {
        let (_tmp, mut arena) = crate::admin::fresh_arena(&[]);
        let rust = arena.config.recipe("rust").unwrap().clone();
        let missing = Unavailable {
            recipe: rust,
            why: "it exited with status 127: /bin/sh: 1: cargo: not found".into(),
        };
        let lines = restrict(&mut arena, vec![missing.clone()]);
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].contains("the language rust is not offered")
                && lines[0].contains("cargo --version")
                && lines[0].contains("--prefix=/usr/local"),
            "{}",
            lines[0]
        );
        assert!(arena.config.recipe("rust").is_none());
        assert!(arena.config.recipe("python").is_some());
        assert_eq!(arena.unavailable, std::slice::from_ref(&missing));
        let refused = refusal(&missing, &arena.config.recipes);
        assert!(
            refused.contains("cannot build rust now") && refused.contains("python"),
            "{refused}"
        );
        // Nothing left to offer: said too.
        let all: Vec<Unavailable> = arena
            .config
            .recipes
            .iter()
            .map(|r| Unavailable {
                recipe: r.clone(),
                why: "missing".into(),
            })
            .collect();
        let lines = restrict(&mut arena, all);
        assert!(lines.last().unwrap().contains("no language can be built"));
    }
}
