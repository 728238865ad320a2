-- The contest's last day: the final tournament's tables, and the order matches were counted in
-- (so the ratings can be rebuilt from scratch in exactly the order the ladder applied them).

-- Each match of the final tournament (matches.kind = 'final') and its table in the
-- tournament's schedule (numbered from 1, as `rollarena tournament` numbers them), with the
-- Swiss round (phase) that made it (1 for fixed schedules).
CREATE TABLE final_tables (
    match_id     INTEGER PRIMARY KEY REFERENCES matches(id),
    table_index  INTEGER NOT NULL UNIQUE,
    phase        INTEGER NOT NULL
);

-- The order in which done matches were counted (1, 2, ...): ratings are rebuilt in this order
-- by a re-judging. Matches counted before this column existed keep NULL and come first, in
-- the order they finished.
ALTER TABLE matches ADD COLUMN counted_seq INTEGER;
