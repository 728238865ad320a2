  // Rolit's live part (the arena's live board, crates/games/src/show/live.js): the board after each move
  // as the stream shows it, each move's flipped balls, and the balls per colour as the score
  // while the round is in play.
  LIVE.rolit = (g, start) => {
    const states = [start].concat(g.moves.map((m) => m.state));
    const size = start ? start.board.length : 8;
    const empty = '.'.repeat(size * size);
    let board = empty;
    const boards = states.map((s) => (board = s && Array.isArray(s.board) ? s.board.join('') : board));
    const moves = g.moves.map((m) => Object.assign({}, m, { flipped: (m.effects && m.effects.flipped) || [] }));
    const fields = { size: size, boards: boards, moves: moves };
    if (!g.result) {
      // Until the round is over: the balls on the board, the most ranked first.
      const count = {};
      for (const ch of boards[boards.length - 1]) count[ch] = (count[ch] || 0) + 1;
      const balls = g.seats.map((s) => count[(s.colour || '?')[0].toUpperCase()] || 0);
      const scores = {};
      g.seats.forEach((s, i) => { if (s.colour) scores[s.colour] = balls[i]; });
      fields.result = { points: balls, ranks: balls.map((b) => 1 + balls.filter((x) => x > b).length), wins: balls.map(() => 0), scores: scores };
    }
    return fields;
  };
