-- The arena's first schema. Times are Unix milliseconds (UTC); ids are SQLite rowids.
-- A migration is applied once, in a transaction, and recorded in PRAGMA user_version.

-- Settings that change while the arena runs (the matchmaker paused, ...): key -> JSON value.
CREATE TABLE state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Who may do what. The organiser's token and each team's and each worker's token are stored
-- as a SHA-256 of the token, never the token itself.
CREATE TABLE teams (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL,
    disabled    INTEGER NOT NULL DEFAULT 0,
    -- 1 for a built-in bot the arena plays as an anchor ([ladder] anchors): no one logs in
    -- as it, and its one version runs `rollarena bot NAME`.
    builtin     INTEGER NOT NULL DEFAULT 0,
    -- The version the team picked to play; NULL: its latest version that passed.
    pinned_version INTEGER REFERENCES versions(id)
);

CREATE TABLE organisers (
    id          INTEGER PRIMARY KEY,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL
);

-- One submission = one version of a team's bot. Its files live in DIR/versions/<id>/:
-- source/ (as uploaded, unpacked), build/ (what the build left), build.log, check.json.
CREATE TABLE versions (
    id            INTEGER PRIMARY KEY,
    team_id       INTEGER NOT NULL REFERENCES teams(id),
    label         TEXT NOT NULL,
    language      TEXT NOT NULL,
    source_sha256 TEXT NOT NULL,
    source_bytes  INTEGER NOT NULL,
    submitted_at  INTEGER NOT NULL,
    -- queued -> building -> checking -> ready | failed
    state         TEXT NOT NULL DEFAULT 'queued'
                  CHECK (state IN ('queued', 'building', 'checking', 'ready', 'failed')),
    -- One line saying why a version failed (the build's limit, check's first failed item).
    failure       TEXT,
    -- The command that runs the built bot, as shell words, relative to its build directory.
    run_command   TEXT,
    built_at      INTEGER,
    checked_at    INTEGER,
    -- Who is building or checking it, and until when (as for matches): a build whose lease
    -- is gone is queued again.
    lease_owner   TEXT,
    lease_until   INTEGER,
    -- Weng-Lin rating, updated once per rated match.
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    matches       INTEGER NOT NULL DEFAULT 0,
    -- The SPRT evaluation against the pool, as JSON (null until it has data).
    sprt          TEXT
);
CREATE INDEX versions_team ON versions(team_id, id);
CREATE INDEX versions_state ON versions(state);

-- A match of the ladder: queued by the matchmaker, leased by a worker, finished with a record
-- under DIR/records/<id>.jsonl that the referee verified before the match counts.
CREATE TABLE matches (
    id           INTEGER PRIMARY KEY,
    created_at   INTEGER NOT NULL,
    -- queued -> running -> done | failed | void
    state        TEXT NOT NULL DEFAULT 'queued'
                 CHECK (state IN ('queued', 'running', 'done', 'failed', 'void')),
    -- Why the matchmaker made it ('placement', 'ladder', ...).
    kind         TEXT NOT NULL,
    seed         INTEGER NOT NULL,
    rounds       INTEGER NOT NULL,
    lease_owner  TEXT,
    lease_until  INTEGER,
    attempts     INTEGER NOT NULL DEFAULT 0,
    started_at   INTEGER,
    finished_at  INTEGER,
    -- Relative to DIR.
    record_path  TEXT,
    -- 1 once the ratings have taken this match into account (applied exactly once).
    rated        INTEGER NOT NULL DEFAULT 0,
    error        TEXT
);
CREATE INDEX matches_state ON matches(state, id);
CREATE INDEX matches_finished ON matches(finished_at);

-- The seats of a match: which version sat where, what it got, and its rating around it.
CREATE TABLE match_seats (
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    seat         INTEGER NOT NULL,
    version_id   INTEGER NOT NULL REFERENCES versions(id),
    points       REAL,
    rank         INTEGER,
    forfeits     INTEGER,
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_version ON match_seats(version_id, match_id);

-- Browser sessions: the cookie holds the session id; the table holds its hash.
CREATE TABLE sessions (
    id_hash     TEXT PRIMARY KEY,
    team_id     INTEGER REFERENCES teams(id),
    organiser   INTEGER NOT NULL DEFAULT 0,
    csrf        TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);

-- Failed logins, for rate limiting by address.
CREATE TABLE login_attempts (
    address     TEXT NOT NULL,
    at          INTEGER NOT NULL
);
CREATE INDEX login_attempts_address ON login_attempts(address, at);
