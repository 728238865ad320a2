  // Rollerball. Part of rollarena's replay viewer: runs inside its shell (viewer.js in
  // crates/games/src/show/), whose helpers and state (game, ply, viewSeat, el, svg, ...) it uses. A step is
  // a decision or one step of the ball phase it set off (rubber switch, step 1, step 2); the
  // balls slide from one step to the next. Every hand is shown unless the seat switch picks
  // one seat's view.
  const RB = { cell: 10, pad: 6, ring: ['#e9dfc7', '#dccfae', '#cdbd94'], logo: '#3b3b3b' };
  const RB_FILL = { red: '#d62f2f', blue: '#2f6fd6', green: '#2e9e4f', yellow: '#f2c230', purple: '#8e44ad', white: '#f4f4f4' };
  let rbSteps = []; // [decision, ball step or -1]
  let rbShown = -1; // the step drawn last, to animate from
  function rbXY(sq) {
    const f = sq.charCodeAt(0) - 97;
    const r = parseInt(sq.slice(1), 10);
    return { x: RB.pad + f * RB.cell + RB.cell / 2, y: RB.pad + (8 - r) * RB.cell + RB.cell / 2 };
  }
  function rbRing(sq) {
    const f = sq.charCodeAt(0) - 97;
    const r = parseInt(sq.slice(1), 10) - 1;
    return Math.min(f, 7 - f, r, 7 - r);
  }
  function rbColour(seat) {
    return (game.seats[seat] && game.seats[seat].colour) || 'grey';
  }
  function rbSees(seat) {
    return viewSeat === null || viewSeat === seat;
  }
  let rbReveal = 0; // the decision whose announcement reveals every bid (the last bid)
  // Whether decision p (move m) is a bid the view shown may not see yet.
  function rbSealed(m, p) {
    return !rbSees(m.seat) && String(m.move).startsWith('bid') && rbSteps[ply][0] < Math.max(p, rbReveal);
  }
  // What the board shows at a step: the state after the decision, or a ball step's pieces.
  function rbPieces(i) {
    const [p, k] = rbSteps[i];
    const st = game.states[p];
    const pieces = { balls: st.balls, cards: st.cards, workmen: st.players.map((x) => x.workman), bases: st.players.map((x) => x.base) };
    if (k >= 0) {
      const f = game.decisions[p - 1].steps[k];
      pieces.balls = f.balls;
      pieces.cards = f.cards;
      pieces.workmen = f.workmen;
    }
    return pieces;
  }
  function rbBoard(animate) {
    const box = $('board');
    const before = {};
    for (const b of box.querySelectorAll('g.ball')) before[b.getAttribute('data-ball')] = b.getAttribute('data-square');
    clear(box);
    const size = 8 * RB.cell + RB.pad * 2;
    box.setAttribute('viewBox', `0 0 ${size} ${size}`);
    box.appendChild(svg('rect', { x: 0, y: 0, width: size, height: size, rx: 3, fill: '#6b5a3a' }));
    for (let r = 1; r <= 8; r++) {
      for (let f = 0; f < 8; f++) {
        const sq = String.fromCharCode(97 + f) + r;
        const p = rbXY(sq);
        const ring = rbRing(sq);
        box.appendChild(svg('rect', { x: p.x - RB.cell / 2 + 0.2, y: p.y - RB.cell / 2 + 0.2, width: RB.cell - 0.4, height: RB.cell - 0.4, fill: ring === 3 ? RB.logo : RB.ring[ring], class: ring === 3 ? 'logo' : 'track', 'data-square': sq, 'data-track': ring === 3 ? '' : ring + 1 }));
      }
      const t = svg('text', { x: RB.pad / 2, y: RB.pad + (8 - r) * RB.cell + RB.cell / 2 + 1.1, 'font-size': 3, fill: '#f0e6cc', 'text-anchor': 'middle' });
      t.textContent = String(r);
      box.appendChild(t);
      const fl = svg('text', { x: RB.pad + (r - 1) * RB.cell + RB.cell / 2, y: size - 1.6, 'font-size': 3, fill: '#f0e6cc', 'text-anchor': 'middle' });
      fl.textContent = String.fromCharCode(96 + r);
      box.appendChild(fl);
    }
    // The clockwise direction of each track, faintly.
    for (const track of game.tracks) {
      const pts = track.concat([track[0]]).map((sq) => { const p = rbXY(sq); return `${p.x},${p.y}`; }).join(' ');
      box.appendChild(svg('polyline', { points: pts, fill: 'none', stroke: '#a08c63', 'stroke-width': 0.4, 'stroke-dasharray': '1 1.5', class: 'track-line' }));
    }
    const pc = rbPieces(ply);
    pc.bases.forEach((b, seat) => {
      if (!b) return;
      const p = rbXY(b);
      box.appendChild(svg('rect', { x: p.x - 4.4, y: p.y - 4.4, width: 8.8, height: 8.8, fill: 'none', stroke: RB_FILL[rbColour(seat)] || '#999', 'stroke-width': 1.2, class: 'base', 'data-seat': seat, 'data-square': b }));
    });
    for (const c of pc.cards) {
      const a = rbXY(c.at[0]);
      const b = rbXY(c.at[1]);
      const x = Math.min(a.x, b.x) - 3.6;
      const y = Math.min(a.y, b.y) - 3.6;
      const g = svg('g', { class: 'card', 'data-card': c.card, 'data-at': c.at.join('-') });
      g.appendChild(svg('rect', { x: x, y: y, width: Math.abs(a.x - b.x) + 7.2, height: Math.abs(a.y - b.y) + 7.2, rx: 1.2, fill: '#fffaf0', stroke: '#6b5a3a', 'stroke-width': 0.4, opacity: 0.9 }));
      g.appendChild(svg('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: '#b5651d', 'stroke-width': 0.6 }));
      const t = svg('text', { x: a.x, y: a.y + 1.2, 'font-size': 3.2, 'text-anchor': 'middle', fill: '#5a3b10', 'font-weight': 'bold' });
      t.textContent = c.card;
      g.appendChild(t);
      box.appendChild(g);
    }
    pc.workmen.forEach((w, seat) => {
      if (!w) return;
      const p = rbXY(w);
      const g = svg('g', { class: 'workman', 'data-seat': seat, 'data-square': w });
      g.appendChild(svg('path', { d: `M ${p.x - 3.6} ${p.y + 4} L ${p.x - 1.6} ${p.y - 0.5} L ${p.x - 0.6} ${p.y + 4} Z`, fill: RB_FILL[rbColour(seat)] || '#999', stroke: '#222', 'stroke-width': 0.3 }));
      box.appendChild(g);
    });
    for (const b of pc.balls) {
      const p = rbXY(b.at);
      const state = [b.energised ? 'energised' : '', b.rubber ? 'rubber-' + b.rubber : ''].filter((x) => x).join(' ') || 'normal';
      const g = svg('g', { class: 'ball', 'data-ball': b.id, 'data-square': b.at, 'data-state': state });
      const from = animate && before[b.id] && before[b.id] !== b.at ? rbXY(before[b.id]) : p;
      g.style.transform = `translate(${from.x}px, ${from.y}px)`;
      g.style.transition = 'transform 0.3s ease-in-out';
      g.appendChild(svg('circle', { cx: 0, cy: 0, r: b.rubber === 'up' ? 3.4 : 3, fill: b.energised ? '#ffd23f' : '#e8e8e8', stroke: b.rubber ? '#c2185b' : '#333', 'stroke-width': b.rubber ? 0.9 : 0.4, 'stroke-dasharray': b.rubber === 'up' ? '1 0.6' : '' }));
      const t = svg('text', { x: 0, y: 1.2, 'font-size': 3.2, 'text-anchor': 'middle', fill: '#111' });
      t.textContent = String(b.id);
      g.appendChild(t);
      const title = svg('title', {});
      title.textContent = `ball ${b.id} on ${b.at}: ${state}`;
      g.appendChild(title);
      box.appendChild(g);
      if (from !== p) requestAnimationFrame(() => requestAnimationFrame(() => { g.style.transform = `translate(${p.x}px, ${p.y}px)`; }));
    }
    box.setAttribute('data-step', String(ply));
    box.setAttribute('data-balls', pc.balls.map((b) => `${b.id}:${b.at}`).join(','));
  }
  function rbHand(cards, count, hidden) {
    const h = el('span', 'hand');
    if (hidden) {
      h.setAttribute('data-hidden', String(count));
      for (let i = 0; i < count; i++) h.appendChild(el('span', 'card hidden', '??'));
    } else {
      for (const c of cards) h.appendChild(el('span', 'card', c));
      if (!cards.length) h.appendChild(el('span', 'muted', 'no cards'));
    }
    return h;
  }
  function rbSeats() {
    const [p] = rbSteps[ply];
    const st = game.states[p];
    const list = $('seats');
    clear(list);
    st.players.forEach((pl, seat) => {
      const li = el('li');
      li.setAttribute('data-seat', String(seat));
      if (st.asked === seat || (st.asked === null && st.acting === seat)) li.className = 'to-move';
      li.appendChild(dot(rbColour(seat)));
      li.appendChild(el('span', 'name', seatName(game, seat)));
      const hidden = !rbSees(seat);
      const cards = st.hands ? st.hands[seat] : [];
      const hand = rbHand(cards, pl.hand, hidden);
      hand.classList.add('seat-hand');
      li.appendChild(hand);
      if (pl.bid) {
        const sealed = !Array.isArray(pl.bid) || (hidden && st.phase === 'bid');
        li.appendChild(el('span', 'bot', sealed ? 'bid sealed' : 'bid ' + (pl.bid.join(' ') || 'nothing')));
      }
      li.appendChild(el('span', 'pts', `${pl.vp.length} VP`));
      list.appendChild(li);
    });
  }
  function rbStatus() {
    const box = $('status');
    clear(box);
    const [p, k] = rbSteps[ply];
    const st = game.states[p];
    $('plylabel').textContent = `step ${ply} / ${rbSteps.length - 1} (decision ${p})`;
    box.appendChild(el('div', 'muted', `turn ${st.turn} of ${st.turn_limit}, ${st.phase}${st.asked !== null ? ', ' + rbColour(st.asked) + ' to decide' : ''}; deck ${st.deck}, discards ${st.discards.length}`));
    if (p === 0) {
      box.appendChild(el('div', '', 'start: every seat bids at once (sealed)'));
      return;
    }
    const m = game.moves[p - 1];
    const d = game.decisions[p - 1];
    const sealed = rbSealed(m, p);
    box.appendChild(dot(rbColour(m.seat)));
    box.appendChild(el('span', 'move-now', ` ${seatName(game, m.seat)}: ${sealed ? 'bid (sealed)' : moveOf(m)}`));
    box.appendChild(el('span', 'muted', m.by_arbiter ? ' (by the arbiter)' : ` in ${fmtMs(m.ms)}`));
    const upto = k >= 0 ? d.steps[k].events : d.words.length;
    const words = el('div', 'events');
    if (k >= 0) words.appendChild(el('div', 'line', `ball phase, ${d.steps[k].label}`));
    for (const s of d.secrets) if (rbSees(s.seat)) words.appendChild(el('div', 'muted secret', s.text));
    for (const w of d.words.slice(0, upto)) words.appendChild(el('div', 'line', w));
    box.appendChild(words);
  }
  function rbPlot() {
    const box = $('score-plot');
    clear(box);
    const turns = game.vp.length ? game.vp[game.vp.length - 1].turn : 1;
    const x = (t) => PLOT.left + (PLOT.w - PLOT.left - PLOT.right) * (t / Math.max(turns, 1));
    const y = (v) => PLOT.h - PLOT.bottom - (PLOT.h - PLOT.bottom - PLOT.top) * (v / 5);
    const bottom = PLOT.h - PLOT.bottom;
    box.appendChild(svg('line', { x1: PLOT.left, y1: bottom, x2: PLOT.w - PLOT.right, y2: bottom, stroke: '#999' }));
    box.appendChild(svg('line', { x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: bottom, stroke: '#999' }));
    box.appendChild(svg('line', { x1: PLOT.left, y1: y(5), x2: PLOT.w - PLOT.right, y2: y(5), stroke: '#ddd', 'stroke-dasharray': '3 3' }));
    const label = (tx, ty, text, anchor) => { const t = svg('text', { x: tx, y: ty, 'font-size': 10, fill: '#666', 'text-anchor': anchor }); t.textContent = text; box.appendChild(t); };
    label(PLOT.left - 4, y(5) + 4, '5 VP', 'end');
    label(PLOT.left - 4, bottom, '0', 'end');
    label(PLOT.w - PLOT.right, PLOT.h - 4, `turn ${turns}`, 'end');
    game.seats.forEach((s, seat) => {
      const pts = game.vp.map((v) => `${x(v.turn).toFixed(1)},${(y(v.vp[seat]) - seat * 0.8).toFixed(1)}`).join(' ');
      box.appendChild(svg('polyline', { points: pts, fill: 'none', stroke: RB_FILL[rbColour(seat)] === '#f4f4f4' ? '#999' : RB_FILL[rbColour(seat)], 'stroke-width': 2, class: 'series vp', 'data-seat': seat, 'data-vp': game.vp.map((v) => v.vp[seat]).join(',') }));
    });
    box.appendChild(svg('line', { class: 'cursor', x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: bottom, stroke: '#b5651d', 'stroke-width': 1.5 }));
    box.setAttribute('data-turns', String(turns));
    const legend = $('score-legend');
    clear(legend);
    game.seats.forEach((s, seat) => {
      const span = el('span');
      span.appendChild(dot(rbColour(seat)));
      const final = game.vp.length ? game.vp[game.vp.length - 1].vp[seat] : 0;
      span.appendChild(document.createTextNode(` ${seatName(game, seat)}: ${final} VP`));
      legend.appendChild(span);
    });
  }
  function rbCursors() {
    const [p] = rbSteps[ply];
    const turns = game.vp.length ? game.vp[game.vp.length - 1].turn : 1;
    const line = $('score-plot').querySelector('.cursor');
    if (line) {
      const x = PLOT.left + (PLOT.w - PLOT.left - PLOT.right) * (game.turns[p] / Math.max(turns, 1));
      line.setAttribute('x1', String(x));
      line.setAttribute('x2', String(x));
    }
    const t = $('time-plot').querySelector('.cursor');
    if (t) {
      const x = plotX(Math.max(p, 0.5) - 0.5);
      t.setAttribute('x1', String(x));
      t.setAttribute('x2', String(x));
    }
  }
  VIEWS.rollerball = {
    hidden: true,
    unit: 'step',
    titles: { 'moves-title': 'Decisions', 'plot1-title': 'Victory points over the turns' },
    head: ['#', 'seat', 'decision', 'time', 'events'],
    moveText: (m, p) => (rbSealed(m, p) ? 'bid (sealed)' : null),
    last: () => rbSteps.length - 1,
    select() {
      rbSteps = [[0, -1]];
      game.decisions.forEach((d, i) => {
        d.steps.forEach((s, k) => rbSteps.push([i + 1, k]));
        rbSteps.push([i + 1, -1]);
      });
      const reveal = game.decisions.findIndex((d) => d.events.some((e) => e.event === 'bids'));
      rbReveal = reveal < 0 ? Infinity : reveal + 1;
      drawMoves((m) => game.decisions[m.ply - 1].events.length);
      // The move list's rows point at decisions; the shell marks rows by step.
      const rows = rowsByPly.slice();
      rowsByPly = rbSteps.map(([p]) => rows[p]);
      for (const tr of $('moves').querySelectorAll('tr.move')) {
        const n = parseInt(tr.firstChild.textContent, 10);
        const to = rbSteps.findIndex(([p, k]) => p === n && k < 0);
        tr.addEventListener('click', (e) => { e.stopImmediatePropagation(); stop(); show(to); }, true);
      }
      rbPlot();
      drawTimePlot();
      genericResult();
      genericAbout(`rollerball, ${game.seats.length} players, turn limit ${game.options.turn_limit}`);
      rbShown = -1;
    },
    show(animate) {
      rbBoard(animate);
      rbSeats();
      rbStatus();
      markMove();
      rbCursors();
      rbShown = ply;
    },
  };
