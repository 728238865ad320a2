'use strict';
// rollarena's replay viewer. The data comes from the JSON element and is only ever put into the
// page as text (textContent, attribute values of SVG shapes): nothing a bot wrote can become
// markup or code.
(function () {
  const DATA = JSON.parse(document.getElementById('replay-data').textContent);
  const SVG = 'http://www.w3.org/2000/svg';
  const FILL = { red: '#d62f2f', yellow: '#f2c230', green: '#2e9e4f', blue: '#2f6fd6', purple: '#8e44ad', white: '#e8e8e8' };
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

  let rowsByPly = [];
  // The move column's cell and the time bar's title of each move, by move number: a view with
  // `moveText` relabels them at every step (a sealed move shows as sealed until revealed).
  let moveCells = [];
  let barTitles = [];
  function labelMoves() {
    const f = view().moveText;
    if (!f) return;
    game.moves.forEach((m, i) => {
      const text = f(m, i + 1) || moveOf(m);
      const cell = moveCells[i + 1];
      if (cell && cell.textContent !== text) cell.textContent = text;
      const title = barTitles[i + 1];
      const tip = `move ${i + 1}: ${text} ${m.by_arbiter ? 'by the arbiter' : fmtMs(m.ms)}`;
      if (title && title.textContent !== tip) title.textContent = tip;
    });
  }
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
    $('plylabel').textContent = `${view().unit || 'move'} ${ply} / ${last()}`;
    $('slider').value = String(ply);
    view().show(animate);
    labelMoves();
  }

  // ---- the move list ----
  // The move list; `fifth(m)` fills the last column (empty without it).
  function drawMoves(fifth) {
    const body = $('moves').querySelector('tbody');
    clear(body);
    rowsByPly = [];
    moveCells = [];
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
      moveCells[p] = el('td', '', moveOf(m));
      tr.appendChild(moveCells[p]);
      tr.appendChild(m.by_arbiter ? el('td', 'num arbiter', 'arbiter') : el('td', 'num', fmtMs(m.ms)));
      tr.appendChild(el('td', 'num', fifth ? fifth(m) : ''));
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
    barTitles = [];
    const w = Math.max(1, (PLOT.w - PLOT.left - PLOT.right) / Math.max(n, 1) - 1);
    game.moves.forEach((m, i) => {
      const x = plotX(i);
      const h = m.by_arbiter ? 0 : Math.max(0.5, height * ((m.ms || 0) / max));
      const bar = svg('rect', { x: x.toFixed(2), y: (PLOT.h - PLOT.bottom - h).toFixed(2), width: w.toFixed(2), height: h.toFixed(2), fill: FILL[m.colour] || '#999', class: 'bar' });
      const title = svg('title', {});
      title.textContent = `move ${i + 1}: ${m.move} ${m.by_arbiter ? 'by the arbiter' : fmtMs(m.ms)}`;
      bar.appendChild(title);
      barTitles[i + 1] = title;
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
      const b = el('button', '', `round ${g}`);
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
      d.appendChild(el('strong', '', `${seatName(game, f.seat)} forfeited (${f.kind}) at ${view().unit || 'move'} ${f.ply}: `));
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
  // ---- the games' views ----
  // Each game's script registers its view here, by the game's name: {
  //   last(): the last step (steps are 0..last; usually the moves),
  //   select(): draws the panels of a newly selected round (move list, plots, result, about),
  //   show(animate): draws the step `ply` (animate: it follows the one shown),
  //   and optionally unit ('move'), titles ({element id: text}), head (the move list's
  //   headings), pick(g) (added to the round picker), label(g) (the picker's "round r/R" in the
  //   game's words, e.g. "token 3"), hidden (offer the seat-view switch;
  //   the view reads `viewSeat`: null for every hand, or a seat), moveText(m, p) (the text
  //   of move p in the move list at the step shown, e.g. sealed in a seat's view; null: the
  //   move itself).
  // }
  const VIEWS = {};
  // On a live page (the arena's match in play, crates/games/src/show/live.js), each game's live part
  // registers here, by the game's name, the function that makes the fields its view reads
  // from a round in play: LIVE[name](round so far, state before its first move).
  const LIVE = {};
/*{{GAMES}}*/
  // ---- what every view may use: the move shown, the result, the round's particulars ----
  function moveOf(m) {
    return typeof m.move === 'string' ? m.move : JSON.stringify(m.move);
  }
  function genericStatus() {
    const box = $('status');
    clear(box);
    if (ply === 0) {
      box.textContent = 'start';
      return;
    }
    const m = game.moves[ply - 1];
    box.appendChild(dot(m.colour));
    box.appendChild(el('span', '', ` ${seatName(game, m.seat)} ${m.kind && m.kind !== 'move' ? m.kind + ' ' : 'plays '}${moveOf(m)}`));
    box.appendChild(el('span', 'muted', m.by_arbiter ? ' (played by the arbiter for a forfeited seat)' : ` in ${fmtMs(m.ms)}`));
    if (m.refused && m.refused.length) box.appendChild(el('span', 'muted', `, after ${m.refused.length} refused attempt${m.refused.length > 1 ? 's' : ''}`));
    if (ply === game.moves.length) box.appendChild(el('div', 'muted', 'the round is over'));
  }
  function genericResult() {
    const r = game.result;
    const seats = game.seats.map((s, i) => i).sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
    const rows = seats.map((seat) => {
      const name = el('span');
      name.appendChild(dot(game.seats[seat].colour));
      name.appendChild(document.createTextNode(' ' + seatName(game, seat)));
      const f = game.forfeits.find((x) => x.seat === seat);
      return [r.ranks[seat], seat, name, r.points[seat], fmtWins(r.wins[seat]), f ? `${f.kind} at ${view().unit || 'move'} ${f.ply}` : ''];
    });
    const box = $('result');
    clear(box);
    box.appendChild(table([
      { label: 'rank', num: true }, { label: 'seat', num: true }, { label: 'name' },
      { label: 'points', num: true }, { label: 'win', num: true }, { label: 'forfeit' },
    ], rows));
  }
  function genericAbout(what) {
    const box = $('about');
    clear(box);
    const s = game.settings;
    const add = (k, v) => { box.appendChild(el('dt', '', k)); box.appendChild(el('dd', '', v)); };
    add('game', what || `${game.game} ${JSON.stringify(game.options)}`);
    add('match', `${game.match}${game.table ? ', table ' + game.table : ''}, round ${game.round} of ${game.rounds}`);
    add('seeds', `match ${game.match_seed}, round ${game.seed}`);
    add('clock', `${s.move_ms} ms per move (+${s.margin_ms} ms margin), ${s.startup_ms} ms start-up, ${s.retries} retries`);
    add('played', `${game.started} to ${game.ended}, arbiter ${game.arbiter}`);
    game.seats.forEach((seat, i) => add(`seat ${i}`, `${seat.name}: ${seat.command}${seat.bot_author ? ' (by ' + seat.bot_author + ')' : ''}`));
  }

  // A game without a view of its own: each state as the game's text (`frames`).
  const GENERIC = {
    last: () => game.moves.length,
    select() {
      drawMoves((m) => m.kind || '');
      clear($('score-plot'));
      clear($('score-legend'));
      drawTimePlot();
      genericResult();
      genericAbout();
    },
    show() {
      $('board').style.display = 'none';
      const f = $('frame');
      f.hidden = false;
      f.textContent = game.frames[ply] || '';
      genericStatus();
      markMove();
      drawCursors();
    },
  };
  function view() {
    return (game && VIEWS[game.game]) || GENERIC;
  }
  function last() {
    return view().last();
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
    $('round').value = String(game.index);
    // The address names the round shown (`#round=K`), so it can be shared or bookmarked.
    if (location.hash !== `#round=${game.index}`) {
      try { history.replaceState(null, '', `#round=${game.index}`); } catch (e) { /* a sandboxed frame */ }
    }
    const v = view();
    TITLES.forEach((t) => { $(t.id).textContent = (v.titles && v.titles[t.id]) || t.text; });
    HEAD.forEach((h, i) => { h.cell.textContent = v.head && v.head[i] !== undefined ? v.head[i] : h.text; });
    $('board').style.display = '';
    $('frame').hidden = true;
    seatPicker(v);
    v.select();
    $('slider').max = String(last());
    drawStandings();
    drawFaults();
    drawLogs();
    ply = 0;
    show(0);
  }

  // ---- whose view: every hand (a spectator of the record), or one seat's ----
  // Shown for games whose view says `hidden: true`; the game's drawing reads `viewSeat`.
  let viewSeat = DATA.seat === null || DATA.seat === undefined ? null : DATA.seat;
  function seatPicker(v) {
    const box = $('seat-view');
    clear(box);
    $('seat-view-box').hidden = !v.hidden;
    if (!v.hidden) return;
    if (viewSeat !== null && viewSeat >= game.seats.length) viewSeat = null;
    const all = el('option', '', 'every hand (spectator)');
    all.value = '';
    box.appendChild(all);
    game.seats.forEach((s, i) => {
      const o = el('option', '', `seat ${i}: ${s.name}`);
      o.value = String(i);
      box.appendChild(o);
    });
    box.value = viewSeat === null ? '' : String(viewSeat);
  }

  // The panels' titles and the move list's headings, as the template has them unless the
  // game's view names its own.
  const TITLES = [{ id: 'moves-title' }, { id: 'plot1-title' }, { id: 'plot2-title' }];
  const HEAD = [];
  function init() {
    for (const t of TITLES) t.text = $(t.id).textContent;
    Array.from($('moves').querySelectorAll('thead th')).forEach((cell) => HEAD.push({ cell: cell, text: cell.textContent }));
    document.title = `${DATA.title} - rollarena replay`;
    $('file').textContent = DATA.title;
    const v = DATA.verification;
    if (v) {
      $('verdict').textContent = (v.ok ? '✓ ' : '✗ ') + v.text;
      $('verdict').className = v.ok ? 'ok' : 'bad';
    }
    const picker = $('round');
    for (const g of DATA.games) {
      const names = g.seats.map((s) => s.name).join(' vs ');
      const v = VIEWS[g.game] || GENERIC;
      const token = v.pick ? v.pick(g) : '';
      const which = v.label ? v.label(g) : `round ${g.round}/${g.rounds}`;
      const o = el('option', '', `${g.index}: ${g.table ? 'table ' + g.table + ', ' : ''}${which}${token} (${names})`);
      o.value = String(g.index);
      picker.appendChild(o);
    }
    picker.addEventListener('change', () => select(parseInt(picker.value, 10)));
    $('seat-view').addEventListener('change', () => {
      const v = $('seat-view').value;
      viewSeat = v === '' ? null : parseInt(v, 10);
      show(ply);
    });
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
    window.addEventListener('hashchange', () => {
      const r = hashRound();
      if (r !== null && r !== game.index) select(r);
    });
    select(hashRound() || DATA.initial || 1);
  }
  // The round the address names: `#round=K` (`#game=K`, the old form, still works).
  function hashRound() {
    const m = /^#(?:round|game)=(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : null;
  }
  init();
/*{{LIVE}}*/
})();
