  // Rock'n'Roll Robot. Part of rollarena's replay viewer: runs inside its shell (viewer.js in
  // crates/games/src/show/), whose helpers and state (game, ply, el, svg, ...) it uses.
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
    if (a.kind === 'pass') return 'passes: done declaring';
    const fields = a.move && typeof a.move === 'object' ? Object.entries(a.move).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ') : '';
    return fields ? `${a.kind}: ${fields}` : a.kind;
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
    // The time axis spans the declarations, not the hourglass: bots declare within
    // milliseconds of a minute-long hourglass, and every point would sit at 0. What falls
    // beyond (the hourglass's end, demonstrations) is drawn at the right edge.
    let thinking = 0;
    let vmax = 2;
    for (const a of game.actions) {
      if (a.kind === 'declare') thinking = Math.max(thinking, a.at_ms || 0);
      if (a.kind === 'declare' && typeof a.declared === 'number') vmax = Math.max(vmax, a.declared);
    }
    const tmax = thinking > 0 ? thinking * 1.15 : Math.max(1, ...game.actions.map((a) => a.at_ms || 0));
    const opt = game.optimal && typeof game.optimal.moves === 'number' ? game.optimal.moves : null;
    if (opt !== null) vmax = Math.max(vmax, opt);
    const bottom = PLOT.h - PLOT.bottom;
    const X = (t) => PLOT.left + (PLOT.w - PLOT.left - PLOT.right) * (Math.min(t, tmax) / tmax);
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
    const hourglass = game.actions.find((a) => typeof a.hourglass_ends_ms === 'number');
    const beyond = hourglass && hourglass.hourglass_ends_ms > tmax ? `; the hourglass ends at ${fmtMs(hourglass.hourglass_ends_ms)} →` : '';
    label(PLOT.w - PLOT.right, PLOT.h - 4, fmtMs(tmax) + beyond);
    if (opt !== null) {
      box.appendChild(svg('line', { x1: PLOT.left, y1: Y(opt), x2: PLOT.w - PLOT.right, y2: Y(opt), stroke: '#17622b', 'stroke-width': 1, 'stroke-dasharray': '5 3', class: 'optimal' }));
      label(PLOT.w - PLOT.right, Y(opt) - 3, `optimal ${opt}`);
    }
    if (hourglass) {
      const end = hourglass.hourglass_ends_ms;
      box.appendChild(svg('line', { x1: X(end), y1: PLOT.top, x2: X(end), y2: bottom, stroke: '#b5651d', 'stroke-width': 1, 'stroke-dasharray': '2 3', class: 'hourglass' }));
    }
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
      title.textContent = `${seatName(game, a.seat)}: ${a.ok ? 'ok' : 'failed'} at ${fmtMs(a.at_ms)}${a.at_ms > tmax ? ' (beyond the axis, drawn at its end)' : ''}`;
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
    // The winner's moves beside the shortest solution the arbiter's solver found.
    const won = game.actions.find((x) => x.kind === 'solution' && x.ok);
    const optimal = game.optimal && Array.isArray(game.optimal.solution) ? game.optimal.solution : null;
    if (won || optimal) {
      const steps = (moves) => (moves || []).map((m, k) => `${k + 1}. ${m.robot} ${m.dir}`).join('  ');
      const rows = [];
      if (won) rows.push([`the winner's (${plural(won.count, 'move')})`, el('span', 'solution winner-solution', steps(won.move && won.move.moves))]);
      if (optimal) rows.push([`the optimal (${plural(optimal.length, 'move')})`, el('span', 'solution optimal-solution', steps(optimal))]);
      box.appendChild(table([{ label: 'solution' }, { label: 'moves' }], rows));
    }
    box.appendChild(el('div', 'muted pile', `${plural(game.pile, 'token')} in the pile${game.ends_match ? '; the match ends with this token' : ''}`));
  }
  function robotsAbout() {
    const box = $('about');
    clear(box);
    const o = game.options;
    const s = game.settings;
    const add = (k, v) => { box.appendChild(el('dt', '', k)); box.appendChild(el('dd', '', v)); };
    add('game', `robots 16x16, ${o.diagonals ? 'with diagonals' : 'side A only'}${o.black ? ', black robot' : ''}, ${game.seats.length === 1 ? 'solo' : game.seats.length + ' players'}`);
    add('boards', (game.board.boards || []).map((p) => `${p.board} ${p.side} ${p.corner}`).join(', '));
    add('match', `${game.match}${game.table ? ', table ' + game.table : ''}, token ${game.round} (a round is a token)`);
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

  VIEWS.robots = {
    unit: 'action',
    titles: { 'moves-title': 'Actions', 'plot1-title': 'Declarations over the round time', 'plot2-title': 'Tokens won over the match' },
    head: ['#', 'seat', 'action', 'time', 'result'],
    pick: (g) => `: ${g.token}`,
    label: (g) => `token ${g.round}`,
    last: () => game.steps.length - 1,
    select() {
      robotsActions();
      robotsDeclarationPlot();
      robotsTokensPlot();
      robotsResult();
      robotsAbout();
    },
    show: robotsShow,
  };
