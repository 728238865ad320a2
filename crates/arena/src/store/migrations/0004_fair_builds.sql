-- Builds that fail only themselves, and fair builds (issue 40).

-- Builds started for the version (counted before each starts, so a build that takes the
-- builder down is counted): one whose build crashed the builder twice is marked failed.
ALTER TABLE versions ADD COLUMN build_attempts INTEGER NOT NULL DEFAULT 0;
-- When its last build started (the builders serve the team whose last build is oldest first).
ALTER TABLE versions ADD COLUMN build_started_at INTEGER;
-- Since when its team has waited for this build: its submission time, or the time of the
-- queued version it superseded.
ALTER TABLE versions ADD COLUMN waiting_since INTEGER;
UPDATE versions SET waiting_since = submitted_at;
CREATE INDEX versions_team_submitted ON versions(team_id, submitted_at);

-- Times a match's worker died with it (its lease expired, or the server restarted while it
-- played): a match that took its worker down twice is marked failed.
ALTER TABLE matches ADD COLUMN crashes INTEGER NOT NULL DEFAULT 0;

-- A version a newer submission of its team replaced while it was still queued: it is never
-- built, and its `failure` says "superseded by version N". SQLite cannot alter a CHECK
-- constraint, and rebuilding `versions` would have to rebuild every table that refers to it;
-- widening the list of states changes no stored row, so the table's definition is edited in
-- place, as SQLite's documentation describes for such changes ("Making Other Kinds Of Table
-- Schema Changes"; the migration bumps schema_version so every connection reloads it). Last:
-- nothing after it in this transaction may use the connection's stale schema.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
   SET sql = replace(sql,
       'CHECK (state IN (''queued'', ''building'', ''checking'', ''ready'', ''failed''))',
       'CHECK (state IN (''queued'', ''building'', ''checking'', ''ready'', ''failed'', ''superseded''))')
 WHERE type = 'table' AND name = 'versions';
PRAGMA writable_schema = OFF;
