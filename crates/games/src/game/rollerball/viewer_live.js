  // Rollerball's live part (the arena's live board, crates/games/src/show/live.js): the audience's state
  // after each decision as the stream shows it (hands as counts, bids sealed until revealed,
  // no card drawn for a pending reward), each decision's public events in words, the victory
  // points at the end of each turn; the ball phase shows as the state after it (its steps
  // come with the finished round's replay).
  LIVE.rollerball = (g, start) => {
    let st = start;
    const states = [start].concat(g.moves.map((m) => (st = m.state || st)));
    const colour = (seat) => (g.seats[seat] && g.seats[seat].colour) || `seat ${seat}`;
    const words = (e) => {
      const rest = Object.keys(e).filter((k) => k !== 'event').map((k) => (k === 'seat' ? colour(e.seat) : `${k} ${typeof e[k] === 'string' ? e[k] : JSON.stringify(e[k])}`));
      return `${e.event}${rest.length ? ': ' + rest.join(', ') : ''}`;
    };
    const decisions = g.moves.map((m) => {
      const events = (m.effects && m.effects.events) || [];
      return { events: events, words: events.map(words), secrets: [], steps: [] };
    });
    const vp = [];
    states.forEach((s, i) => {
      const next = states[i + 1];
      if (!next || next.turn !== s.turn) vp.push({ turn: s.turn, vp: s.players.map((p) => p.vp.length) });
    });
    const fields = {
      tracks: start.tracks,
      states: states,
      decisions: decisions,
      vp: vp,
      turns: states.map((s) => s.turn),
      options: Object.assign({ turn_limit: start.turn_limit }, g.options),
    };
    g.seats.forEach((s, i) => { if (!s.colour && start.players[i]) s.colour = start.players[i].colour; });
    if (!g.result) {
      const pts = states[states.length - 1].players.map((p) => p.vp.length);
      fields.result = { points: pts, ranks: pts.map((p) => 1 + pts.filter((x) => x > p).length), wins: pts.map(() => 0) };
    }
    return fields;
  };
