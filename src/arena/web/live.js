'use strict';
// rollarena arena: the site's one script. On the page of a match in play it follows the
// match's public messages (/api/matches/ID/live) and draws each move as it comes; on the
// leaderboard and team pages it re-reads the page's JSON whenever the server says something
// changed (/api/changes) and redraws the tables. Everything from the server goes into the page
// as text (textContent, attribute values): a team's or a bot's name can never become markup.
// Without this script every page still works; it just does not update.
(function () {
  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }
  function link(href, text) {
    const a = el('a', '', text);
    a.setAttribute('href', href);
    return a;
  }
  function teamHref(name) {
    return '/teams/' + encodeURIComponent(name);
  }
  function row(cells) {
    const tr = el('tr');
    for (const c of cells) {
      const td = el('td', c && c.num ? 'num' : '');
      const v = c && c.node !== undefined ? c.node : c && c.text !== undefined ? c.text : c;
      if (v instanceof Node) td.appendChild(v);
      else td.textContent = v === null || v === undefined ? '' : String(v);
      tr.appendChild(td);
    }
    return tr;
  }
  function text(v) {
    if (v === null || v === undefined) return '-';
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  }
  function fmtMs(ms) {
    if (ms === null || ms === undefined) return '';
    if (ms >= 1000) return (ms / 1000).toFixed(2) + ' s';
    return ms.toFixed(1) + ' ms';
  }
  function time(ms) {
    return ms === null || ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
  }

  // ---- a match in play ----
  function watchMatch(box) {
    const id = box.getAttribute('data-match');
    const status = $('live-status');
    const moves = $('live-moves').tBodies[0];
    const rounds = $('live-rounds').tBodies[0];
    const names = Array.from($('seats').tBodies[0].rows).map((r) => r.cells[1].textContent);
    const seatName = (s) => names[s] !== undefined ? names[s] : 'seat ' + s;
    let seen = 0; // messages drawn (their ids run from 0)
    let source = null;
    let over = false;
    box.setAttribute('data-moves', '0');

    // The state the audience may see, drawn generically: each field as text, lists of
    // objects (the players) as a table, lists of strings (a board's rows) as lines.
    function drawState(st) {
      const out = $('live-state');
      clear(out);
      if (!st || typeof st !== 'object') return;
      const dl = el('dl', 'state');
      for (const k of Object.keys(st)) {
        if (k === 'tracks' || k === 'rules') continue;
        const v = st[k];
        if (Array.isArray(v) && v.length && v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
          const cols = [];
          for (const x of v) for (const c of Object.keys(x)) if (!cols.includes(c)) cols.push(c);
          const t = el('table', 'state-' + k);
          const head = el('tr');
          const seats = k === 'players' && v.length === names.length;
          if (seats) head.appendChild(el('th', '', 'seat'));
          for (const c of cols) head.appendChild(el('th', '', c));
          const thead = el('thead');
          thead.appendChild(head);
          t.appendChild(thead);
          const body = el('tbody');
          v.forEach((x, i) => body.appendChild(row((seats ? [seatName(i)] : []).concat(cols.map((c) => text(x[c]))))));
          t.appendChild(body);
          dl.appendChild(el('dt', '', k));
          const dd = el('dd');
          dd.appendChild(t);
          dl.appendChild(dd);
        } else if (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string' && x.length > 2)) {
          dl.appendChild(el('dt', '', k));
          const dd = el('dd');
          dd.appendChild(el('pre', '', v.join('\n')));
          dl.appendChild(dd);
        } else {
          dl.appendChild(el('dt', '', k));
          dl.appendChild(el('dd', '', text(v)));
        }
      }
      out.appendChild(dl);
    }
    function moveText(m) {
      if (m.move === undefined) return '(not shown)';
      return typeof m.move === 'string' ? m.move : JSON.stringify(m.move);
    }
    function handle(m) {
      if (m.type === 'round') {
        $('live-round').textContent = `Round ${m.round} of ${m.rounds}`;
        const tr = row([{ text: `round ${m.round}` }, '', '', '']);
        tr.className = 'round';
        moves.appendChild(tr);
        status.textContent = `Round ${m.round} has started.`;
      } else if (m.type === 'move') {
        const what = moveText(m);
        const who = `${seatName(m.seat)}${m.colour ? ' (' + m.colour + ')' : ''}`;
        const extra = m.refused ? `, after ${m.refused} refused attempt${m.refused > 1 ? 's' : ''}` : '';
        const tr = row([{ text: m.ply, num: true }, who, what + extra, { text: m.by_arbiter ? 'arbiter' : fmtMs(m.ms), num: true }]);
        tr.className = 'move';
        moves.appendChild(tr);
        drawState(m.state);
        status.textContent = `Move ${m.ply}: ${who} ${m.kind ? m.kind : 'plays'} ${what}.`;
        box.setAttribute('data-moves', String(parseInt(box.getAttribute('data-moves'), 10) + 1));
      } else if (m.type === 'forfeit') {
        const tr = row(['', seatName(m.seat), `forfeits (${m.kind})`, '']);
        tr.className = 'forfeit';
        moves.appendChild(tr);
      } else if (m.type === 'round_end') {
        const r = m.record && m.record.result;
        const points = r ? r.points.map(text).join(', ') : '';
        const winners = r ? r.ranks.map((rank, s) => rank === 1 ? seatName(s) : null).filter((x) => x !== null).join(', ') : '';
        rounds.appendChild(row([{ text: m.round, num: true }, points, winners]));
        status.textContent = `Round ${m.round} is over.`;
      } else if (m.type === 'end') {
        status.textContent = 'The match is over: its result is being counted.';
        finish();
      }
    }
    // The finished page replaces this one once the result counts.
    function finish() {
      if (over) return;
      over = true;
      if (source) source.close();
      box.setAttribute('data-over', 'true');
      const poll = () => fetch(`/api/matches/${id}`, { credentials: 'same-origin' })
        .then((r) => { if (r.ok) location.reload(); else setTimeout(poll, 1000); })
        .catch(() => setTimeout(poll, 2000));
      poll();
    }
    function connect() {
      source = new EventSource(`/api/matches/${id}/live`);
      source.onmessage = (e) => {
        const n = parseInt(e.lastEventId, 10);
        if (Number.isInteger(n) && n < seen) return; // already drawn (a new connection's backlog)
        seen = Number.isInteger(n) ? n + 1 : seen + 1;
        handle(JSON.parse(e.data));
      };
      source.addEventListener('reload', () => location.reload());
      // The server is stopping: EventSource reconnects by itself once it is back.
      source.addEventListener('shutdown', () => {
        status.textContent = 'The server is restarting: this page follows the match again once it is back.';
      });
      source.onerror = () => {
        if (over || source.readyState !== EventSource.CLOSED) return;
        // Not in play (not started yet, or just over): look again soon.
        fetch(`/api/matches/${id}`, { credentials: 'same-origin' })
          .then((r) => { if (r.ok) location.reload(); else setTimeout(connect, 2000); })
          .catch(() => setTimeout(connect, 2000));
      };
    }
    status.textContent = 'Waiting for the first move...';
    connect();
  }

  // ---- pages that follow the arena ----
  function follow(redraw) {
    let pending = false;
    const source = new EventSource('/api/changes');
    source.addEventListener('changed', () => {
      if (pending) return;
      pending = true;
      setTimeout(() => { pending = false; redraw(); }, 300);
    });
  }
  function getJson(url) {
    return fetch(url, { credentials: 'same-origin' }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
  }
  function signed(v) {
    return (v >= 0 ? '+' : '') + v.toFixed(2);
  }
  function leaderboard(table) {
    follow(() => getJson('/api/leaderboard').then((lb) => {
      const body = table.tBodies[0];
      clear(body);
      for (const r of lb.rows) {
        const team = el('span');
        team.appendChild(link(teamHref(r.team), r.team));
        if (r.builtin) { team.appendChild(document.createTextNode(' ')); team.appendChild(el('span', 'badge', 'built-in')); }
        const version = el('span', '', r.version_label + ' ');
        version.appendChild(el('span', 'muted', '#' + r.version_id));
        if (r.pinned) { version.appendChild(document.createTextNode(' ')); version.appendChild(el('span', 'badge pinned', 'pinned')); }
        let trend;
        if (r.trend === null || r.trend === undefined) trend = el('span', 'muted', 'new');
        else if (r.trend > 0.005) trend = el('span', 'up', '▲ ' + signed(r.trend));
        else if (r.trend < -0.005) trend = el('span', 'down', '▼ ' + signed(r.trend));
        else trend = el('span', 'muted', signed(r.trend));
        body.appendChild(row([
          { text: r.rank, num: true }, { node: team }, { node: version },
          { text: `${r.mu.toFixed(2)} ± ${r.sigma.toFixed(2)}`, num: true },
          { node: el('b', '', r.conservative.toFixed(2)), num: true },
          { text: r.matches, num: true }, { node: trend, num: true },
        ]));
      }
      // The versions still placing: the table's second body, under its heading row.
      const placing = table.tBodies[1];
      if (placing) {
        while (placing.rows.length > 1) placing.deleteRow(1);
        for (const r of lb.placing || []) {
          const team = el('span');
          team.appendChild(link(teamHref(r.team), r.team));
          if (r.builtin) { team.appendChild(document.createTextNode(' ')); team.appendChild(el('span', 'badge', 'built-in')); }
          const version = el('span', '', r.version_label + ' ');
          version.appendChild(el('span', 'muted', '#' + r.version_id));
          if (r.pinned) { version.appendChild(document.createTextNode(' ')); version.appendChild(el('span', 'badge pinned', 'pinned')); }
          placing.appendChild(row([
            { node: el('span', 'muted', '–'), num: true }, { node: team }, { node: version },
            { text: `${r.mu.toFixed(2)} ± ${r.sigma.toFixed(2)}`, num: true },
            { node: el('span', 'muted', `placing: ${r.matches} of ${lb.placement_matches}`), num: true },
            { text: r.matches, num: true }, { node: el('span', 'muted', 'new'), num: true },
          ]));
        }
      }
      const count = $('matches-count');
      if (count) count.textContent = String(lb.matches);
      table.setAttribute('data-updated', String(Date.now()));
    }).catch(() => {}));
  }
  function teamPage(name) {
    follow(() => getJson('/api/teams/' + encodeURIComponent(name)).then((t) => {
      const versions = $('versions');
      if (versions) {
        const body = versions.tBodies[0];
        clear(body);
        for (const v of t.versions) {
          const idCell = el('span');
          if (t.own) idCell.appendChild(link('/submissions/' + v.id, '#' + v.id));
          else idCell.appendChild(document.createTextNode('#' + v.id));
          if (t.active_version === v.id) { idCell.appendChild(document.createTextNode(' ')); idCell.appendChild(el('span', 'badge active', 'plays')); }
          const state = el('span');
          state.appendChild(el('span', 'badge ' + v.state, v.state));
          if (v.failure) { state.appendChild(document.createTextNode(' ')); state.appendChild(el('span', 'failure', v.failure)); }
          const verdict = v.sprt && v.sprt.verdict ? (['better', 'not better'].includes(v.sprt.verdict) ? v.sprt.verdict : 'undecided') : '-';
          body.appendChild(row([
            { node: idCell }, v.label, v.language, time(v.submitted_at), { node: state },
            { text: `${v.mu.toFixed(2)} ± ${v.sigma.toFixed(2)}`, num: true }, { text: v.matches, num: true }, verdict,
          ]));
        }
        versions.setAttribute('data-updated', String(Date.now()));
      }
      const opponents = $('opponents');
      if (opponents) {
        const body = opponents.tBodies[0];
        clear(body);
        for (const o of t.opponents) {
          body.appendChild(row([{ node: link(teamHref(o.team), o.team) }, { text: o.matches, num: true }, { text: o.wins, num: true },
            { text: o.draws, num: true }, { text: o.losses, num: true }, { text: Math.round(o.score * 100) + '%', num: true }]));
        }
      }
      const recent = document.querySelector('table.matches');
      if (recent) {
        const body = recent.tBodies[0];
        clear(body);
        for (const m of t.recent) {
          const seats = el('span');
          m.seats.forEach((s, i) => {
            if (i > 0) seats.appendChild(document.createTextNode(' · '));
            seats.appendChild(link(teamHref(s.team), s.team));
            const points = s.points === null || s.points === undefined ? '-' : String(s.points);
            seats.appendChild(document.createTextNode(' '));
            seats.appendChild(el('span', 'muted', points + (s.rank ? ', #' + s.rank : '')));
          });
          body.appendChild(row([{ node: link('/matches/' + m.id, '#' + m.id) }, time(m.finished_at), m.kind, { node: seats }]));
        }
      }
    }).catch(() => {}));
  }

  function init() {
    const live = $('live');
    if (live && live.hasAttribute('data-match')) watchMatch(live);
    const lb = $('leaderboard');
    if (lb) leaderboard(lb);
    const m = /^\/teams\/([^/]+)$/.exec(location.pathname);
    if (m) teamPage(decodeURIComponent(m[1]));
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
