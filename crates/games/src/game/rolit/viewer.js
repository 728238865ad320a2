  // Rolit: the board after each move with the placed and flipped balls, the balls per colour,
  // the score plot. Part of rollarena's replay viewer: runs inside its shell (viewer.js in
  // crates/games/src/show/), whose helpers and state (game, ply, el, svg, ...) it uses.
  const LETTERS = { R: 'red', Y: 'yellow', G: 'green', B: 'blue' };
  const COLOURS = ['red', 'yellow', 'green', 'blue'];
  // ---- the board ----
  function squareOf(name, n) {
    const m = /^([a-z])([0-9]+)$/.exec(String(name));
    if (!m) return null;
    const file = m[1].charCodeAt(0) - 97;
    const rank = parseInt(m[2], 10);
    if (file < 0 || file >= n || rank < 1 || rank > n) return null;
    return { row: n - rank, file: file };
  }
  function counts(board) {
    const c = { red: 0, yellow: 0, green: 0, blue: 0 };
    for (const ch of board) if (LETTERS[ch]) c[LETTERS[ch]] += 1;
    return c;
  }
  function drawBoard() {
    const n = game.size;
    const board = game.boards[ply];
    const box = $('board');
    clear(box);
    const cell = 10;
    const pad = 6;
    const size = n * cell + pad * 2;
    box.setAttribute('viewBox', `0 0 ${size} ${size}`);
    const defs = svg('defs', {});
    for (const c of COLOURS) {
      const grad = svg('radialGradient', { id: 'ball-' + c, cx: '35%', cy: '30%', r: '70%' });
      grad.appendChild(svg('stop', { offset: '0%', 'stop-color': '#ffffff', 'stop-opacity': 0.85 }));
      grad.appendChild(svg('stop', { offset: '35%', 'stop-color': FILL[c] }));
      grad.appendChild(svg('stop', { offset: '100%', 'stop-color': FILL[c], 'stop-opacity': 1 }));
      grad.lastChild.setAttribute('stop-color', shade(FILL[c]));
      defs.appendChild(grad);
    }
    box.appendChild(defs);
    box.appendChild(svg('rect', { x: 0, y: 0, width: size, height: size, rx: 3, fill: '#1f5d4c' }));
    for (let i = 0; i <= n; i++) {
      box.appendChild(svg('line', { x1: pad, y1: pad + i * cell, x2: pad + n * cell, y2: pad + i * cell, stroke: '#174a3c', 'stroke-width': 0.4 }));
      box.appendChild(svg('line', { x1: pad + i * cell, y1: pad, x2: pad + i * cell, y2: pad + n * cell, stroke: '#174a3c', 'stroke-width': 0.4 }));
    }
    for (let i = 0; i < n; i++) {
      const f = svg('text', { x: pad + i * cell + cell / 2, y: size - 1.6, 'font-size': 3.2, fill: '#cfe3dc', 'text-anchor': 'middle' });
      f.textContent = String.fromCharCode(97 + i);
      box.appendChild(f);
      const r = svg('text', { x: pad / 2, y: pad + i * cell + cell / 2 + 1.1, 'font-size': 3.2, fill: '#cfe3dc', 'text-anchor': 'middle' });
      r.textContent = String(n - i);
      box.appendChild(r);
    }
    const mv = ply > 0 ? game.moves[ply - 1] : null;
    const placed = mv && typeof mv.move === 'string' ? squareOf(mv.move, n) : null;
    const flipped = new Set();
    if (mv && Array.isArray(mv.flipped)) {
      for (const s of mv.flipped) {
        const q = squareOf(s, n);
        if (q) flipped.add(q.row * n + q.file);
      }
    }
    for (let row = 0; row < n; row++) {
      for (let file = 0; file < n; file++) {
        const ch = board[row * n + file];
        const colour = LETTERS[ch];
        if (!colour) continue;
        const cx = pad + file * cell + cell / 2;
        const cy = pad + row * cell + cell / 2;
        const name = String.fromCharCode(97 + file) + (n - row);
        const ball = svg('circle', { cx: cx, cy: cy, r: 4.1, fill: `url(#ball-${colour})`, class: 'ball', 'data-square': name, 'data-colour': colour });
        box.appendChild(ball);
        if (placed && placed.row === row && placed.file === file) {
          box.appendChild(svg('circle', { cx: cx, cy: cy, r: 4.6, fill: 'none', stroke: '#ffffff', 'stroke-width': 0.9, class: 'placed' }));
        } else if (flipped.has(row * n + file)) {
          box.appendChild(svg('circle', { cx: cx, cy: cy, r: 4.6, fill: 'none', stroke: '#ffffff', 'stroke-width': 0.6, 'stroke-dasharray': '1.2 0.9', class: 'flipped' }));
        }
      }
    }
    box.setAttribute('data-ply', String(ply));
    box.setAttribute('data-board', board);
  }
  function shade(hex) {
    const v = parseInt(hex.slice(1), 16);
    const r = Math.round(((v >> 16) & 255) * 0.55);
    const g = Math.round(((v >> 8) & 255) * 0.55);
    const b = Math.round((v & 255) * 0.55);
    return '#' + ((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1);
  }

  // ---- the panels that follow the current move ----
  function toMoveSeat() {
    if (ply >= game.moves.length) return -1;
    return game.moves[ply].seat;
  }
  function drawSeats() {
    const list = $('seats');
    clear(list);
    const c = counts(game.boards[ply]);
    const next = toMoveSeat();
    const end = ply === game.moves.length;
    game.seats.forEach((s, seat) => {
      const li = el('li');
      li.setAttribute('data-seat', String(seat));
      if (seat === next) li.className = 'to-move';
      li.appendChild(dot(s.colour));
      li.appendChild(el('span', 'name', s.name));
      const bot = [s.bot_name, s.bot_version].filter((x) => x).join(' ');
      if (bot && bot !== s.name) li.appendChild(el('span', 'bot', bot));
      const forfeit = game.forfeits.find((f) => f.seat === seat && (end || f.ply <= ply));
      if (forfeit) li.appendChild(el('span', 'tag', 'forfeited: ' + forfeit.kind));
      li.appendChild(el('span', 'pts', end ? game.result.points[seat] + ' pts' : c[s.colour]));
      list.appendChild(li);
    });
  }
  function drawScores() {
    const box = $('scores');
    clear(box);
    const c = counts(game.boards[ply]);
    for (const colour of COLOURS) {
      const s = el('span', 'score');
      s.setAttribute('data-colour', colour);
      s.appendChild(dot(colour));
      s.appendChild(el('span', 'n', c[colour]));
      box.appendChild(s);
    }
  }
  function drawStatus() {
    const box = $('status');
    clear(box);
    $('plylabel').textContent = `move ${ply} / ${game.moves.length}`;
    $('slider').value = String(ply);
    if (ply === 0) {
      const first = game.seats[game.first];
      box.textContent = `start: ${first ? first.colour : ''} (${seatName(game, game.first)}) moves first`;
      return;
    }
    const m = game.moves[ply - 1];
    box.appendChild(dot(m.colour));
    box.appendChild(el('span', '', ` ${seatName(game, m.seat)} plays ${typeof m.move === 'string' ? m.move : JSON.stringify(m.move)}`));
    box.appendChild(el('span', 'muted', m.by_arbiter ? ' (played by the arbiter for a forfeited seat)' : ` in ${fmtMs(m.ms)}`));
    const flips = Array.isArray(m.flipped) ? m.flipped : [];
    box.appendChild(el('span', '', flips.length ? `, flips ${flips.join(' ')}` : ', flips nothing'));
    if (m.refused && m.refused.length) box.appendChild(el('span', 'muted', `, after ${m.refused.length} refused attempt${m.refused.length > 1 ? 's' : ''}`));
    if (ply === game.moves.length) box.appendChild(el('div', 'muted', 'the round is over'));
  }
  function drawScorePlot() {
    const box = $('score-plot');
    clear(box);
    const series = { red: [], yellow: [], green: [], blue: [] };
    let max = 1;
    for (const b of game.boards) {
      const c = counts(b);
      for (const colour of COLOURS) {
        series[colour].push(c[colour]);
        max = Math.max(max, c[colour]);
      }
    }
    axes(box, max, String(max));
    const played = new Set(game.seats.map((s) => s.colour));
    const y = (v) => PLOT.h - PLOT.bottom - (PLOT.h - PLOT.bottom - PLOT.top) * (v / max);
    for (const colour of COLOURS) {
      const pts = series[colour].map((v, i) => `${plotX(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      const line = svg('polyline', { points: pts, fill: 'none', stroke: FILL[colour], 'stroke-width': played.has(colour) ? 2 : 1.2, class: 'series', 'data-colour': colour });
      if (!played.has(colour)) line.setAttribute('stroke-dasharray', '4 3');
      box.appendChild(line);
    }
    // Where each seat lost the most ground: the move after which its share of the board fell
    // the most, i.e. that took the most of its balls (the later on a tie: late losses decide
    // more). Its share of the balls placed would make every opening move look the worst, as
    // one flip of five balls is a fifth. Marked on its line (a click goes there) and named in
    // the legend.
    const drops = {};
    const squares = game.size * game.size;
    for (const colour of played) {
      let best = null;
      for (let i = 1; i < series[colour].length; i++) {
        const lost = series[colour][i - 1] - series[colour][i];
        if (lost > 0 && (best === null || lost >= best.lost)) best = { ply: i, lost };
      }
      if (best === null) continue;
      drops[colour] = best;
      const m = game.moves[best.ply - 1];
      const by = m ? `${seatName(game, m.seat)}'s ${typeof m.move === 'string' ? m.move : JSON.stringify(m.move)}` : '';
      const text = `${colour} lost the most ground at move ${best.ply} (${by}): ${best.lost} of its balls turned, ${(100 * best.lost / squares).toFixed(1)}% of the board`;
      const mark = svg('g', { class: 'drop', 'data-colour': colour, 'data-ply': best.ply, 'data-lost': best.lost, style: 'cursor:pointer' });
      const x = plotX(best.ply), yy = y(series[colour][best.ply]);
      mark.appendChild(svg('path', { d: `M${(x - 3.2).toFixed(1)},${(yy + 3).toFixed(1)}h6.4l-3.2,5.5z`, fill: FILL[colour], stroke: '#222', 'stroke-width': 0.6 }));
      mark.appendChild(svg('title', {}, text));
      mark.addEventListener('click', () => { stop(); show(best.ply); });
      box.appendChild(mark);
    }
    cursor(box);
    const legend = $('score-legend');
    clear(legend);
    for (const colour of COLOURS) {
      const s = el('span');
      s.appendChild(dot(colour));
      const seat = game.seats.findIndex((x) => x.colour === colour);
      s.appendChild(document.createTextNode(' ' + (seat >= 0 ? seatName(game, seat) : colour + ' (nobody)')));
      if (drops[colour]) {
        const b = el('button', 'drop-link', `▼ move ${drops[colour].ply}: −${drops[colour].lost}`);
        b.title = 'where it lost the most ground: the move that turned the most of its balls (go there)';
        b.addEventListener('click', () => { stop(); show(drops[colour].ply); });
        s.appendChild(document.createTextNode(' '));
        s.appendChild(b);
      }
      legend.appendChild(s);
    }
  }
  function drawResult() {
    const r = game.result;
    const seats = game.seats.map((s, i) => i).sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
    const rows = seats.map((seat) => {
      const name = el('span');
      name.appendChild(dot(game.seats[seat].colour));
      name.appendChild(document.createTextNode(' ' + seatName(game, seat)));
      const f = game.forfeits.find((x) => x.seat === seat);
      return [r.ranks[seat], seat, name, game.seats[seat].colour, r.scores[game.seats[seat].colour], r.points[seat], fmtWins(r.wins[seat]), f ? `${f.kind} at move ${f.ply}` : ''];
    });
    const box = $('result');
    clear(box);
    box.appendChild(table([
      { label: 'rank', num: true }, { label: 'seat', num: true }, { label: 'name' }, { label: 'colour' },
      { label: 'balls', num: true }, { label: 'points', num: true }, { label: 'win', num: true }, { label: 'forfeit' },
    ], rows));
    const scores = Object.keys(r.scores).map((c) => `${c} ${r.scores[c]}`).join(', ');
    box.appendChild(el('div', 'muted', 'balls on the final board: ' + scores));
  }
  function drawAbout() {
    const box = $('about');
    clear(box);
    const s = game.settings;
    const add = (k, v) => { box.appendChild(el('dt', '', k)); box.appendChild(el('dd', '', v)); };
    add('game', `${game.game} ${game.size}x${game.size}, ${game.seats.length} players`);
    add('match', `${game.match}${game.table ? ', table ' + game.table : ''}, round ${game.round} of ${game.rounds}`);
    add('seeds', `match ${game.match_seed}, round ${game.seed}`);
    add('clock', `${s.move_ms} ms per move (+${s.margin_ms} ms margin), ${s.startup_ms} ms start-up, ${s.retries} retries`);
    add('played', `${game.started} to ${game.ended}, arbiter ${game.arbiter}`);
    game.seats.forEach((seat, i) => add(`seat ${i}`, `${seat.name}: ${seat.command}${seat.bot_author ? ' (by ' + seat.bot_author + ')' : ''}`));
  }

  VIEWS.rolit = {
    last: () => game.moves.length,
    select() {
      drawMoves((m) => (Array.isArray(m.flipped) ? m.flipped.length : ''));
      drawScorePlot();
      drawTimePlot();
      drawResult();
      drawAbout();
    },
    show() {
      drawBoard();
      drawSeats();
      drawScores();
      drawStatus();
      markMove();
      drawCursors();
    },
  };
