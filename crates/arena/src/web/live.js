'use strict';
// rollarena arena: the site's one script. On the page of a match in play it follows the
// match's public messages (/api/matches/ID/live) beside the live board's frame, and turns the
// page into the finished match's once it is counted; on the
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
  function time(ms) {
    return ms === null || ms === undefined ? '-' : new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
  }

  // ---- a match in play ----
  // The board is the replay viewer in the frame (#live-board, /matches/ID/watch), which
  // follows the match's messages itself; this page keeps the rounds played and, once the
  // match is counted, becomes the finished match's page in place (no reload: its `main` is
  // swapped for the finished page's).
  function watchMatch(box) {
    const id = box.getAttribute('data-match');
    const status = $('live-status');
    const rounds = $('live-rounds').tBodies[0];
    const names = Array.from($('seats').tBodies[0].rows).map((r) => r.cells[1].textContent);
    const seatName = (s) => names[s] !== undefined ? names[s] : 'seat ' + s;
    let seen = 0; // messages handled (their ids run from 0)
    let source = null;
    let over = false;
    box.setAttribute('data-moves', '0');

    function handle(m) {
      if (m.type === 'round') {
        status.textContent = `Round ${m.round} of ${m.rounds} has started.`;
        box.setAttribute('data-round', String(m.round));
      } else if (m.type === 'move') {
        box.setAttribute('data-moves', String(parseInt(box.getAttribute('data-moves'), 10) + 1));
      } else if (m.type === 'round_end') {
        const r = m.record && m.record.result;
        const points = r ? r.points.map(text).join(', ') : '';
        const winners = r ? r.ranks.map((rank, s) => rank === 1 ? seatName(s) : null).filter((x) => x !== null).join(', ') : '';
        rounds.appendChild(row([{ text: m.round, num: true }, points, winners]));
        status.textContent = `Round ${m.round} is over.`;
        box.setAttribute('data-rounds-over', String(rounds.rows.length));
      } else if (m.type === 'end') {
        status.textContent = 'The match is over: its result is being counted.';
        finish();
      }
    }
    // The finished page, once the result counts: its `main` replaces this one's.
    function finish() {
      if (over) return;
      over = true;
      if (source) source.close();
      box.setAttribute('data-over', 'true');
      const poll = () => fetch(`/api/matches/${id}`, { credentials: 'same-origin' })
        .then((r) => {
          if (!r.ok) return setTimeout(poll, 500);
          return fetch(`/matches/${id}`, { credentials: 'same-origin' }).then((p) => p.text()).then((html) => {
            const doc = new DOMParser().parseFromString(html, 'text/html');
            const main = doc.querySelector('main');
            if (!main || doc.getElementById('live')) return setTimeout(poll, 500);
            document.querySelector('main').replaceWith(document.adoptNode(main));
            document.title = doc.title;
            document.body.setAttribute('data-finished', id);
          });
        })
        .catch(() => setTimeout(poll, 2000));
      poll();
    }
    function connect() {
      source = new EventSource(`/api/matches/${id}/live`);
      source.onmessage = (e) => {
        const n = parseInt(e.lastEventId, 10);
        if (Number.isInteger(n) && n < seen) return; // already handled (a new connection's backlog)
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
        // Not in play: not started yet (look again soon), or just over (its page is next).
        fetch(`/api/matches/${id}`, { credentials: 'same-origin' })
          .then((r) => { if (r.ok) finish(); else setTimeout(connect, 500); })
          .catch(() => setTimeout(connect, 2000));
      };
    }
    status.textContent = 'Waiting for the first move...';
    connect();
  }

  // ---- pages that follow the arena ----
  function follow(redraw) {
    let pending = false;
    const soon = () => {
      if (pending) return;
      pending = true;
      setTimeout(() => { pending = false; redraw(); }, 300);
    };
    const source = new EventSource('/api/changes');
    source.addEventListener('changed', soon);
    // Once connected (and after each reconnection), once: what changed between the page's
    // render and the stream's start would otherwise wait for the next change, and a ladder at
    // rest may make none.
    source.addEventListener('open', soon);
  }
  function getJson(url) {
    return fetch(url, { credentials: 'same-origin' }).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));
  }
  function signed(v) {
    return (v >= 0 ? '+' : '') + v.toFixed(2);
  }
  // A long value on one line, cut with an ellipsis, the whole in its tooltip (as the server
  // draws it: templates::clip).
  function clipped(node, text) {
    node.classList.add('clip');
    node.setAttribute('title', text);
    return node;
  }
  function leaderboard(table) {
    follow(() => getJson('/api/leaderboard').then((lb) => {
      const body = table.tBodies[0];
      clear(body);
      for (const r of lb.rows) {
        const team = el('span');
        team.appendChild(clipped(link(teamHref(r.team), r.team), r.team));
        if (r.builtin) { team.appendChild(document.createTextNode(' ')); team.appendChild(el('span', 'badge', 'built-in')); }
        const version = el('span');
        version.appendChild(clipped(el('span', '', r.version_label), r.version_label));
        version.appendChild(document.createTextNode(' '));
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
            { node: idCell }, { node: clipped(el('span', '', v.label), v.label) }, v.language, time(v.submitted_at), { node: state },
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
          body.appendChild(row([{ node: clipped(link(teamHref(o.team), o.team), o.team) }, { text: o.matches, num: true }, { text: o.wins, num: true },
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
            seats.appendChild(clipped(link(teamHref(s.team), s.team), s.team));
            const points = s.points === null || s.points === undefined ? '-' : String(s.points);
            seats.appendChild(document.createTextNode(' '));
            seats.appendChild(el('span', 'muted nowrap', points + (s.rank ? ', #' + s.rank : '')));
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
