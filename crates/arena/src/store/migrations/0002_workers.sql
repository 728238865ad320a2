-- Remote workers (`rollarena worker`) and the artifacts they run.

-- A worker's registration: its token (as a SHA-256), what it last said of itself, and the
-- uploads the server refused from it. Separate from teams: a worker's token opens the worker
-- API only, and a team's or the organiser's never opens it.
CREATE TABLE workers (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE,
    token_hash      TEXT NOT NULL UNIQUE,
    created_at      INTEGER NOT NULL,
    -- 1 once the organiser revoked its token (`arena worker DIR NAME --revoke`).
    revoked         INTEGER NOT NULL DEFAULT 0,
    -- What its last request said: the process's own name (--name), rollarena's version, the
    -- CPU architecture, the matches it plays at once.
    instance        TEXT,
    version         TEXT,
    arch            TEXT,
    jobs            INTEGER,
    last_contact    INTEGER,
    -- Records it uploaded that did not verify (kept in DIR/refused/).
    refused_uploads INTEGER NOT NULL DEFAULT 0
);

-- Every match a worker's upload counted, for its throughput.
CREATE TABLE worker_matches (
    worker_id   INTEGER NOT NULL REFERENCES workers(id),
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    finished_at INTEGER NOT NULL
);
CREATE INDEX worker_matches_worker ON worker_matches(worker_id, finished_at);

-- The remote worker that holds a running match (NULL: an embedded one).
ALTER TABLE matches ADD COLUMN worker_id INTEGER REFERENCES workers(id);

-- A version's artifact: its build directory packed deterministically into a tar
-- (DIR/versions/<id>/artifact.tar), its SHA-256 and size, and the CPU architecture it was
-- built on. NULL until first needed.
ALTER TABLE versions ADD COLUMN artifact_sha256 TEXT;
ALTER TABLE versions ADD COLUMN artifact_bytes INTEGER;
ALTER TABLE versions ADD COLUMN artifact_arch TEXT;
