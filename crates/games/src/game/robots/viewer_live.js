  // Rock'n'Roll Robot's live part (the arena's live board, crates/games/src/show/live.js): the board, the
  // token and the robots as the stream shows them, a step per action (a demonstration shows
  // where the robots ended; its moves one by one come with the finished round's replay), and
  // the tokens won as the score.
  LIVE.robots = (g, start) => {
    const b = start.board;
    let walls = '';
    for (let i = 0; i < 256; i++) {
      const sides = b.walls[String.fromCharCode(97 + (i % 16)) + (Math.floor(i / 16) + 1)] || '';
      walls += ((sides.includes('N') ? 1 : 0) | (sides.includes('E') ? 2 : 0) | (sides.includes('S') ? 4 : 0) | (sides.includes('W') ? 8 : 0)).toString(16);
    }
    const steps = [{ action: null, robots: start.robots }];
    let st = start;
    const actions = g.moves.map((m, i) => {
      st = m.state || st;
      const e = m.effects || {};
      const mv = m.move && typeof m.move === 'object' ? m.move : {};
      const a = {
        ply: m.ply, kind: m.kind, seat: m.seat, move: m.move, at_ms: m.at_ms === null || m.at_ms === undefined ? m.ms : m.at_ms,
        by_arbiter: m.by_arbiter, refused: m.refused, hourglass_ends_ms: e.hourglass_ends_ms, step: steps.length,
      };
      if (m.kind === 'declare') a.declared = typeof mv.moves === 'number' ? mv.moves : null;
      if (m.kind === 'solution') {
        a.declared = e.declared === undefined ? null : e.declared;
        a.sent = mv.moves !== undefined && mv.moves !== null;
        a.unreadable = a.sent && !Array.isArray(mv.moves);
        a.count = Array.isArray(mv.moves) ? mv.moves.length : 0;
        a.ok = e.ok === true;
        a.reason = e.reason || '';
      }
      steps.push(Object.assign({ action: i, robots: st.robots }, m.kind === 'solution' ? { verdict: true } : {}));
      return a;
    });
    const won = actions.find((a) => a.kind === 'solution' && a.ok);
    const token = String(start.token);
    const fields = {
      board: { walls: walls, blocked: b.blocked, diagonals: b.diagonals, targets: b.targets, boards: b.boards || [] },
      token: token,
      token_robot: token.includes('-') ? token.split('-')[0] : null,
      target: start.target,
      start: start.robots,
      actions: actions,
      steps: steps,
      winner: won ? won.seat : null,
      optimal: st.outcome ? st.outcome.optimal : null,
      tokens_before: start.tokens,
      tokens_after: st.tokens,
      face_down: 0,
      pile: st.pile,
      ends_match: false,
    };
    if (!g.result) {
      const pts = st.tokens;
      fields.result = { points: pts, ranks: pts.map((p) => 1 + pts.filter((x) => x > p).length), wins: pts.map(() => 0) };
    }
    return fields;
  };
