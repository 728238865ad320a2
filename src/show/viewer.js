'use strict';
// rollarena's replay viewer. The data comes from the JSON element and is only ever put into the
// page as text (textContent, attribute values of SVG shapes): nothing a bot wrote can become
// markup or code.
(function () {
  const DATA = JSON.parse(document.getElementById('replay-data').textContent);
  const SVG = 'http://www.w3.org/2000/svg';
  const LETTERS = { R: 'red', Y: 'yellow', G: 'green', B: 'blue' };
  const COLOURS = ['red', 'yellow', 'green', 'blue'];
  const FILL = { red: '#d62f2f', yellow: '#f2c230', green: '#2e9e4f', blue: '#2f6fd6' };
  const $ = (id) => document.getElementById(id);

  let game = null; // the round shown
  let ply = 0; // moves played on the board shown
  let timer = null; // the play timer

  // ---- small DOM helpers (text only) ----
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    return e;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }
  function dot(colour) {
    const d = el('span', 'dot');
    d.style.background = FILL[colour] || '#999';
    d.title = colour || '';
    return d;
  }
  function fmtMs(ms) {
    if (ms === null || ms === undefined) return '';
    if (ms >= 1000) return (ms / 1000).toFixed(2) + ' s';
    if (ms >= 100) return ms.toFixed(0) + ' ms';
    if (ms >= 1) return ms.toFixed(1) + ' ms';
    return ms.toFixed(3) + ' ms';
  }
  function seatName(g, seat) {
    const s = g.seats[seat];
    return s ? s.name : 'seat ' + seat;
  }
  function table(headers, rows) {
    const t = el('table');
    const head = el('tr');
    for (const h of headers) head.appendChild(el('th', h.num ? 'num' : '', h.label));
    const thead = el('thead');
    thead.appendChild(head);
    t.appendChild(thead);
    const body = el('tbody');
    for (const r of rows) {
      const tr = el('tr');
      r.forEach((cell, i) => {
        const td = el('td', headers[i].num ? 'num' : '');
        if (cell instanceof Node) td.appendChild(cell);
        else td.textContent = cell === null || cell === undefined ? '' : String(cell);
        tr.appendChild(td);
      });
      body.appendChild(tr);
    }
    t.appendChild(body);
    return t;
  }
  function fmtWins(w) {
    return Number.isInteger(w) ? String(w) : w.toFixed(2);
  }

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
  let rowsByPly = [];
  function markMove() {
    for (const tr of document.querySelectorAll('#moves tr.current')) tr.classList.remove('current');
    const tr = rowsByPly[ply];
    if (tr) {
      tr.classList.add('current');
      const box = $('moves-box');
      const top = tr.offsetTop - box.offsetTop;
      if (top < box.scrollTop + 20 || top > box.scrollTop + box.clientHeight - 40) box.scrollTop = top - box.clientHeight / 2;
    }
  }
  function drawCursors() {
    for (const id of ['score-plot', 'time-plot']) {
      const line = $(id).querySelector('.cursor');
      if (!line) continue;
      const x = plotX(id === 'score-plot' ? ply : Math.max(ply, 0.5) - 0.5);
      line.setAttribute('x1', String(x));
      line.setAttribute('x2', String(x));
    }
  }
  function show(p) {
    const next = Math.max(0, Math.min(last(), p));
    const animate = next === ply + 1;
    ply = next;
    if (isRobots()) return robotsShow(animate);
    drawBoard();
    drawSeats();
    drawScores();
    drawStatus();
    markMove();
    drawCursors();
  }

  // ---- the move list ----
  function drawMoves() {
    const body = $('moves').querySelector('tbody');
    clear(body);
    rowsByPly = [];
    const start = el('tr', 'move');
    start.appendChild(el('td', 'num', '0'));
    const td = el('td', 'muted', 'start');
    td.colSpan = 4;
    start.appendChild(td);
    start.addEventListener('click', () => { stop(); show(0); });
    body.appendChild(start);
    rowsByPly[0] = start;
    const forfeitsAt = (p) => game.forfeits.filter((f) => f.ply === p || (p === 1 && f.ply === 0));
    game.moves.forEach((m, i) => {
      const p = i + 1;
      for (const f of forfeitsAt(p)) body.appendChild(forfeitRow(f));
      const tr = el('tr', 'move');
      tr.appendChild(el('td', 'num', p));
      const who = el('td');
      who.appendChild(dot(m.colour));
      who.appendChild(document.createTextNode(' ' + seatName(game, m.seat)));
      tr.appendChild(who);
      tr.appendChild(el('td', '', typeof m.move === 'string' ? m.move : JSON.stringify(m.move)));
      tr.appendChild(m.by_arbiter ? el('td', 'num arbiter', 'arbiter') : el('td', 'num', fmtMs(m.ms)));
      tr.appendChild(el('td', 'num', Array.isArray(m.flipped) ? m.flipped.length : ''));
      tr.addEventListener('click', () => { stop(); show(p); });
      body.appendChild(tr);
      for (const [k, r] of (m.refused || []).entries()) {
        const rr = el('tr', 'refused');
        rr.appendChild(el('td', 'num', ''));
        const cell = el('td');
        cell.colSpan = 4;
        cell.appendChild(el('span', '', `↳ refused attempt ${k + 1} at ${fmtMs(r.ms)}: `));
        cell.appendChild(el('span', 'line', r.line));
        cell.appendChild(el('div', '', r.reason));
        rr.appendChild(cell);
        body.appendChild(rr);
      }
      rowsByPly[p] = tr;
    });
    for (const f of game.forfeits.filter((f) => f.ply > game.moves.length)) body.appendChild(forfeitRow(f));
  }
  function forfeitRow(f) {
    const tr = el('tr', 'forfeit');
    tr.appendChild(el('td', 'num', ''));
    const td = el('td', '', `${seatName(game, f.seat)} forfeits (${f.kind}): ${f.detail}`);
    td.colSpan = 4;
    tr.appendChild(td);
    return tr;
  }

  // ---- plots ----
  const PLOT = { w: 600, h: 160, left: 56, right: 8, top: 8, bottom: 18 };
  function plotX(i) {
    return PLOT.left + (PLOT.w - PLOT.left - PLOT.right) * (i / Math.max(game.moves.length, 1));
  }
  function axes(box, max, label) {
    const bottom = PLOT.h - PLOT.bottom;
    box.appendChild(svg('line', { x1: PLOT.left, y1: bottom, x2: PLOT.w - PLOT.right, y2: bottom, stroke: '#999', 'stroke-width': 1 }));
    box.appendChild(svg('line', { x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: bottom, stroke: '#999', 'stroke-width': 1 }));
    const top = svg('text', { x: PLOT.left - 4, y: PLOT.top + 8, 'font-size': 10, fill: '#666', 'text-anchor': 'end' });
    top.textContent = label;
    box.appendChild(top);
    const zero = svg('text', { x: PLOT.left - 4, y: bottom, 'font-size': 10, fill: '#666', 'text-anchor': 'end' });
    zero.textContent = '0';
    box.appendChild(zero);
    const end = svg('text', { x: PLOT.w - PLOT.right, y: PLOT.h - 4, 'font-size': 10, fill: '#666', 'text-anchor': 'end' });
    end.textContent = `move ${game.moves.length}`;
    box.appendChild(end);
  }
  function cursor(box) {
    box.appendChild(svg('line', { class: 'cursor', x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: PLOT.h - PLOT.bottom, stroke: '#b5651d', 'stroke-width': 1.5 }));
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
    cursor(box);
    const legend = $('score-legend');
    clear(legend);
    for (const colour of COLOURS) {
      const s = el('span');
      s.appendChild(dot(colour));
      const seat = game.seats.findIndex((x) => x.colour === colour);
      s.appendChild(document.createTextNode(' ' + (seat >= 0 ? seatName(game, seat) : colour + ' (nobody)')));
      legend.appendChild(s);
    }
  }
  function drawTimePlot() {
    const box = $('time-plot');
    clear(box);
    const n = game.moves.length;
    let max = 0;
    for (const m of game.moves) max = Math.max(max, m.ms || 0);
    const label = max > 0 ? fmtMs(max) : '0 ms';
    if (max <= 0) max = 1;
    axes(box, max, label);
    const height = PLOT.h - PLOT.bottom - PLOT.top;
    const w = Math.max(1, (PLOT.w - PLOT.left - PLOT.right) / Math.max(n, 1) - 1);
    game.moves.forEach((m, i) => {
      const x = plotX(i);
      const h = m.by_arbiter ? 0 : Math.max(0.5, height * ((m.ms || 0) / max));
      const bar = svg('rect', { x: x.toFixed(2), y: (PLOT.h - PLOT.bottom - h).toFixed(2), width: w.toFixed(2), height: h.toFixed(2), fill: FILL[m.colour] || '#999', class: 'bar' });
      const title = svg('title', {});
      title.textContent = `move ${i + 1}: ${m.move} ${m.by_arbiter ? 'by the arbiter' : fmtMs(m.ms)}`;
      bar.appendChild(title);
      box.appendChild(bar);
      if (m.refused && m.refused.length) {
        box.appendChild(svg('circle', { cx: (x + w / 2).toFixed(2), cy: PLOT.top + 3, r: 2.5, fill: '#8f1d16' }));
      }
      if (m.by_arbiter) {
        box.appendChild(svg('rect', { x: x.toFixed(2), y: PLOT.h - PLOT.bottom - 3, width: w.toFixed(2), height: 3, fill: '#bbb' }));
      }
    });
    cursor(box);
    const legend = $('time-legend');
    clear(legend);
    const total = {};
    for (const m of game.moves) if (!m.by_arbiter) total[m.seat] = (total[m.seat] || 0) + (m.ms || 0);
    game.seats.forEach((s, seat) => {
      const span = el('span');
      span.appendChild(dot(s.colour));
      span.appendChild(document.createTextNode(` ${s.name}: ${fmtMs(total[seat] || 0)} in all`));
      legend.appendChild(span);
    });
    legend.appendChild(el('span', '', '● refused attempts · grey: the arbiter played'));
  }

  // ---- details ----
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
  function drawStandings() {
    const box = $('standings');
    clear(box);
    const m = DATA.matches.find((x) => x.match === game.match && x.table === game.table);
    if (!m) return;
    const note = m.whole
      ? `match ${m.match}${m.table ? ' (table ' + m.table + ')' : ''}: all ${m.rounds} rounds`
      : `match ${m.match}: the file holds ${m.games.length} of its ${m.rounds} rounds; standings over those only`;
    box.appendChild(el('div', 'muted', note));
    box.appendChild(table([
      { label: 'rank', num: true }, { label: 'seat', num: true }, { label: 'name' }, { label: 'wins', num: true },
      { label: 'points', num: true }, { label: 'outright', num: true }, { label: 'rounds', num: true }, { label: 'forfeits' },
    ], m.standings.map((s) => [
      s.rank, s.seat, s.name, fmtWins(s.wins), s.points, s.outright, s.rounds,
      Object.keys(s.forfeits).map((k) => `${k} ${s.forfeits[k]}`).join(', ') || '-',
    ])));
    const games = el('div', 'muted', 'its rounds in this file: ');
    for (const g of m.games) {
      const b = el('button', '', `game ${g}`);
      b.addEventListener('click', () => select(g));
      games.appendChild(b);
      games.appendChild(document.createTextNode(' '));
    }
    box.appendChild(games);
  }
  function drawFaults() {
    const box = $('faults');
    clear(box);
    if (!game.forfeits.length && !game.faults.length) {
      box.appendChild(el('div', 'muted', 'none'));
      return;
    }
    for (const f of game.forfeits) {
      const d = el('div');
      d.appendChild(el('strong', '', `${seatName(game, f.seat)} forfeited (${f.kind}) at ${isRobots() ? 'action' : 'move'} ${f.ply}: `));
      d.appendChild(el('span', '', f.detail));
      if (f.exit) d.appendChild(el('div', 'muted', 'exit: ' + JSON.stringify(f.exit)));
      if (f.line) { d.appendChild(el('div', 'muted', 'line:')); d.appendChild(el('pre', '', f.line)); }
      if (f.stderr_tail) { d.appendChild(el('div', 'muted', 'stderr tail:')); d.appendChild(el('pre', '', f.stderr_tail)); }
      box.appendChild(d);
    }
    for (const f of game.faults) {
      const d = el('div');
      d.appendChild(el('strong', '', `${seatName(game, f.seat)} ${f.kind}: `));
      d.appendChild(el('span', '', f.detail));
      if (f.line) d.appendChild(el('pre', '', f.line));
      box.appendChild(d);
    }
  }
  function drawLogs() {
    const box = $('logs');
    clear(box);
    if (!game.logs.length) box.appendChild(el('div', 'muted', 'none'));
    else box.appendChild(table([{ label: 'seat' }, { label: 'after move', num: true }, { label: 'text' }],
      game.logs.map((l) => [seatName(game, l.seat), l.ply, el('pre', '', l.text)])));
    const err = $('stderr');
    clear(err);
    let any = false;
    game.stderr.forEach((text, seat) => {
      if (!text) return;
      any = true;
      err.appendChild(el('div', 'muted', seatName(game, seat) + ':'));
      err.appendChild(el('pre', '', text));
    });
    if (!any) err.appendChild(el('div', 'muted', 'nothing'));
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

  // ---- Rock'n'Roll Robot ----
  // A robots round is one token. The viewer steps through `game.steps` (computed by the engine
  // in Rust): the start, each declaration, each move of each demonstration, and the return of
  // the robots after a failed one. Each step holds every robot's cell.
  const ROBOT_FILL = { red: '#d62f2f', green: '#2e9e4f', blue: '#2f6fd6', yellow: '#f2c230', black: '#262626' };
  // Seats are told apart by colours no robot has.
  const SEAT_FILL = ['#7b3fa0', '#1f8a8a', '#c2185b', '#6d4c41', '#5d6d1f', '#0b4f6c', '#e07b91', '#808080'];
  const CELLS = 16;
  const RC = 10; // cell size
  const RP = 6; // padding around the board
  const BG = '#f4efe3';
  let anim = null; // the animation frame of a robot on its way
  function isRobots() {
    return game !== null && game.game === 'robots';
  }
  function last() {
    return isRobots() ? game.steps.length - 1 : game.moves.length;
  }
  function seatDot(seat) {
    const d = el('span', 'dot');
    d.style.background = SEAT_FILL[seat % SEAT_FILL.length];
    d.title = 'seat ' + seat;
    return d;
  }
  function cellXY(name) {
    const m = /^([a-p])([0-9]{1,2})$/.exec(String(name));
    if (!m) return null;
    const file = m[1].charCodeAt(0) - 97;
    const rank = parseInt(m[2], 10);
    if (rank < 1 || rank > CELLS) return null;
    return { x: RP + file * RC + RC / 2, y: RP + (CELLS - rank) * RC + RC / 2 };
  }
  function robotsKey(robots) {
    return Object.keys(robots).sort().map((r) => `${r}:${robots[r]}`).join(',');
  }
  function robotsList(robots) {
    return Object.keys(robots).map((r) => `${r} ${robots[r]}`).join(', ');
  }
  // A setting's duration: "300 ms", "60 s", "1.50 s".
  function fmtDur(ms) {
    return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : fmtMs(ms);
  }
  function plural(n, what) {
    return `${n} ${what}${n === 1 ? '' : 's'}`;
  }
  function optimalText() {
    const o = game.optimal;
    if (!o) return '';
    if (typeof o.moves === 'number') return `the optimal is ${plural(o.moves, 'move')}`;
    if (o.impossible) return 'the solver finds no solution';
    if (o.gave_up) return `the solver gave up after ${o.searched} nodes${o.at_least ? ': at least ' + plural(o.at_least, 'move') : ''}`;
    return '';
  }
  // A target's symbol (moon, star, gear, planet in its colour; the vortex in all four).
  function symbol(box, token, cx, cy, cls) {
    const parts = String(token).split('-');
    const fill = ROBOT_FILL[parts[0]] || '#888';
    const g = svg('g', { class: cls, 'data-token': token });
    const s = parts[1] || 'vortex';
    if (s === 'moon') {
      g.appendChild(svg('circle', { cx: cx, cy: cy, r: 2.7, fill: fill }));
      g.appendChild(svg('circle', { cx: cx + 1.3, cy: cy - 0.9, r: 2.2, fill: BG }));
    } else if (s === 'star') {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        const r = i % 2 ? 1.2 : 3;
        pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
      }
      g.appendChild(svg('polygon', { points: pts.join(' '), fill: fill }));
    } else if (s === 'gear') {
      g.appendChild(svg('circle', { cx: cx, cy: cy, r: 2.2, fill: fill, stroke: fill, 'stroke-width': 1.2, 'stroke-dasharray': '0.9 0.8' }));
      g.appendChild(svg('circle', { cx: cx, cy: cy, r: 0.8, fill: BG }));
    } else if (s === 'planet') {
      g.appendChild(svg('circle', { cx: cx, cy: cy, r: 1.8, fill: fill }));
      g.appendChild(svg('ellipse', { cx: cx, cy: cy, rx: 3.4, ry: 1.1, fill: 'none', stroke: fill, 'stroke-width': 0.6, transform: `rotate(-25 ${cx} ${cy})` }));
    } else {
      ['red', 'green', 'blue', 'yellow'].forEach((c, i) => {
        const a0 = (i * Math.PI) / 2;
        const a1 = a0 + Math.PI / 2;
        const p = (a) => `${(cx + 3 * Math.cos(a)).toFixed(2)} ${(cy + 3 * Math.sin(a)).toFixed(2)}`;
        g.appendChild(svg('path', { d: `M${cx} ${cy} L${p(a0)} A3 3 0 0 1 ${p(a1)} Z`, fill: ROBOT_FILL[c] }));
      });
    }
    box.appendChild(g);
    return g;
  }
  function robotsBoard(animate) {
    if (anim) cancelAnimationFrame(anim);
    anim = null;
    const box = $('board');
    clear(box);
    const size = CELLS * RC + RP * 2;
    box.setAttribute('viewBox', `0 0 ${size} ${size}`);
    box.appendChild(svg('rect', { x: 0, y: 0, width: size, height: size, rx: 3, fill: '#3b3430' }));
    box.appendChild(svg('rect', { x: RP, y: RP, width: CELLS * RC, height: CELLS * RC, fill: BG }));
    for (let i = 1; i < CELLS; i++) {
      box.appendChild(svg('line', { x1: RP, y1: RP + i * RC, x2: RP + CELLS * RC, y2: RP + i * RC, stroke: '#ddd3bf', 'stroke-width': 0.3 }));
      box.appendChild(svg('line', { x1: RP + i * RC, y1: RP, x2: RP + i * RC, y2: RP + CELLS * RC, stroke: '#ddd3bf', 'stroke-width': 0.3 }));
    }
    for (let i = 0; i < CELLS; i++) {
      const f = svg('text', { x: RP + i * RC + RC / 2, y: size - 1.6, 'font-size': 3.2, fill: '#e8dfd0', 'text-anchor': 'middle' });
      f.textContent = String.fromCharCode(97 + i);
      box.appendChild(f);
      const r = svg('text', { x: RP / 2, y: RP + i * RC + RC / 2 + 1.1, 'font-size': 3.2, fill: '#e8dfd0', 'text-anchor': 'middle' });
      r.textContent = String(CELLS - i);
      box.appendChild(r);
    }
    const b = game.board;
    for (const c of b.blocked) {
      const p = cellXY(c);
      if (p) box.appendChild(svg('rect', { x: p.x - RC / 2, y: p.y - RC / 2, width: RC, height: RC, fill: '#4a4440', class: 'blocked' }));
    }
    for (const t of b.targets) {
      const p = cellXY(t.cell);
      if (!p) continue;
      const g = symbol(box, t.token, p.x, p.y, 'target');
      g.setAttribute('data-cell', t.cell);
      const title = svg('title', {});
      title.textContent = `${t.token} at ${t.cell}`;
      g.appendChild(title);
    }
    const goal = cellXY(game.target);
    if (goal) box.appendChild(svg('rect', { x: goal.x - RC / 2 + 0.6, y: goal.y - RC / 2 + 0.6, width: RC - 1.2, height: RC - 1.2, rx: 1, fill: 'none', stroke: '#b5651d', 'stroke-width': 1, class: 'goal', 'data-cell': game.target }));
    for (const d of b.diagonals) {
      const p = cellXY(d.cell);
      if (!p) continue;
      const h = RC / 2 - 0.8;
      const up = d.kind === '/';
      box.appendChild(svg('line', { x1: p.x - h, y1: up ? p.y + h : p.y - h, x2: p.x + h, y2: up ? p.y - h : p.y + h, stroke: ROBOT_FILL[d.colour] || '#888', 'stroke-width': 1.4, 'stroke-linecap': 'round', class: 'diagonal', 'data-cell': d.cell, 'data-colour': d.colour }));
    }
    // Walls: each cell's north and west sides, and the east and south edges of the board.
    let walls = 0;
    const seg = (x1, y1, x2, y2) => {
      box.appendChild(svg('line', { x1: x1, y1: y1, x2: x2, y2: y2, stroke: '#3b2f2a', 'stroke-width': 1.1, 'stroke-linecap': 'square', class: 'wall' }));
      walls += 1;
    };
    for (let i = 0; i < CELLS * CELLS; i++) {
      const w = parseInt(b.walls[i], 16) || 0;
      const file = i % CELLS;
      const rank0 = Math.floor(i / CELLS);
      const x0 = RP + file * RC;
      const y0 = RP + (CELLS - 1 - rank0) * RC;
      if (w & 1) seg(x0, y0, x0 + RC, y0);
      if (w & 8) seg(x0, y0, x0, y0 + RC);
      if (w & 2 && file === CELLS - 1) seg(x0 + RC, y0, x0 + RC, y0 + RC);
      if (w & 4 && rank0 === 0) seg(x0, y0 + RC, x0 + RC, y0 + RC);
    }
    // The paths of the demonstration's moves so far, the current one darker.
    const step = game.steps[ply];
    const trail = (st, cls, opacity) => {
      const pts = st.path.map(cellXY).filter((p) => p).map((p) => `${p.x},${p.y}`).join(' ');
      box.appendChild(svg('polyline', { points: pts, fill: 'none', stroke: ROBOT_FILL[st.robot] || '#888', 'stroke-width': 1.3, 'stroke-opacity': opacity, 'stroke-linejoin': 'round', 'stroke-dasharray': '2 1.2', class: cls, 'data-robot': st.robot }));
    };
    if (step.move !== undefined) {
      for (let q = ply - 1; q > 0 && game.steps[q].action === step.action && game.steps[q].move !== undefined; q--) trail(game.steps[q], 'trail past', 0.35);
      trail(step, 'trail', 0.95);
    }
    let moving = null;
    for (const r of Object.keys(step.robots)) {
      const p = cellXY(step.robots[r]);
      if (!p) continue;
      const g = svg('g', { class: 'robot', 'data-robot': r, 'data-cell': step.robots[r], transform: `translate(${p.x} ${p.y})` });
      g.appendChild(svg('circle', { cx: 0, cy: 0, r: 3.6, fill: ROBOT_FILL[r] || '#999', stroke: '#ffffff', 'stroke-width': 0.7 }));
      g.appendChild(svg('circle', { cx: -1.1, cy: -1.2, r: 1.1, fill: '#ffffff', 'fill-opacity': 0.45 }));
      const title = svg('title', {});
      title.textContent = `${r} robot at ${step.robots[r]}`;
      g.appendChild(title);
      box.appendChild(g);
      if (step.move !== undefined && r === step.robot) moving = g;
    }
    box.setAttribute('data-ply', String(ply));
    box.setAttribute('data-robots', robotsKey(step.robots));
    box.setAttribute('data-walls', String(walls));
    const still = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (animate && moving && !step.illegal && !still) slide(moving, step.path.map(cellXY).filter((p) => p));
  }
  // Moves a robot along its path (the final cell is already in the data; this is only the eye).
  function slide(g, pts) {
    if (pts.length < 2) return;
    const lengths = [];
    let total = 0;
    for (let i = 1; i < pts.length; i++) {
      const l = Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
      lengths.push(l);
      total += l;
    }
    const duration = Math.min(650, Math.max(120, parseInt($('speed').value, 10) * 0.8));
    const t0 = performance.now();
    const frame = (now) => {
      let d = (Math.min(1, (now - t0) / duration)) * total;
      let i = 0;
      while (i < lengths.length - 1 && d > lengths[i]) {
        d -= lengths[i];
        i += 1;
      }
      const f = lengths[i] > 0 ? Math.min(1, d / lengths[i]) : 1;
      const x = pts[i].x + (pts[i + 1].x - pts[i].x) * f;
      const y = pts[i].y + (pts[i + 1].y - pts[i].y) * f;
      const done = now - t0 >= duration;
      const end = pts[pts.length - 1];
      g.setAttribute('transform', done ? `translate(${end.x} ${end.y})` : `translate(${x.toFixed(2)} ${y.toFixed(2)})`);
      anim = done ? null : requestAnimationFrame(frame);
    };
    g.setAttribute('transform', `translate(${pts[0].x} ${pts[0].y})`);
    anim = requestAnimationFrame(frame);
  }
  // The step where the token was won, or -1.
  function winStep() {
    return game.steps.findIndex((s) => s.verdict && s.action !== null && game.actions[s.action].ok);
  }
  // Actions done at the current step.
  function actionsDone() {
    const s = game.steps[ply];
    return s.action === null ? 0 : s.action + 1;
  }
  function declarationsAt() {
    const out = {};
    for (let i = 0; i < actionsDone(); i++) {
      const a = game.actions[i];
      if (a.kind === 'declare' && a.declared !== null && a.declared !== undefined) out[a.seat] = a.declared;
    }
    return out;
  }
  function robotsSeats() {
    const list = $('seats');
    clear(list);
    const step = game.steps[ply];
    const won = winStep() >= 0 && ply >= winStep();
    const decl = declarationsAt();
    const proving = step.action !== null && game.actions[step.action].kind === 'solution' ? game.actions[step.action].seat : -1;
    game.seats.forEach((s, seat) => {
      const li = el('li');
      li.setAttribute('data-seat', String(seat));
      if (seat === proving) li.className = 'to-move';
      li.appendChild(seatDot(seat));
      li.appendChild(el('span', 'name', s.name));
      const bot = [s.bot_name, s.bot_version].filter((x) => x).join(' ');
      if (bot && bot !== s.name) li.appendChild(el('span', 'bot', bot));
      const forfeit = game.forfeits.find((f) => f.seat === seat && (ply === last() || f.ply <= actionsDone()));
      if (forfeit) li.appendChild(el('span', 'tag', 'forfeited: ' + forfeit.kind));
      if (decl[seat] !== undefined) li.appendChild(el('span', 'decl', `declared ${decl[seat]}`));
      const tokens = won ? game.tokens_after[seat] : game.tokens_before[seat];
      const pts = el('span', 'pts', plural(tokens, 'token'));
      pts.setAttribute('data-tokens', String(tokens));
      li.appendChild(pts);
      list.appendChild(li);
    });
  }
  function robotsToken() {
    const box = $('scores');
    clear(box);
    const t = el('span', 'score token');
    t.setAttribute('data-token', String(game.token));
    const icon = svg('svg', { viewBox: '0 0 10 10', width: 20, height: 20, class: 'token-icon' });
    icon.appendChild(svg('rect', { x: 0, y: 0, width: 10, height: 10, rx: 2, fill: BG }));
    symbol(icon, game.token, 5, 5, 'icon');
    t.appendChild(icon);
    t.appendChild(el('span', 'n', `${game.token} at ${game.target || '?'}`));
    box.appendChild(t);
    box.appendChild(el('span', 'muted', game.token_robot ? `for the ${game.token_robot} robot` : 'for any robot'));
    const o = optimalText();
    if (o) box.appendChild(el('span', 'muted', o));
  }
  function actionText(a) {
    if (a.kind === 'declare') return `declares ${a.declared === null || a.declared === undefined ? JSON.stringify(a.move) : a.declared}`;
    if (a.kind === 'solution') {
      if (!a.sent) return 'sends no solution';
      if (a.unreadable) return 'sends moves that cannot be read';
      return `shows ${plural(a.count, 'move')}${a.declared !== null && a.declared !== undefined ? ' (declared ' + a.declared + ')' : ''}`;
    }
    return `${a.kind} ${JSON.stringify(a.move)}`;
  }
  function moveText(s) {
    const turned = s.turned && s.turned.length ? ` (turned at ${s.turned.join(' ')})` : '';
    return `${s.robot} ${s.dir}: ${s.from} ${s.illegal ? 'cannot move' : '→ ' + s.to}${turned}`;
  }
  function robotsStatus() {
    const box = $('status');
    clear(box);
    $('plylabel').textContent = `step ${ply} / ${last()}`;
    $('slider').value = String(ply);
    const s = game.steps[ply];
    if (s.action === null) {
      box.textContent = `start: token ${game.token} at ${game.target || '?'}; robots ${robotsList(s.robots)}`;
      return;
    }
    const a = game.actions[s.action];
    box.appendChild(seatDot(a.seat));
    box.appendChild(el('span', '', ` ${seatName(game, a.seat)} ${actionText(a)}`));
    if (a.kind === 'solution' && a.sent && a.unreadable) box.appendChild(el('span', 'line', ' ' + JSON.stringify(a.move && a.move.moves)));
    const cpu = a.cpu_ms === null || a.cpu_ms === undefined ? '' : `, CPU ${fmtMs(a.cpu_ms)}`;
    box.appendChild(el('span', 'muted', a.by_arbiter ? ` (closed by the arbiter at ${fmtMs(a.at_ms)})` : ` at ${fmtMs(a.at_ms)}${cpu}`));
    if (s.move !== undefined) box.appendChild(el('div', 'move-now', `move ${s.move + 1} of ${a.count}: ${moveText(s)}`));
    if (s.verdict) {
      if (a.ok) box.appendChild(el('div', 'ok', `ok: ${seatName(game, a.seat)} wins ${game.token} with ${plural(a.count, 'move')}${optimalText() ? '; ' + optimalText() : ''}`));
      else box.appendChild(el('div', 'fail', `fails: ${a.reason}; the robots go back where they were`));
    }
    if (ply === last()) box.appendChild(el('div', 'muted', 'the token is over'));
  }
  function robotsActions() {
    const body = $('moves').querySelector('tbody');
    clear(body);
    rowsByPly = [];
    const start = el('tr', 'move');
    start.appendChild(el('td', 'num', '0'));
    const td = el('td', 'muted', `start: ${game.token} at ${game.target || '?'}`);
    td.colSpan = 4;
    start.appendChild(td);
    start.addEventListener('click', () => { stop(); show(0); });
    body.appendChild(start);
    rowsByPly[0] = start;
    const sub = (p, text, cls) => {
      const tr = el('tr', 'move sub ' + (cls || ''));
      tr.appendChild(el('td', 'num', ''));
      const c = el('td', '', text);
      c.colSpan = 4;
      tr.appendChild(c);
      tr.addEventListener('click', () => { stop(); show(p); });
      body.appendChild(tr);
      rowsByPly[p] = tr;
    };
    game.actions.forEach((a, i) => {
      for (const f of game.forfeits.filter((f) => f.ply === i + 1)) body.appendChild(forfeitRow(f));
      const tr = el('tr', 'move');
      tr.appendChild(el('td', 'num', i + 1));
      const who = el('td');
      who.appendChild(seatDot(a.seat));
      who.appendChild(document.createTextNode(' ' + seatName(game, a.seat)));
      tr.appendChild(who);
      tr.appendChild(el('td', '', actionText(a)));
      tr.appendChild(a.by_arbiter ? el('td', 'num arbiter', 'arbiter') : el('td', 'num', fmtMs(a.at_ms)));
      const verdict = a.kind !== 'solution' ? '' : a.ok ? 'ok' : 'failed';
      tr.appendChild(el('td', 'num ' + verdict, verdict));
      tr.addEventListener('click', () => { stop(); show(a.step); });
      body.appendChild(tr);
      rowsByPly[a.step] = tr;
      for (const [k, r] of (a.refused || []).entries()) {
        const rr = el('tr', 'refused');
        rr.appendChild(el('td', 'num', ''));
        const cell = el('td');
        cell.colSpan = 4;
        cell.appendChild(el('span', '', `↳ refused attempt ${k + 1} at ${fmtMs(r.ms)}: `));
        cell.appendChild(el('span', 'line', r.line));
        cell.appendChild(el('div', '', r.reason));
        rr.appendChild(cell);
        body.appendChild(rr);
      }
      game.steps.forEach((s, p) => {
        if (s.action !== i || a.kind !== 'solution') return;
        if (s.move !== undefined) sub(p, `${s.move + 1}. ${moveText(s)}`, s.illegal ? 'fail' : '');
        else if (s.verdict && !a.ok) sub(p, `fails: ${a.reason}`, 'fail');
      });
    });
    for (const f of game.forfeits.filter((f) => f.ply > game.actions.length)) body.appendChild(forfeitRow(f));
  }
  function robotsDeclarationPlot() {
    const box = $('score-plot');
    clear(box);
    let tmax = 1;
    let vmax = 2;
    for (const a of game.actions) {
      tmax = Math.max(tmax, a.at_ms || 0, a.hourglass_ends_ms || 0);
      if (a.kind === 'declare' && typeof a.declared === 'number') vmax = Math.max(vmax, a.declared);
    }
    const opt = game.optimal && typeof game.optimal.moves === 'number' ? game.optimal.moves : null;
    if (opt !== null) vmax = Math.max(vmax, opt);
    const bottom = PLOT.h - PLOT.bottom;
    const X = (t) => PLOT.left + (PLOT.w - PLOT.left - PLOT.right) * (t / tmax);
    const Y = (v) => bottom - (bottom - PLOT.top) * (v / vmax);
    box.appendChild(svg('line', { x1: PLOT.left, y1: bottom, x2: PLOT.w - PLOT.right, y2: bottom, stroke: '#999', 'stroke-width': 1 }));
    box.appendChild(svg('line', { x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: bottom, stroke: '#999', 'stroke-width': 1 }));
    const label = (x, y, text, anchor) => {
      const t = svg('text', { x: x, y: y, 'font-size': 10, fill: '#666', 'text-anchor': anchor || 'end' });
      t.textContent = text;
      box.appendChild(t);
    };
    label(PLOT.left - 4, PLOT.top + 8, plural(vmax, 'move'));
    label(PLOT.left - 4, bottom, '0');
    label(PLOT.w - PLOT.right, PLOT.h - 4, fmtMs(tmax));
    if (opt !== null) {
      box.appendChild(svg('line', { x1: PLOT.left, y1: Y(opt), x2: PLOT.w - PLOT.right, y2: Y(opt), stroke: '#17622b', 'stroke-width': 1, 'stroke-dasharray': '5 3', class: 'optimal' }));
      label(PLOT.w - PLOT.right, Y(opt) - 3, `optimal ${opt}`);
    }
    const hourglass = game.actions.find((a) => typeof a.hourglass_ends_ms === 'number');
    if (hourglass) box.appendChild(svg('line', { x1: X(hourglass.hourglass_ends_ms), y1: PLOT.top, x2: X(hourglass.hourglass_ends_ms), y2: bottom, stroke: '#b5651d', 'stroke-width': 1, 'stroke-dasharray': '2 3', class: 'hourglass' }));
    game.seats.forEach((s, seat) => {
      const mine = game.actions.filter((a) => a.seat === seat && a.kind === 'declare' && typeof a.declared === 'number');
      if (!mine.length) return;
      const pts = [];
      mine.forEach((a, k) => {
        if (k > 0) pts.push(`${X(a.at_ms).toFixed(1)},${Y(mine[k - 1].declared).toFixed(1)}`);
        pts.push(`${X(a.at_ms).toFixed(1)},${Y(a.declared).toFixed(1)}`);
      });
      pts.push(`${X(tmax).toFixed(1)},${Y(mine[mine.length - 1].declared).toFixed(1)}`);
      box.appendChild(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: SEAT_FILL[seat % SEAT_FILL.length], 'stroke-width': 1.5, class: 'series', 'data-seat': seat }));
      for (const a of mine) {
        const c = svg('circle', { cx: X(a.at_ms).toFixed(1), cy: Y(a.declared).toFixed(1), r: 3.5, fill: SEAT_FILL[seat % SEAT_FILL.length], class: 'decl', 'data-seat': seat });
        const title = svg('title', {});
        title.textContent = `${s.name}: ${a.declared} at ${fmtMs(a.at_ms)}`;
        c.appendChild(title);
        box.appendChild(c);
      }
    });
    for (const a of game.actions.filter((a) => a.kind === 'solution')) {
      const c = svg('rect', { x: (X(a.at_ms) - 3).toFixed(1), y: bottom - 7, width: 6, height: 6, fill: a.ok ? '#2e9e4f' : '#8f1d16', class: 'demo' });
      const title = svg('title', {});
      title.textContent = `${seatName(game, a.seat)}: ${a.ok ? 'ok' : 'failed'} at ${fmtMs(a.at_ms)}`;
      c.appendChild(title);
      box.appendChild(c);
    }
    box.appendChild(svg('line', { class: 'cursor', x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: bottom, stroke: '#b5651d', 'stroke-width': 1.5, 'data-x': '' }));
    box.setAttribute('data-tmax', String(tmax));
    const legend = $('score-legend');
    clear(legend);
    game.seats.forEach((s, seat) => {
      const span = el('span');
      span.appendChild(seatDot(seat));
      span.appendChild(document.createTextNode(' ' + s.name));
      legend.appendChild(span);
    });
    legend.appendChild(el('span', '', 'dashed: the optimal, the hourglass · squares: demonstrations (green ok, red failed)'));
  }
  function robotsTokensPlot() {
    const box = $('time-plot');
    clear(box);
    const same = DATA.games.filter((g) => g.game === 'robots' && g.match === game.match && g.table === game.table).sort((a, b) => a.round - b.round);
    const n = same.length;
    let vmax = 1;
    for (const g of same) for (const v of g.tokens_after) vmax = Math.max(vmax, v);
    const bottom = PLOT.h - PLOT.bottom;
    const X = (i) => PLOT.left + (PLOT.w - PLOT.left - PLOT.right) * (i / Math.max(n, 1));
    const Y = (v) => bottom - (bottom - PLOT.top) * (v / vmax);
    box.appendChild(svg('line', { x1: PLOT.left, y1: bottom, x2: PLOT.w - PLOT.right, y2: bottom, stroke: '#999', 'stroke-width': 1 }));
    box.appendChild(svg('line', { x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: bottom, stroke: '#999', 'stroke-width': 1 }));
    const label = (x, y, text) => {
      const t = svg('text', { x: x, y: y, 'font-size': 10, fill: '#666', 'text-anchor': 'end' });
      t.textContent = text;
      box.appendChild(t);
    };
    label(PLOT.left - 4, PLOT.top + 8, plural(vmax, 'token'));
    label(PLOT.left - 4, bottom, '0');
    label(PLOT.w - PLOT.right, PLOT.h - 4, `${plural(n, 'token')} in this file`);
    game.seats.forEach((s, seat) => {
      if (!n) return;
      const pts = [`${X(0).toFixed(1)},${Y(same[0].tokens_before[seat] || 0).toFixed(1)}`];
      same.forEach((g, k) => pts.push(`${X(k + 1).toFixed(1)},${Y(g.tokens_after[seat] || 0).toFixed(1)}`));
      box.appendChild(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: SEAT_FILL[seat % SEAT_FILL.length], 'stroke-width': 2, class: 'series', 'data-seat': seat }));
    });
    const k = same.indexOf(game) + 1;
    box.appendChild(svg('line', { class: 'cursor', x1: X(k), y1: PLOT.top, x2: X(k), y2: bottom, stroke: '#b5651d', 'stroke-width': 1.5 }));
    const legend = $('time-legend');
    clear(legend);
    game.seats.forEach((s, seat) => {
      const span = el('span');
      span.appendChild(seatDot(seat));
      span.appendChild(document.createTextNode(` ${s.name}: ${plural(game.tokens_after[seat], 'token')} after this one`));
      legend.appendChild(span);
    });
  }
  function robotsCursor() {
    const box = $('score-plot');
    const line = box.querySelector('.cursor');
    if (!line) return;
    const s = game.steps[ply];
    const t = s.action === null ? 0 : game.actions[s.action].at_ms || 0;
    const tmax = Number(box.getAttribute('data-tmax')) || 1;
    const x = PLOT.left + (PLOT.w - PLOT.left - PLOT.right) * (t / tmax);
    line.setAttribute('x1', String(x));
    line.setAttribute('x2', String(x));
  }
  function robotsResult() {
    const box = $('result');
    clear(box);
    const decl = {};
    const demo = {};
    for (const a of game.actions) {
      if (a.kind === 'declare' && typeof a.declared === 'number') decl[a.seat] = a.declared;
      if (a.kind === 'solution') demo[a.seat] = a.ok ? 'ok' : 'failed: ' + a.reason;
    }
    const rows = game.seats.map((s, seat) => {
      const name = el('span');
      name.appendChild(seatDot(seat));
      name.appendChild(document.createTextNode(' ' + seatName(game, seat)));
      const f = game.forfeits.find((x) => x.seat === seat);
      return [seat, name, decl[seat] === undefined ? '-' : decl[seat], demo[seat] || '-', game.tokens_after[seat], game.result.points[seat], f ? `${f.kind} at action ${f.ply}` : ''];
    });
    box.appendChild(table([
      { label: 'seat', num: true }, { label: 'name' }, { label: 'declared', num: true }, { label: 'demonstration' },
      { label: 'tokens', num: true }, { label: 'points', num: true }, { label: 'forfeit' },
    ], rows));
    const w = game.winner;
    let line;
    if (w !== null && w !== undefined) {
      const a = game.actions.find((x) => x.kind === 'solution' && x.ok);
      line = `${seatName(game, w)} wins ${game.token} with ${plural(a ? a.count : 0, 'move')}${a && a.declared !== null ? ' (declared ' + a.declared + ')' : ''}`;
    } else {
      line = `nobody wins ${game.token}: ${game.seats.length === 1 ? 'it is turned face down' : 'it goes back into the pile'}`;
    }
    const o = optimalText();
    box.appendChild(el('div', 'winner', line + (o ? '; ' + o : '')));
    box.appendChild(el('div', 'muted', `${plural(game.pile, 'token')} left in the pile${game.ends_match ? '; the match ends with this token' : ''}`));
  }
  function robotsAbout() {
    const box = $('about');
    clear(box);
    const o = game.options;
    const s = game.settings;
    const add = (k, v) => { box.appendChild(el('dt', '', k)); box.appendChild(el('dd', '', v)); };
    add('game', `robots 16x16, ${o.diagonals ? 'with diagonals' : 'side A only'}${o.black ? ', black robot' : ''}, ${game.seats.length === 1 ? 'solo' : game.seats.length + ' players'}`);
    add('boards', (game.board.boards || []).map((p) => `${p.board} ${p.side} ${p.corner}`).join(', '));
    add('match', `${game.match}${game.table ? ', table ' + game.table : ''}, round ${game.round} of ${game.rounds}`);
    add('seeds', `match ${game.match_seed}, round ${game.seed}`);
    add('clock', `hourglass ${fmtDur(o.hourglass_ms)}, first declaration within ${fmtDur(o.first_declaration_ms)}, ${fmtDur(o.prove_ms)} to prove, ties by ${o.tiebreak === 'cpu' ? 'CPU time' : 'time'}; start-up ${fmtDur(s.startup_ms)} (+${s.margin_ms} ms margin)`);
    add('played', `${game.started} to ${game.ended}, arbiter ${game.arbiter}`);
    game.seats.forEach((seat, i) => add(`seat ${i}`, `${seat.name}: ${seat.command}${seat.bot_author ? ' (by ' + seat.bot_author + ')' : ''}`));
  }
  function robotsShow(animate) {
    robotsBoard(animate);
    robotsSeats();
    robotsToken();
    robotsStatus();
    markMove();
    robotsCursor();
  }

  // ---- navigation ----
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    $('play').textContent = 'play';
  }
  function play() {
    if (timer) return stop();
    if (ply >= last()) show(0);
    $('play').textContent = 'pause';
    timer = setInterval(() => {
      if (ply >= last()) return stop();
      show(ply + 1);
    }, parseInt($('speed').value, 10));
  }
  function select(index) {
    stop();
    game = DATA.games.find((g) => g.index === index) || DATA.games[0];
    $('game').value = String(game.index);
    $('slider').max = String(last());
    const robots = isRobots();
    TITLES.forEach((t, i) => { $(t.id).textContent = robots ? t.robots : t.text; });
    HEAD.forEach((h, i) => { h.cell.textContent = robots ? h.robots : h.text; });
    if (robots) {
      robotsActions();
      robotsDeclarationPlot();
      robotsTokensPlot();
      robotsResult();
    } else {
      drawMoves();
      drawScorePlot();
      drawTimePlot();
      drawResult();
    }
    drawStandings();
    drawFaults();
    drawLogs();
    if (robots) robotsAbout();
    else drawAbout();
    ply = 0;
    show(0);
  }

  // What a robots round calls the panels Rolit's name otherwise.
  const TITLES = [
    { id: 'moves-title', robots: 'Actions' },
    { id: 'plot1-title', robots: 'Declarations over the round time' },
    { id: 'plot2-title', robots: 'Tokens won over the match' },
  ];
  const HEAD = [];
  function init() {
    for (const t of TITLES) t.text = $(t.id).textContent;
    const labels = ['#', 'seat', 'action', 'time', 'result'];
    Array.from($('moves').querySelectorAll('thead th')).forEach((cell, i) => HEAD.push({ cell: cell, text: cell.textContent, robots: labels[i] }));
    document.title = `${DATA.title} - rollarena replay`;
    $('file').textContent = DATA.title;
    const v = DATA.verification;
    if (v) {
      $('verdict').textContent = (v.ok ? '✓ ' : '✗ ') + v.text;
      $('verdict').className = v.ok ? 'ok' : 'bad';
    }
    const picker = $('game');
    for (const g of DATA.games) {
      const names = g.seats.map((s) => s.name).join(' vs ');
      const token = g.game === 'robots' ? `: ${g.token}` : '';
      const o = el('option', '', `${g.index}: ${g.table ? 'table ' + g.table + ', ' : ''}round ${g.round}/${g.rounds}${token} (${names})`);
      o.value = String(g.index);
      picker.appendChild(o);
    }
    picker.addEventListener('change', () => select(parseInt(picker.value, 10)));
    $('first').addEventListener('click', () => { stop(); show(0); });
    $('back').addEventListener('click', () => { stop(); show(ply - 1); });
    $('forward').addEventListener('click', () => { stop(); show(ply + 1); });
    $('last').addEventListener('click', () => { stop(); show(last()); });
    $('play').addEventListener('click', play);
    $('slider').addEventListener('input', () => { stop(); show(parseInt($('slider').value, 10)); });
    $('speed').addEventListener('change', () => { if (timer) { stop(); play(); } });
    document.addEventListener('keydown', (e) => {
      const t = e.target;
      if (t && (t.tagName === 'SELECT' || (t.tagName === 'INPUT' && t.type === 'range'))) return;
      if (e.key === 'ArrowRight') { stop(); show(ply + 1); }
      else if (e.key === 'ArrowLeft') { stop(); show(ply - 1); }
      else if (e.key === 'Home') { stop(); show(0); }
      else if (e.key === 'End') { stop(); show(last()); }
      else if (e.key === ' ') play();
      else return;
      e.preventDefault();
    });
    if (!DATA.games.length) {
      $('status').textContent = 'the record holds no complete round';
      return;
    }
    select(DATA.initial || 1);
  }
  init();
})();
