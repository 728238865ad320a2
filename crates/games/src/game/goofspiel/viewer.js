  // Goofspiel, the small example of a game's view. Part of rollarena's replay viewer: runs
  // inside its shell (viewer.js in crates/games/src/show/), whose helpers and state (game, ply, viewSeat, el,
  // svg, ...) it uses. A step is a bid; the board shows the prize, each seat's bid (sealed
  // until every bid of the turn is in, or in a seat's own view) and the prize points.
  function gsBoard() {
    const st = game.states[ply];
    const box = $('board');
    clear(box);
    const n = game.seats.length;
    const w = Math.max(100, 28 * n + 12);
    box.setAttribute('viewBox', `0 0 ${w} 100`);
    box.setAttribute('data-ply', String(ply));
    box.appendChild(svg('rect', { x: 0, y: 0, width: w, height: 100, rx: 3, fill: '#1f5d4c' }));
    // The last turn's prize and bids once revealed, else the prize on show and sealed bids.
    const done = st.history.length ? st.history[st.history.length - 1] : null;
    const open = st.bids.some((b) => b !== null);
    const prize = open || !done ? st.prize : done.prize;
    const card = (x, y, text, cls, fill) => {
      const g = svg('g', { class: cls });
      g.appendChild(svg('rect', { x: x, y: y, width: 20, height: 28, rx: 2, fill: fill, stroke: '#0d3027', 'stroke-width': 0.6 }));
      const t = svg('text', { x: x + 10, y: y + 18, 'font-size': 11, 'text-anchor': 'middle', fill: '#1d1d1f' });
      t.textContent = text;
      g.appendChild(t);
      box.appendChild(g);
      return g;
    };
    if (prize !== null && prize !== undefined) card(w / 2 - 10, 6, String(prize), 'prize', '#f2c230').setAttribute('data-prize', String(prize));
    game.seats.forEach((s, seat) => {
      const x = 6 + seat * 28;
      let text = '';
      let cls = 'bid';
      if (open) {
        const b = st.bids[seat];
        if (b === null) { text = '…'; cls = 'bid waiting'; }
        else if (viewSeat === null || viewSeat === seat) text = String(b);
        else { text = '?'; cls = 'bid sealed'; }
      } else if (done) {
        text = String(done.bids[seat]);
        cls = done.winner === seat ? 'bid revealed winner' : 'bid revealed';
      }
      const g = card(x, 62, text, cls, cls.includes('winner') ? '#cfe3dc' : '#fffdf8');
      g.setAttribute('data-seat', String(seat));
      // The name under its card, cut to the card's width (in full in the seat list and its title).
      const name = svg('text', { x: x + 10, y: 97, 'font-size': 4, 'text-anchor': 'middle', fill: '#e8f0ec', class: 'seat-name' });
      name.textContent = s.name.length > 10 ? s.name.slice(0, 9) + '…' : s.name;
      const title = svg('title', {});
      title.textContent = s.name;
      name.appendChild(title);
      box.appendChild(name);
    });
  }
  // gsReveal[p]: the bid after which move p's bid is shown to every seat (the turn's last).
  let gsReveal = [];
  function gsSealed(m, p) {
    return viewSeat !== null && viewSeat !== m.seat && ply < gsReveal[p];
  }
  function gsSeats() {
    const st = game.states[ply];
    const list = $('seats');
    clear(list);
    game.seats.forEach((s, seat) => {
      const li = el('li');
      li.setAttribute('data-seat', String(seat));
      li.appendChild(dot(s.colour));
      li.appendChild(el('span', 'name', s.name));
      const hand = st.hands[seat];
      const sees = viewSeat === null || viewSeat === seat;
      const h = el('span', 'hand seat-hand');
      if (Array.isArray(hand) && sees) for (const c of hand) h.appendChild(el('span', 'card', c));
      else {
        const k = Array.isArray(hand) ? hand.length : hand;
        h.setAttribute('data-hidden', String(k));
        for (let i = 0; i < k; i++) h.appendChild(el('span', 'card hidden', '??'));
      }
      li.appendChild(h);
      li.appendChild(el('span', 'pts', `${st.scores[seat]} pts`));
      list.appendChild(li);
    });
  }
  VIEWS.goofspiel = {
    hidden: true,
    unit: 'bid',
    head: ['#', 'seat', 'bid', 'time', ''],
    titles: { 'moves-title': 'Bids', 'plot1-title': 'Prize points over the bids' },
    last: () => game.moves.length,
    moveText: (m, p) => (gsSealed(m, p) ? 'bid (sealed)' : null),
    select() {
      gsReveal = [];
      let reveal = Infinity; // a turn the record leaves unfinished stays sealed
      for (let p = game.moves.length; p >= 1; p--) {
        if (game.states[p].bids.every((b) => b === null)) reveal = p; // the turn's last bid
        gsReveal[p] = reveal;
      }
      drawMoves(() => '');
      const box = $('score-plot');
      clear(box);
      let max = 1;
      for (const st of game.states) for (const v of st.scores) max = Math.max(max, v);
      axes(box, max, String(max));
      const y = (v) => PLOT.h - PLOT.bottom - (PLOT.h - PLOT.bottom - PLOT.top) * (v / max);
      game.seats.forEach((s, seat) => {
        const pts = game.states.map((st, i) => `${plotX(i).toFixed(1)},${y(st.scores[seat]).toFixed(1)}`).join(' ');
        box.appendChild(svg('polyline', { points: pts, fill: 'none', stroke: FILL[s.colour] || ['#d62f2f', '#2f6fd6', '#2e9e4f', '#b5651d'][seat % 4], 'stroke-width': 2, class: 'series' }));
      });
      cursor(box);
      clear($('score-legend'));
      drawTimePlot();
      genericResult();
      genericAbout(`goofspiel, ${game.options.cards} cards, ${game.seats.length} players`);
    },
    show() {
      gsBoard();
      gsSeats();
      genericStatus();
      const m = ply > 0 ? game.moves[ply - 1] : null;
      if (m && gsSealed(m, ply)) {
        // Another seat's bid, not yet revealed: this seat saw only that it was made.
        $('status').textContent = `${seatName(game, m.seat)} bids (sealed)`;
      }
      markMove();
      drawCursors();
    },
  };
