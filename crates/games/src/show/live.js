  // ---- the live board (the arena's match in play) ----
  // Inserted into the viewer's shell on a live page only (`DATA.live`: the match, its seats,
  // its settings). It follows the match's public messages (/api/matches/ID/live, protocol/
  // ARENA.md "Live matches") and turns each round's messages into the round the game's view
  // draws, through the game's live part (`LIVE[game](round)`: the fields its view reads, built
  // from the states the stream shows). The board follows the last move unless the user steps
  // back; a new round moves it on. The stream holds only what every seat knows, and the view
  // shows it as the audience's: hands and sealed bids as backs and counts (`viewSeat` -1).
  function liveBoard() {
    const L = DATA.live;
    const rounds = []; // by round number - 1: {round, rounds, start, moves, forfeits, record}
    const built = {}; // the viewer's rounds, by round number
    const points = L.seats.map(() => 0); // the match's points so far, per seat
    let seen = 0; // messages handled (their ids run from 0)
    let source = null;
    let over = false;
    let pending = null;
    let following = true;
    viewSeat = -1; // the audience: no seat's hand
    const mark = el('span', 'live-mark', '● live');
    mark.id = 'live-mark';
    $('verdict').replaceWith(mark);
    const clocks = el('div');
    clocks.id = 'clocks';
    $('scores').after(clocks);
    document.body.setAttribute('data-live', 'waiting');
    document.title = `${DATA.title} - rollarena live`;
    document.querySelector('header h1').textContent = 'rollarena live';
    // A round in play is not over at its last move: the views' status says what comes.
    const own = VIEWS[L.game] || GENERIC;
    const drawn = own.show;
    own.show = function (animate) {
      drawn.call(this, animate);
      if (!game.live || ply < last()) return;
      for (const d of $('status').querySelectorAll('div')) {
        if (/^the (round|token) is over$/.test(d.textContent)) d.textContent = 'in play: the next move is awaited';
      }
    };
    $('status').textContent = 'waiting for the match to start...';

    function roundOf(n, total) {
      if (!rounds[n - 1]) rounds[n - 1] = { round: n, rounds: total || L.rounds, start: null, moves: [], forfeits: [], record: null };
      return rounds[n - 1];
    }
    // The viewer's round for round r: the fields every round has, then the game's own.
    function build(r) {
      const rec = r.record;
      const colours = (r.start && r.start.colours) || (rec && rec.colours) || [];
      const seats = L.seats.map((name, i) => {
        const s = rec && rec.seats[i];
        return { name: s ? s.name : name, command: s ? s.command : '', bot_name: s && s.bot_name, bot_version: s && s.bot_version, bot_author: s && s.bot_author, colour: colours[i] || null };
      });
      // Once the round is over its record is public: its moves as played (a bid revealed),
      // their refused attempts; the states stay the stream's (the audience's).
      const played = rec && rec.moves.length === r.moves.length ? rec.moves : null;
      const moves = r.moves.map((m, i) => ({
        ply: m.ply, seat: m.seat, kind: m.kind, colour: m.colour,
        move: played ? played[i].move : m.move === undefined ? '(not shown)' : m.move,
        effects: m.effects || {}, state: m.state, ms: m.ms, at_ms: m.at_ms, bank_ms: m.bank_ms, by_arbiter: m.by_arbiter,
        // A refused attempt's line and reason may name a hand's cards: the stream counts them.
        refused: played ? played[i].refused || [] : Array.from({ length: m.refused || 0 }, () => ({ line: '(not shown while the round is in play)', reason: '', ms: null })),
      }));
      const g = {
        index: r.round, match: String(L.match), table: null, round: r.round, rounds: r.rounds, game: L.game,
        options: L.options, match_seed: rec ? rec.match_seed : '-', seed: rec ? rec.seed : '-', settings: rec ? rec.settings : L.settings,
        seats: seats, first: r.start ? r.start.first : 0, moves: moves,
        forfeits: rec ? rec.forfeits : r.forfeits.map((f) => Object.assign({ detail: 'see the finished match' }, f)),
        faults: rec ? rec.faults : [], logs: [], stderr: [], result: rec ? rec.result : null,
        started: rec ? rec.started : 'in play', ended: rec ? rec.ended : '-', arbiter: rec ? rec.arbiter : '', live: !rec,
      };
      const part = LIVE[L.game];
      Object.assign(g, part ? part(g, r.start ? r.start.state : null) : liveGeneric(g, r.start ? r.start.state : null));
      return g;
    }
    // A game without a live part: each state as JSON text.
    function liveGeneric(g, start) {
      const frames = [start].concat(g.moves.map((m) => m.state)).map((s) => (s === undefined || s === null ? '' : JSON.stringify(s, null, 1)));
      return { frames: frames, result: g.result || { ranks: g.seats.map(() => 1), points: g.seats.map(() => 0), wins: g.seats.map(() => 0) } };
    }
    function drawClocks() {
      clear(clocks);
      if (!game) return;
      const used = game.seats.map(() => 0);
      const lastMs = game.seats.map(() => null);
      const bank = game.seats.map(() => null);
      for (const m of game.moves) {
        if (m.by_arbiter) continue;
        used[m.seat] += m.ms || 0;
        lastMs[m.seat] = m.ms;
        if (m.bank_ms !== undefined && m.bank_ms !== null) bank[m.seat] = m.bank_ms;
      }
      const s = game.settings || {};
      const rows = game.seats.map((seat, i) => {
        const name = el('span');
        name.appendChild(dot(seat.colour));
        name.appendChild(document.createTextNode(' ' + seat.name));
        return [name, fmtMs(used[i]) || '0 ms', lastMs[i] === null ? '-' : fmtMs(lastMs[i]), bank[i] === null ? '-' : fmtMs(bank[i]), points[i]];
      });
      const t = table([{ label: 'seat' }, { label: 'thinking, this round', num: true }, { label: 'last move', num: true },
        { label: 'bank left', num: true }, { label: 'match points', num: true }], rows);
      t.className = 'clocks';
      clocks.appendChild(t);
      if (s.move_ms) clocks.appendChild(el('div', 'muted', `${fmtMs(s.move_ms)} a move at most${s.margin_ms ? ' (+' + fmtMs(s.margin_ms) + ' margin)' : ''}`));
      if (!over) clocks.appendChild(waiting);
    }
    function roundOption(r) {
      const picker = $('round');
      let o = picker.querySelector(`option[value="${r.round}"]`);
      if (!o) {
        o = el('option');
        o.value = String(r.round);
        picker.appendChild(o);
      }
      o.textContent = `round ${r.round}/${r.rounds}${r.record ? '' : ', in play'} (${L.seats.join(' vs ')})`;
    }
    // Draws what changed since the last time, at most a few times a second.
    function redraw() {
      pending = null;
      // A round shows once its state before the first move is in (its bots are started).
      const latest = rounds.filter((r) => r && (r.start || r.record)).pop();
      if (!latest) return;
      const shownIndex = game ? game.index : null;
      const atEnd = game !== null && ply >= last();
      let target = shownIndex;
      if (shownIndex === null || (following && atEnd)) target = latest.round;
      for (const r of rounds) {
        if (!r || !r.dirty || !(r.start || r.record)) continue;
        built[r.round] = build(r);
        r.dirty = false;
        roundOption(r);
      }
      DATA.games = Object.keys(built).map((k) => built[k]).sort((a, b) => a.index - b.index);
      const keep = target === shownIndex && !atEnd ? ply : null;
      select(target);
      if (keep === null) show(last());
      else show(keep);
      drawClocks();
      $('seat-view-box').hidden = true; // the audience's view only
      document.body.setAttribute('data-live', over ? 'over' : 'playing');
      document.body.setAttribute('data-round', String(game.round));
      document.body.setAttribute('data-moves', String(game.moves.length));
      document.body.setAttribute('data-following', String(following));
    }
    function later() {
      if (pending === null) pending = setTimeout(redraw, 200);
    }
    // How long the next move has been awaited, while the match is in play.
    let lastAt = null;
    const waiting = el('div', 'muted');
    waiting.id = 'live-wait';
    setInterval(() => {
      if (over || lastAt === null || !waiting.isConnected) return;
      waiting.textContent = `the next move awaited for ${((Date.now() - lastAt) / 1000).toFixed(1)} s`;
    }, 500);
    function handle(m) {
      if (m.type !== 'end') lastAt = Date.now();
      if (m.type === 'round') {
        roundOf(m.round, m.rounds).dirty = true;
      } else if (m.type === 'start') {
        const r = roundOf(m.round);
        r.start = m;
        r.dirty = true;
      } else if (m.type === 'move') {
        const r = roundOf(m.round);
        r.moves.push(m);
        r.dirty = true;
      } else if (m.type === 'forfeit') {
        const r = roundOf(m.round);
        r.forfeits.push(m);
        r.dirty = true;
      } else if (m.type === 'round_end') {
        const r = roundOf(m.round);
        r.record = m.record;
        r.dirty = true;
        const got = m.record && m.record.result ? m.record.result.points : [];
        got.forEach((p, i) => { if (typeof p === 'number') points[i] += p; });
      } else if (m.type === 'end') {
        over = true;
        mark.textContent = 'match over';
        mark.classList.add('over');
        document.body.setAttribute('data-live', 'over');
        if (source) source.close();
      }
      later();
    }
    function connect() {
      source = new EventSource(`/api/matches/${L.match}/live`);
      source.onmessage = (e) => {
        const n = parseInt(e.lastEventId, 10);
        if (Number.isInteger(n) && n < seen) return; // already handled (a new connection's backlog)
        seen = Number.isInteger(n) ? n + 1 : seen + 1;
        handle(JSON.parse(e.data));
      };
      source.addEventListener('reload', () => location.reload());
      source.onerror = () => {
        if (over || source.readyState !== EventSource.CLOSED) return;
        // Not in play: not started yet (look again soon), or over (the page around says so).
        setTimeout(connect, 500);
      };
    }
    // The user steps back: the board stays there until they go to the last step again.
    for (const id of ['first', 'back', 'slider', 'round']) {
      $(id).addEventListener(id === 'slider' || id === 'round' ? 'input' : 'click', () => { following = false; });
    }
    for (const id of ['last', 'forward']) {
      $(id).addEventListener('click', () => { if (ply >= last()) following = true; });
    }
    $('play').addEventListener('click', () => { following = false; });
    connect();
  }
  if (DATA.live) liveBoard();
