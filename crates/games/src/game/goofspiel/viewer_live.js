  // Goofspiel's live part (the arena's live board, crates/games/src/show/live.js): the audience's state
  // after each bid as the stream shows it (each hand as a count, each bid sealed until the
  // turn's last is in), and the prize points as the score while the round is in play.
  LIVE.goofspiel = (g, start) => {
    let st = start;
    const states = [start].concat(g.moves.map((m) => (st = m.state || st)));
    const fields = { states: states };
    if (!g.result) {
      const pts = states[states.length - 1].scores;
      fields.result = { points: pts, ranks: pts.map((p) => 1 + pts.filter((x) => x > p).length), wins: pts.map(() => 0) };
    }
    return fields;
  };
