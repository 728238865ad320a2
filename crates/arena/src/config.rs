//! An arena's settings: everything in `DIR/arena.toml`, read into plain values with every
//! setting's default, and written out (documented, commented) by `rollarena arena init`.
//!
//! The file is the organiser's: `init` writes each setting with its value and a comment saying
//! what it does, and [`Config::load`] reads it back strictly (an unknown key is a typo, and a
//! typo that silently kept a default would be worse than an error). Durations are written as
//! `"10s"`, `"500ms"`, sizes as `"512M"`, the forms the command line takes.

pub mod proxies;

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::game::registry;
use crate::sandbox::{ResourceLimits, parse_size};

/// The file's name inside an arena directory.
pub const FILE: &str = "arena.toml";

/// Everything in `arena.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The game the arena plays (`--game`).
    pub game: String,
    /// The game's own options (as `match`'s game flags or a tournament's `[options]`).
    #[serde(default)]
    pub options: Map<String, Value>,
    /// Seats per match.
    pub players: usize,
    /// Rounds per match: a multiple of `players`, so seats and the first move rotate fully.
    pub rounds: u32,
    /// Time per move.
    #[serde(with = "dur")]
    pub time: Duration,
    /// Time for a bot to answer `hello`.
    #[serde(with = "dur")]
    pub startup: Duration,
    /// Refused attempts allowed per move beyond the first.
    #[serde(default)]
    pub retries: u32,
    /// Leave the legal moves out of requests.
    #[serde(default)]
    pub hide_legal: bool,
    #[serde(default)]
    pub sandbox: SandboxConfig,
    #[serde(default)]
    pub build: BuildConfig,
    #[serde(default)]
    pub uploads: UploadConfig,
    #[serde(default)]
    pub ladder: LadderConfig,
    #[serde(default)]
    pub server: ServerConfig,
    /// The languages teams may submit in, in the order they are tried when an archive does
    /// not say.
    #[serde(default = "Recipe::defaults")]
    pub recipes: Vec<Recipe>,
}

/// How bots play: the strict sandbox, one uid per seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    /// The uids seats run under (root only), one per live bot.
    pub bot_uids: String,
    #[serde(with = "size")]
    pub memory: u64,
    #[serde(with = "dur")]
    pub cpu_limit: Duration,
    pub max_processes: u64,
    pub max_open_files: u64,
    #[serde(with = "size")]
    pub max_file_size: u64,
    /// Bytes a seat may write in all its writable places together (its scratch directory,
    /// /tmp, /var/tmp, /dev/shm: one tmpfs), and the files and directories it may make there.
    #[serde(with = "size")]
    pub disk: u64,
    pub inodes: u64,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            bot_uids: crate::sandbox::identity::DEFAULT_RANGE.into(),
            memory: 1 << 30,
            cpu_limit: Duration::from_secs(3600),
            max_processes: 128,
            max_open_files: 256,
            max_file_size: 64 << 20,
            disk: crate::sandbox::DEFAULT_DISK,
            inodes: crate::sandbox::DEFAULT_INODES,
        }
    }
}

/// How submissions are built: in the strict sandbox, under uids of their own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BuildConfig {
    /// The uids builds run under (root only): a range of its own, never a seat's.
    pub uids: String,
    /// Wall time a build may take.
    #[serde(with = "dur")]
    pub time: Duration,
    #[serde(with = "size")]
    pub memory: u64,
    pub max_processes: u64,
    /// Output (stdout and stderr together) a build may write; the log keeps this much.
    #[serde(with = "size")]
    pub max_output: u64,
    /// Largest file a build may write.
    #[serde(with = "size")]
    pub max_file_size: u64,
    /// Builds run at once; 0: a quarter of the cores, at least 1 ([`BuildConfig::builders`]).
    pub workers: usize,
    /// Bytes a build may write in its directory (a tmpfs of this size when the server is
    /// root), and the files and directories it may make there; also the most a version's kept
    /// build may hold.
    #[serde(with = "size")]
    pub disk: u64,
    pub inodes: u64,
}

impl BuildConfig {
    /// How many builders the server runs: `workers`, or a quarter of the cores (at least 1).
    pub fn builders(&self) -> usize {
        if self.workers > 0 {
            return self.workers;
        }
        std::thread::available_parallelism()
            .map(|n| n.get() / 4)
            .unwrap_or(1)
            .max(1)
    }
}

impl Default for BuildConfig {
    fn default() -> Self {
        BuildConfig {
            uids: "61000-61099".into(),
            time: Duration::from_secs(300),
            memory: 2 << 30,
            max_processes: 256,
            max_output: 1 << 20,
            max_file_size: 256 << 20,
            workers: 0,
            disk: crate::sandbox::DEFAULT_DISK,
            inodes: crate::sandbox::DEFAULT_INODES,
        }
    }
}

/// What an upload may be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UploadConfig {
    /// Largest upload (a file or a packed archive).
    #[serde(with = "size")]
    pub max_bytes: u64,
    /// Largest total size of an archive's files once unpacked.
    #[serde(with = "size")]
    pub max_unpacked: u64,
    /// Most entries (files and directories) an archive may hold.
    pub max_files: u64,
    /// Uploads a team may send in any hour; 0: no limit.
    pub per_hour: u32,
}

impl Default for UploadConfig {
    fn default() -> Self {
        UploadConfig {
            max_bytes: 10 << 20,
            max_unpacked: 100 << 20,
            max_files: 5000,
            per_hour: 12,
        }
    }
}

/// The continuous ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LadderConfig {
    /// Matches a new version plays first, against opponents drawn from the whole pool.
    pub placement_matches: u32,
    /// Built-in bots of the game that play in the ladder as anchors (`rollarena bot NAME`).
    pub anchors: Vec<String>,
    /// The SPRT of each version against the pool: `elo0,elo1,alpha,beta` (normalized Elo).
    pub sprt: String,
    /// How long a worker's lease on a match lasts without a heartbeat.
    #[serde(with = "dur")]
    pub lease: Duration,
    /// Times a match is tried before it is marked failed.
    pub max_attempts: u32,
    /// The ladder rests once no version places and every rating's sigma is at most this.
    pub rest_sigma: f64,
    /// Matches two versions may play together (queued, in play or done); 0: no cap.
    pub max_matches_per_pair: u32,
    /// Matches the ladder may make in any minute; 0: no limit.
    pub max_matches_per_minute: u32,
}

impl Default for LadderConfig {
    fn default() -> Self {
        LadderConfig {
            placement_matches: 10,
            anchors: Vec::new(),
            sprt: "0,10,0.05,0.05".into(),
            lease: Duration::from_secs(120),
            max_attempts: 3,
            rest_sigma: 2.5,
            max_matches_per_pair: 100,
            max_matches_per_minute: 120,
        }
    }
}

/// The web server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Where `rollarena serve` listens unless `--listen` says otherwise.
    pub listen: String,
    /// Reverse proxies (addresses or CIDR blocks) whose `X-Forwarded-For` names the client
    /// whose failed logins are counted; nobody's by default (the peer's address counts).
    pub trusted_proxies: Vec<String>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            listen: "127.0.0.1:8080".into(),
            trusted_proxies: Vec::new(),
        }
    }
}

/// A language teams may submit in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// The name teams give (`--language`).
    pub name: String,
    /// The file a submission must hold at its top (it names the language in an archive).
    pub main: String,
    /// Endings a single uploaded file may have; it is then stored under `main`'s name. Empty:
    /// a single file must be named `main` itself (Java, whose class is its file's name).
    #[serde(default)]
    pub extensions: Vec<String>,
    /// The build, run by `/bin/sh -c` in the submission's build directory; empty: none.
    #[serde(default)]
    pub build: String,
    /// The command that runs the built bot, as words; words naming files of the build
    /// directory are made absolute.
    pub run: String,
    /// Run by `/bin/sh -c` as a build uid when `serve` starts (its compiler's `--version`):
    /// the language is offered only if it exits 0; empty: not checked.
    #[serde(default)]
    pub probe: String,
}

impl Recipe {
    /// The six kit languages of `examples/`.
    pub fn defaults() -> Vec<Recipe> {
        let r =
            |name: &str, main: &str, ext: &[&str], build: &str, run: &str, probe: &str| Recipe {
                name: name.into(),
                main: main.into(),
                extensions: ext.iter().map(|e| e.to_string()).collect(),
                build: build.into(),
                run: run.into(),
                probe: probe.into(),
            };
        vec![
            r(
                "python",
                "bot.py",
                &[".py"],
                "",
                "/usr/bin/python3 bot.py",
                "/usr/bin/python3 --version",
            ),
            r(
                "javascript",
                "bot.js",
                &[".js"],
                "",
                "/usr/bin/node bot.js",
                "/usr/bin/node --version",
            ),
            r(
                "c",
                "bot.c",
                &[".c"],
                "gcc -O2 -o bot bot.c -lm",
                "bot",
                "gcc --version",
            ),
            r(
                "cpp",
                "bot.cpp",
                &[".cpp", ".cc", ".cxx"],
                "g++ -O2 -std=c++17 -o bot bot.cpp",
                "bot",
                "g++ --version",
            ),
            r(
                "java",
                "RolitBot.java",
                &[],
                "mkdir -p out && javac -d out *.java",
                "/usr/bin/java -cp out RolitBot",
                "javac -version",
            ),
            r(
                "rust",
                "Cargo.toml",
                &[],
                "cargo build --release --offline && cp \"target/release/$(sed -n \
                 's/^name *= *\"\\(.*\\)\"/\\1/p' Cargo.toml | head -n 1)\" bot",
                "bot",
                "cargo --version && rustc --version",
            ),
        ]
    }
}

impl Config {
    /// The defaults for `game` with its `options`, checked as `match` checks them.
    pub fn new(game: &str, options: Map<String, Value>) -> Result<Config, String> {
        let entry = registry::find(game)?;
        let players = *entry.players.start();
        let config = Config {
            game: entry.name.into(),
            options,
            players,
            rounds: players as u32 * 2,
            time: Duration::from_secs(1),
            startup: Duration::from_secs(10),
            retries: 0,
            hide_legal: false,
            sandbox: SandboxConfig::default(),
            build: BuildConfig::default(),
            uploads: UploadConfig::default(),
            ladder: LadderConfig::default(),
            server: ServerConfig::default(),
            recipes: Recipe::defaults(),
        };
        config.validate()?;
        Ok(config)
    }

    /// Reads `DIR/arena.toml`.
    pub fn load(dir: &Path) -> Result<Config, String> {
        let path = dir.join(FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "cannot read {}: {e} (an arena is made by `rollarena arena init DIR --game G`)",
                path.display()
            )
        })?;
        let config: Config =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        config
            .validate()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(config)
    }

    /// The game with its options and `players`, as the registry builds it.
    pub fn game(&self) -> Result<std::sync::Arc<dyn crate::game::Game>, String> {
        let entry = registry::find(&self.game)?;
        (entry.build)(&self.options_with_players())
    }

    /// The game's options with `players` set.
    pub fn options_with_players(&self) -> Map<String, Value> {
        let mut options = self.options.clone();
        options.insert("players".into(), self.players.into());
        options
    }

    /// The time control of matches and checks.
    pub fn time_control(&self) -> crate::arbiter::clock::TimeControl {
        crate::arbiter::clock::TimeControl {
            startup: self.startup,
            per_move: self.time,
            ..crate::arbiter::clock::TimeControl::default()
        }
    }

    /// The limits every seat plays under.
    pub fn bot_limits(&self) -> ResourceLimits {
        let s = &self.sandbox;
        ResourceLimits {
            memory: s.memory,
            cpu_secs: s.cpu_limit.as_secs().max(1),
            open_files: s.max_open_files,
            processes: s.max_processes,
            file_size: s.max_file_size,
            disk: s.disk,
            inodes: s.inodes,
        }
    }

    /// The limits every build runs under (its CPU time bounded by its wall time).
    pub fn build_limits(&self) -> ResourceLimits {
        let b = &self.build;
        ResourceLimits {
            memory: b.memory,
            cpu_secs: b.time.as_secs().max(1),
            open_files: 1024,
            processes: b.max_processes,
            file_size: b.max_file_size,
            disk: b.disk,
            inodes: b.inodes,
        }
    }

    /// The SPRT every version's evaluation runs.
    pub fn sprt(&self) -> Result<crate::tournament::sprt::Sprt, String> {
        crate::tournament::sprt::Sprt::parse(
            &self.ladder.sprt,
            crate::tournament::sprt::EloModel::Normalized,
        )
        .map_err(|e| format!("ladder.sprt: {}", e.trim_start_matches("--sprt")))
    }

    /// Checks everything a match, a build or the ladder would otherwise trip over later.
    pub fn validate(&self) -> Result<(), String> {
        let entry = registry::find(&self.game)?;
        if !entry.players.contains(&self.players) {
            return Err(format!(
                "players = {}: {} is played by {} to {} players",
                self.players,
                entry.name,
                entry.players.start(),
                entry.players.end()
            ));
        }
        self.game()?;
        crate::arbiter::settings::rounds(self.rounds).map_err(|e| format!("rounds: {e}"))?;
        if !(self.rounds as usize).is_multiple_of(self.players) {
            return Err(format!(
                "rounds = {}: make it a multiple of players ({}), so that every seat moves \
                 first equally often",
                self.rounds, self.players
            ));
        }
        crate::arbiter::settings::per_move(self.time).map_err(|e| format!("time: {e}"))?;
        crate::arbiter::settings::startup(self.startup).map_err(|e| format!("startup: {e}"))?;
        self.bot_limits()
            .check()
            .map_err(|e| format!("[sandbox]: {e}"))?;
        self.build_limits()
            .check()
            .map_err(|e| format!("[build]: {e}"))?;
        crate::sandbox::identity::UidRange::parse(&self.sandbox.bot_uids)
            .map_err(|e| format!("[sandbox] bot_uids: {e}"))?;
        let builds = crate::sandbox::identity::UidRange::parse(&self.build.uids)
            .map_err(|e| format!("[build] uids: {e}"))?;
        let seats = crate::sandbox::identity::UidRange::parse(&self.sandbox.bot_uids)?;
        if builds.first <= seats.last && seats.first <= builds.last {
            return Err(format!(
                "[build] uids {:?} overlaps [sandbox] bot_uids {:?}: builds run under an \
                 identity of their own, never a seat's; give them separate ranges",
                self.build.uids, self.sandbox.bot_uids
            ));
        }
        if self.uploads.max_bytes == 0 || self.uploads.max_files == 0 {
            return Err("[uploads]: the limits must be above 0".into());
        }
        self.sprt()?;
        proxies::parse_list(&self.server.trusted_proxies)?;
        if self.ladder.max_attempts == 0 {
            return Err("[ladder] max_attempts must be at least 1".into());
        }
        if !(self.ladder.rest_sigma >= 0.0 && self.ladder.rest_sigma < 25.0 / 3.0) {
            return Err(format!(
                "[ladder] rest_sigma = {}: give a sigma from 0 (never rest) to below a new \
                 version's 8.33 (e.g. the default 2.5)",
                self.ladder.rest_sigma
            ));
        }
        let (cap, placement) = (
            self.ladder.max_matches_per_pair,
            self.ladder.placement_matches,
        );
        if cap > 0 && cap < placement {
            return Err(format!(
                "[ladder] max_matches_per_pair = {cap} is below placement_matches = \
                 {placement}: a new version of a two-team arena could never finish placing; \
                 raise it (or set 0: no cap)"
            ));
        }
        if self.ladder.lease < Duration::from_secs(5) {
            return Err("[ladder] lease must be at least 5s (workers renew it every third)".into());
        }
        for anchor in &self.ladder.anchors {
            let choices = anchor_choices(entry);
            if !choices.contains(&anchor.as_str()) {
                return Err(format!(
                    "[ladder] anchors: {} has no built-in bot {anchor:?}; it has {}",
                    entry.name,
                    choices.join(", ")
                ));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for r in &self.recipes {
            if !seen.insert(r.name.as_str()) {
                return Err(format!("[[recipes]]: the language {:?} is twice", r.name));
            }
            if r.main.is_empty() || r.main.contains('/') {
                return Err(format!(
                    "[[recipes]] {}: main must be a file name without a directory",
                    r.name
                ));
            }
            shell_words::split(&r.run)
                .ok()
                .filter(|w| !w.is_empty())
                .ok_or_else(|| format!("[[recipes]] {}: run must be a command", r.name))?;
        }
        if self.recipes.is_empty() {
            return Err("no [[recipes]]: teams could submit in no language".into());
        }
        Ok(())
    }

    /// The recipe named `name`.
    pub fn recipe(&self, name: &str) -> Option<&Recipe> {
        self.recipes.iter().find(|r| r.name == name)
    }

    /// The file `init` writes: every setting with its value and what it does.
    pub fn to_toml(&self) -> String {
        let q = |s: &str| toml_string(s);
        let d = |t: Duration| q(&humantime::format_duration(t).to_string());
        let z = |n: u64| q(&format_size(n));
        let options = if self.options.is_empty() {
            "# (none: the game's defaults)\n".to_string()
        } else {
            toml::to_string(&self.options).unwrap_or_default()
        };
        let entry = registry::find(&self.game).ok();
        let bots = entry
            .map(|e| anchor_choices(e).join(", "))
            .unwrap_or_default();
        let s = &self.sandbox;
        let b = &self.build;
        let u = &self.uploads;
        let l = &self.ladder;
        let anchors: Vec<String> = l.anchors.iter().map(|a| q(a)).collect();
        let mut out = format!(
            "# The arena's settings (rollarena arena init). Every setting is written with its \
             value;\n# edit and restart `rollarena serve`. protocol/ARENA.md explains each.\n\n\
             # The game, its options (the game flags of `rollarena match`) and the matches.\n\
             game = {game}\n\
             # Seats per match.\nplayers = {players}\n\
             # Rounds per match: a multiple of players, so every seat moves first equally \
             often.\nrounds = {rounds}\n\
             # Time per move, and for answering hello.\ntime = {time}\nstartup = {startup}\n\
             # Refused attempts allowed per move beyond the first.\nretries = {retries}\n\
             # Leave the legal moves out of requests.\nhide_legal = {hide}\n\n\
             [options]\n{options}\n\
             # How bots play: the strict sandbox, each seat under a uid of its own from \
             bot_uids\n# (when the server runs as root), with these limits.\n[sandbox]\n\
             bot_uids = {bot_uids}\nmemory = {memory}\ncpu_limit = {cpu}\n\
             max_processes = {procs}\nmax_open_files = {files}\nmax_file_size = {fsize}\n\
             # disk, inodes: what a seat may write in its scratch directory, /tmp, /var/tmp \
             and /dev/shm\n# together (one tmpfs: a write past it fails with ENOSPC; it \
             counts against memory too).\ndisk = {disk}\ninodes = {inodes}\n\n\
             # How submissions are built: the recipe's build command in the strict sandbox (no \
             network),\n# under a uid of uids (never a seat's), with a wall time, memory, \
             processes and output\n# (stdout and stderr, kept in build.log) of at most \
             these.\n[build]\nuids = {buids}\ntime = {btime}\nmemory = {bmem}\n\
             max_processes = {bprocs}\nmax_output = {bout}\nmax_file_size = {bfsize}\n\
             # Builds run at once (0: a quarter of the cores, at least 1). Each team has at \
             most one\n# build queued: a newer upload supersedes it. The team whose last \
             build started longest ago\n# is built first.\nworkers = {bworkers}\n\
             # disk, inodes: what a build may write (its directory is a tmpfs of this size \
             when the\n# server is root), and the most a version's kept build may hold.\n\
             disk = {bdisk}\ninodes = {binodes}\n\n\
             # What an upload may be: its size, and an archive's unpacked size and entries.\n\
             [uploads]\nmax_bytes = {ubytes}\nmax_unpacked = {uunpacked}\nmax_files = {ufiles}\n\
             # Uploads a team may send in any hour (more are refused with HTTP 429 until \
             the oldest is\n# an hour old); 0: no limit.\nper_hour = {uperhour}\n\n\
             # The ladder. placement_matches: matches a new version plays first, against \
             opponents\n# drawn from the whole pool. anchors: built-in bots that play in the \
             ladder ({bots}).\n# sprt: each version against the pool, elo0,elo1,alpha,beta \
             (normalized Elo).\n# lease: how long a worker holds a match without a \
             heartbeat. max_attempts: tries\n# before a match is marked failed. Every match's \
             seed (it deals the cards) is drawn from the\n# operating system, 53 bits: \
             nothing to set (protocol/SPEC.md section 9).\n\
             # The ladder spends its matches where ratings are uncertain and rests when none \
             is: once no\n# version is placing and every sigma is at most rest_sigma, it \
             makes no match (\"at rest\")\n# until a new version, a new team or `rollarena \
             arena resume DIR` wakes it. Two versions\n# meet at most max_matches_per_pair \
             times (0: no cap); at most max_matches_per_minute\n# matches are made in any \
             minute (0: no limit).\n[ladder]\n\
             placement_matches = {placement}\nanchors = [{anchors}]\nsprt = {sprt}\n\
             lease = {lease}\nmax_attempts = {attempts}\nrest_sigma = {rest_sigma:?}\n\
             max_matches_per_pair = {pair_cap}\nmax_matches_per_minute = {per_minute}\n\n\
             # The web server: where `rollarena serve` listens unless --listen says \
             otherwise.\n# trusted_proxies: the reverse proxies (addresses or blocks, as \
             \"127.0.0.1\" or \"10.0.0.0/8\")\n# whose X-Forwarded-For names the client; \
             nobody's by default. Failed logins count per client\n# address and are slowed \
             past 10 in 15 minutes (a correct token is never slowed).\n\
             [server]\nlisten = {listen}\ntrusted_proxies = [{proxies}]\n\n\
             # The languages teams submit in. name: what --language says; main: the file a \
             submission\n# must hold at its top; extensions: endings a single uploaded file \
             may have (stored as main);\n# build: run by /bin/sh -c in the build directory \
             (empty: none); run: the built bot's\n# command (words naming files of the build \
             are made absolute). Builds have no network:\n# Rust dependencies must be \
             vendored (`cargo vendor`, with .cargo/config.toml in the upload),\n# and every \
             compiler must be installed where the build uids can run it (/usr/bin, \
             /usr/local/bin).\n\
             # probe: run by /bin/sh -c as a build uid when `rollarena serve` starts (the \
             compiler's\n# --version); a language whose probe fails is not offered, and \
             serve says what is missing\n# (empty: not checked).\n",
            game = q(&self.game),
            players = self.players,
            rounds = self.rounds,
            time = d(self.time),
            startup = d(self.startup),
            retries = self.retries,
            hide = self.hide_legal,
            bot_uids = q(&s.bot_uids),
            memory = z(s.memory),
            cpu = d(s.cpu_limit),
            procs = s.max_processes,
            files = s.max_open_files,
            fsize = z(s.max_file_size),
            disk = z(s.disk),
            inodes = s.inodes,
            buids = q(&b.uids),
            btime = d(b.time),
            bmem = z(b.memory),
            bprocs = b.max_processes,
            bout = z(b.max_output),
            bfsize = z(b.max_file_size),
            bworkers = b.workers,
            bdisk = z(b.disk),
            binodes = b.inodes,
            ubytes = z(u.max_bytes),
            uunpacked = z(u.max_unpacked),
            ufiles = u.max_files,
            uperhour = u.per_hour,
            placement = l.placement_matches,
            anchors = anchors.join(", "),
            sprt = q(&l.sprt),
            lease = d(l.lease),
            attempts = l.max_attempts,
            rest_sigma = l.rest_sigma,
            pair_cap = l.max_matches_per_pair,
            per_minute = l.max_matches_per_minute,
            listen = q(&self.server.listen),
            proxies = self
                .server
                .trusted_proxies
                .iter()
                .map(|p| q(p))
                .collect::<Vec<_>>()
                .join(", "),
        );
        for r in &self.recipes {
            let ext: Vec<String> = r.extensions.iter().map(|e| q(e)).collect();
            out.push_str(&format!(
                "\n[[recipes]]\nname = {}\nmain = {}\nextensions = [{}]\nbuild = {}\nrun = {}\n\
                 probe = {}\n",
                q(&r.name),
                q(&r.main),
                ext.join(", "),
                q(&r.build),
                q(&r.run),
                q(&r.probe)
            ));
        }
        out
    }
}

/// The built-in bots an arena may take as anchors: the game's own, and `random`, which
/// every game has (once, in the game's order when the game lists it).
pub fn anchor_choices(entry: &registry::Entry) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = entry.bots.iter().map(|b| b.name).collect();
    if !names.contains(&"random") {
        names.push("random");
    }
    names
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A size as `parse_size` reads it back: the largest unit that divides it.
pub fn format_size(n: u64) -> String {
    for (unit, mult) in [("G", 1u64 << 30), ("M", 1 << 20), ("K", 1 << 10)] {
        if n >= mult && n.is_multiple_of(mult) {
            return format!("{}{unit}", n / mult);
        }
    }
    n.to_string()
}

/// Durations as `"10s"`.
mod dur {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&humantime::format_duration(*d).to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let text = String::deserialize(d)?;
        humantime::parse_duration(text.trim())
            .or_else(|_| crate::duration::parse_duration(&text))
            .map_err(|_| {
                serde::de::Error::custom(format!(
                    "{text:?} is not a duration: write e.g. \"500ms\", \"10s\", \"5m\" or \"1h\""
                ))
            })
    }
}

/// Sizes as `"512M"`, or a number of bytes.
mod size {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(n: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::format_size(*n))
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Size {
        Bytes(u64),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        match Size::deserialize(d)? {
            Size::Bytes(n) => Ok(n),
            Size::Text(t) => super::parse_size(&t).map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_file_reads_back_as_the_same_settings() {
        let mut config = Config::new(registry::default_name(), Map::new()).unwrap();
        config.ladder.anchors = vec!["random".into()];
        config.recipes.truncate(2);
        let text = config.to_toml();
        let back: Config = toml::from_str(&text).unwrap();
        assert_eq!(back, config);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), &text).unwrap();
        assert_eq!(Config::load(dir.path()).unwrap(), config);
    }

    #[test]
    fn bad_settings_are_refused_naming_them() {
        let config = Config::new(registry::default_name(), Map::new()).unwrap();
        let bad = |edit: &dyn Fn(&mut Config)| {
            let mut c = config.clone();
            edit(&mut c);
            c.validate().unwrap_err()
        };
        assert!(bad(&|c| c.rounds = 3).contains("multiple of players"));
        assert!(bad(&|c| c.players = 9).contains("players = 9"));
        assert!(bad(&|c| c.build.uids = "60000-60010".into()).contains("overlaps"));
        assert!(bad(&|c| c.ladder.anchors = vec!["nobody".into()]).contains("no built-in bot"));
        assert!(bad(&|c| c.ladder.rest_sigma = 9.0).contains("rest_sigma"));
        assert!(bad(&|c| c.ladder.rest_sigma = f64::NAN).contains("rest_sigma"));
        assert!(bad(&|c| c.ladder.max_matches_per_pair = 5).contains("never finish placing"));
        assert!(
            Config::new("chess", Map::new())
                .unwrap_err()
                .contains("no game")
        );
        let text = config.to_toml().replace("[build]", "[build]\ntyop = 1");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), text).unwrap();
        let e = Config::load(dir.path()).unwrap_err();
        assert!(e.contains("typo") || e.contains("unknown field"), "{e}");
    }

    #[test]
    fn the_comment_on_anchors_lists_each_built_in_bot_once() {
        for entry in registry::GAMES {
            let Ok(config) = Config::new(entry.name, Map::new()) else {
                continue;
            };
            let text = config.to_toml();
            let listed = text
                .split("play in the ladder (")
                .nth(1)
                .and_then(|t| t.split(")").next())
                .unwrap_or_else(|| panic!("{}: no list of anchors in {text}", entry.name));
            let names: Vec<&str> = listed.split(", ").collect();
            let mut once = names.clone();
            once.sort();
            once.dedup();
            assert_eq!(names.len(), once.len(), "{}: {listed}", entry.name);
            assert_eq!(names, anchor_choices(entry), "{}", entry.name);
            assert!(names.contains(&"random"), "{}: {listed}", entry.name);
        }
    }
}
