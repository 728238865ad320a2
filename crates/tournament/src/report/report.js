// The organiser's report: one script for every page (front page, bot pages, tables, live
// standings), drawn from the JSON embedded in the page. Everything a bot or an organiser chose
// (names, commands, logs, stderr, lines) is put in the page as text nodes only: this script
// never parses markup, and the page's Content-Security-Policy allows no other script and no
// network.
'use strict';
(function () {
  const DATA = JSON.parse(document.getElementById('report-data').textContent);
  const ROOT = DATA.root || '';
  const NAMES = DATA.names || [];
  const SVGNS = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#d62f2f', '#2f6fd6', '#2e9e4f', '#e0a100', '#8e44ad', '#16a085', '#d35400',
    '#34495e', '#c2185b', '#7f8c1d'];
  const colourOf = (i) => i < PALETTE.length ? PALETTE[i] : `hsl(${(i * 137) % 360} 60% 45%)`;

  // An element with attributes (strings, set as attributes or properties) and children
  // (strings become text nodes).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, String(v));
    }
    for (const c of children) append(e, c);
    return e;
  }
  function append(parent, c) {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) { c.forEach((x) => append(parent, x)); return; }
    parent.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
    }
    return e;
  }
  const main = document.getElementById('main');
  const panel = (title, ...children) => el('section', { class: 'panel' }, el('h2', { text: title }), ...children);
  // A number with d decimals, rounded as the terminal's tables round it (Rust's formatting: a
  // value exactly halfway goes to the even digit, so 1.25 is 1.2 there and here; toFixed alone
  // would say 1.3).
  function fixed(x, d) {
    if (x < 0 || Object.is(x, -0)) return '-' + fixed(-x, d);
    const s = x.toFixed(d);
    const exact = x.toFixed(Math.min(100, d + 60));
    if (!/^50*$/.test(exact.slice(exact.length - 60))) return s;
    const down = exact.slice(0, exact.length - 60).replace(/\.$/, '');
    return Number(down[down.length - 1]) % 2 === 0 ? down : s;
  }
  // "1 table", "2 tables".
  const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const fmt = (x, d) => (x === null || x === undefined || Number.isNaN(x)) ? '-' : fixed(Number(x), d);
  // Round wins (a shared win counts 1/k): whole numbers as they are, and a column in which one
  // is not whole shows every value with the decimals the most precise one needs (at most 2).
  const winsDigits = (all) => Math.max(0, ...all.map((w) => {
    const t = fixed(w, 2);
    return t.endsWith('.00') ? 0 : t.endsWith('0') ? 1 : 2;
  }));
  const wins = (w, digits) => fixed(w, digits === undefined ? winsDigits([w]) : digits);
  const botHref = (i) => `${ROOT}bots/${i + 1}.html`;
  const botLink = (i) => i === null || i === undefined
    ? el('span', { class: 'muted', text: '(not a bot of this tournament)' })
    : el('a', { href: botHref(i), class: 'bot' }, NAMES[i]);
  const replayHref = (file, game) => `replays/${String(file).padStart(4, '0')}.html#round=${game}`;
  const replayLink = (h, label) => h ? el('a', { href: ROOT + h, class: 'replay' }, label || 'replay') : el('span', { class: 'muted', text: '-' });
  const nameIndex = new Map(NAMES.map((n, i) => [n, i]));

  function header() {
    document.title = (DATA.title ? DATA.title + ' - ' : '') + (DATA.heading || 'rollarena report');
    document.getElementById('title').textContent = DATA.heading || DATA.title || 'rollarena report';
    const nav = document.getElementById('nav');
    if (DATA.home) {
      append(nav, [el('a', { href: DATA.home.href, id: 'home' }, '\u2190 ' + DATA.home.label)]);
    }
    if (DATA.kind !== 'live') {
      append(nav, [el('a', { href: ROOT + 'index.html' }, 'standings'),
        el('a', { href: ROOT + 'tables.html' }, 'tables and rounds')]);
    }
    document.getElementById('subtitle').textContent = DATA.subtitle || '';
  }

  // A table whose columns sort on a click of their header: cols are
  // {label, num, value(row) for sorting, cell(row) -> node or text, cls}.
  function sortable(id, cols, rows, initial) {
    const tbody = el('tbody');
    const heads = cols.map((c, i) => el('th', {
      class: 'sortable' + (c.num ? ' num' : ''), title: c.title || null, 'data-col': c.key || null,
      onclick: () => sortBy(i),
    }, c.label));
    const table = el('table', { id }, el('thead', {}, el('tr', {}, heads)), tbody);
    let state = { col: -1, asc: true };
    function draw(order) {
      tbody.textContent = '';
      for (const r of order) {
        tbody.appendChild(el('tr', { 'data-bot': r.bot === undefined ? null : r.bot },
          cols.map((c) => {
            const v = c.cell(r);
            return el('td', { class: (c.num ? 'num ' : '') + (c.cls || ''), 'data-col': c.key || null },
              v === null || v === undefined ? '-' : v);
          })));
      }
    }
    function sortBy(i) {
      const asc = state.col === i ? !state.asc : !!cols[i].asc;
      state = { col: i, asc };
      heads.forEach((h, j) => { h.classList.toggle('sorted-asc', j === i && asc); h.classList.toggle('sorted-desc', j === i && !asc); });
      const val = cols[i].value;
      const order = rows.slice().sort((a, b) => {
        const x = val(a), y = val(b);
        let c;
        if (x === null || x === undefined) c = 1;
        else if (y === null || y === undefined) c = -1;
        else if (typeof x === 'string') c = x.localeCompare(y);
        else c = x - y;
        return asc ? c : -c;
      });
      draw(order);
    }
    draw(rows);
    if (initial !== undefined) {
      state = { col: initial, asc: true };
      heads[initial].classList.add('sorted-asc');
    }
    return table;
  }

  // How a bot's process ended, in words: `{"code": 2}`, `{"signal": 9}`.
  const SIGNALS = { 1: 'SIGHUP', 2: 'SIGINT', 3: 'SIGQUIT', 4: 'SIGILL', 6: 'SIGABRT', 7: 'SIGBUS', 8: 'SIGFPE',
    9: 'SIGKILL', 11: 'SIGSEGV', 13: 'SIGPIPE', 14: 'SIGALRM', 15: 'SIGTERM', 24: 'SIGXCPU', 25: 'SIGXFSZ' };
  function exitText(e) {
    if (e.code !== undefined && e.code !== null) return `the process exited with status ${e.code}`;
    if (e.signal !== undefined && e.signal !== null) {
      return `the process was killed by signal ${e.signal}${SIGNALS[e.signal] ? ` (${SIGNALS[e.signal]})` : ''}`;
    }
    return 'the process ended';
  }

  function forfeitText(f) {
    const kinds = Object.entries(f || {});
    return kinds.length ? kinds.map(([k, n]) => `${k} ${n}`).join(', ') : '-';
  }

  function standingsTable(s) {
    const two = s.standings.some((r) => r.elo);
    const allWins = winsDigits(s.standings.map((r) => r.wins));
    const rows = s.standings.map((r) => Object.assign({ botIndex: nameIndex.get(r.bot) }, r));
    const cols = [
      { key: 'rank', label: 'rank', num: true, asc: true, value: (r) => r.rank, cell: (r) => String(r.rank) },
      { key: 'bot', label: 'bot', asc: true, cls: 'name', value: (r) => r.bot,
        cell: (r) => r.botIndex === undefined || DATA.kind === 'live' ? r.bot : el('a', { href: botHref(r.botIndex) }, r.bot) },
      { key: 'tables', label: 'tables', num: true, value: (r) => r.tables, cell: (r) => String(r.tables) },
      { key: 'rounds', label: 'rounds', num: true, value: (r) => r.rounds, cell: (r) => String(r.rounds) },
      { key: 'wins', label: 'wins', num: true, value: (r) => r.wins, cell: (r) => wins(r.wins, allWins), title: 'round wins; a shared win counts 1/k' },
      { key: 'points', label: 'points', num: true, value: (r) => r.points, cell: (r) => String(r.points) },
      { key: 'avg_points', label: 'avg points', num: true, value: (r) => r.avg_points, cell: (r) => fmt(r.avg_points, 1) },
      { key: 'win_pct', label: 'win %', num: true, value: (r) => r.win_pct, cell: (r) => fmt(r.win_pct, 1) },
      { key: 'forfeits', label: 'forfeits', value: (r) => Object.values(r.forfeits || {}).reduce((a, b) => a + b, 0),
        cell: (r) => el('span', { class: Object.keys(r.forfeits || {}).length ? 'bad' : '' }, forfeitText(r.forfeits)) },
      { key: 'avg_ms', label: 'ms/move', num: true, value: (r) => r.avg_ms, cell: (r) => fmt(r.avg_ms, 1) },
      { key: 'rating', label: 'rating μ ±σ', num: true, value: (r) => r.rating.mu, cell: (r) => `${fmt(r.rating.mu, 1)} ±${fmt(r.rating.sigma, 1)}`,
        title: 'Weng-Lin (OpenSkill) rating: mean skill μ and its uncertainty σ' },
      { key: 'ordinal', label: 'μ-3σ', num: true, value: (r) => r.rating.ordinal, cell: (r) => fmt(r.rating.ordinal, 1) },
    ];
    if (two) {
      cols.push({ key: 'elo', label: 'Elo ±95%', num: true, value: (r) => r.elo ? r.elo.elo : null,
        cell: (r) => r.elo ? `${r.elo.elo >= 0 ? '+' : ''}${fmt(r.elo.elo + 0, 0)} ±${fmt(r.elo.error, 0)}` : '-',
        title: 'Elo against the field with its 95% interval' });
      cols.push({ key: 'los', label: 'LOS', num: true, value: (r) => r.elo ? r.elo.los : null,
        cell: (r) => r.elo ? `${fmt(100 * r.elo.los, 1)}%` : '-', title: 'likelihood of superiority' });
    }
    return sortable('standings', cols, rows, 0);
  }

  function sprtBlock(s) {
    if (!s.sprt) return null;
    const t = s.sprt;
    const verdict = { h0: 'H0 accepted', h1: 'H1 accepted', continue: 'undecided' }[String(t.verdict).toLowerCase()] || String(t.verdict);
    return el('p', { id: 'sprt' },
      `SPRT [${t.test.elo0}, ${t.test.elo1}] (${t.test.model}, α ${t.test.alpha}, β ${t.test.beta}): LLR ${fmt(t.llr, 2)} ` +
      `(${fmt(t.lower, 2)}, ${fmt(t.upper, 2)}), W-D-L ${t.wdl.wins}-${t.wdl.draws}-${t.wdl.losses}` +
      (t.pentanomial ? `, pentanomial (LL, LD, WL+DD, WD, WW) ${t.pentanomial.join(', ')}` : '') + `: ${verdict}` +
      (t.decided_after ? ` after ${count(t.decided_after, 'round')}` : ''));
  }

  function crosstable() {
    const ct = DATA.crosstable;
    const order = DATA.standings.standings.map((r) => nameIndex.get(r.bot)).filter((i) => i !== undefined);
    const two = DATA.players === 2;
    const head = el('tr', {}, el('th', { text: two ? 'score (row against column)' : 'finished ahead (row against column)' }),
      order.map((j) => el('th', { class: 'num' }, el('a', { href: botHref(j) }, NAMES[j]))));
    const body = order.map((i) => el('tr', { 'data-bot': NAMES[i] },
      el('th', {}, el('a', { href: botHref(i) }, NAMES[i])),
      order.map((j) => {
        if (i === j) return el('td', { class: 'cell self' }, '');
        const c = ct[i][j];
        if (!c) return el('td', { class: 'cell muted' }, '·');
        const [ahead, tied, behind, score] = c;
        const n = ahead + tied + behind;
        const pct = 100 * (two ? score / n : (ahead + tied / 2) / n);
        return el('td', {
          class: 'cell', 'data-row': NAMES[i], 'data-col': NAMES[j], 'data-ahead': ahead, 'data-tied': tied,
          'data-behind': behind, 'data-rounds': n, 'data-score': score,
          title: two ? `${NAMES[i]} against ${NAMES[j]}: ${score} of ${n} (wins-draws-losses ${ahead}-${tied}-${behind})`
            : `${NAMES[i]} finished ahead of ${NAMES[j]} in ${ahead} rounds, level in ${tied}, behind in ${behind}, of ${n}`,
        }, el('a', { href: `${botHref(i)}#vs=${j + 1}` }, `${fmt(pct, 0)}%`),
        el('small', {}, `${ahead}-${tied}-${behind} · ${n}`));
      })));
    return el('table', { id: 'crosstable' }, el('thead', {}, head), el('tbody', {}, body));
  }

  // Whole-number ticks from lo to hi (both ends when they are whole), a round step apart (1, 2,
  // 5, 10, 20, ...), at most five, never one twice.
  function ticks(lo, hi) {
    const first = Math.ceil(lo), last = Math.floor(hi);
    if (last < first) return [];
    let step = 1;
    for (let k = 0; (last - first) / step > 4; k++) step = [1, 2, 5][(k + 1) % 3] * 10 ** Math.floor((k + 1) / 3);
    const out = [];
    for (let x = Math.ceil(first / step) * step; x <= last; x += step) out.push(x);
    if (out[0] !== first && (out.length === 0 || out[0] - first >= step / 2)) out.unshift(first);
    else if (out[0] !== first) out[0] = first;
    if (out[out.length - 1] !== last && last - out[out.length - 1] >= step / 2) out.push(last);
    return out;
  }

  // A line plot: series [{name, colour, points: [[x, y], ...]}].
  function linePlot(id, series, xlabel, ylabel) {
    const W = 640, H = 290, L = 44, R = 10, T = 22, B = 30;
    const all = series.flatMap((s) => s.points);
    if (!all.length) return el('p', { class: 'muted', text: 'no rounds yet' });
    let [x0, x1] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
    let [y0, y1] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
    if (x0 === x1) x1 = x0 + 1;
    if (y0 === y1) { y0 -= 1; y1 += 1; }
    const pad = (y1 - y0) * 0.05; y0 -= pad; y1 += pad;
    const sx = (x) => L + (x - x0) / (x1 - x0) * (W - L - R);
    const sy = (y) => T + (1 - (y - y0) / (y1 - y0)) * (H - T - B);
    const g = svg('svg', { id, viewBox: `0 0 ${W} ${H}`, width: '100%', role: 'img' });
    g.appendChild(svg('line', { class: 'axis', x1: L, y1: H - B, x2: W - R, y2: H - B }));
    g.appendChild(svg('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }));
    for (let k = 0; k <= 4; k++) {
      const y = y0 + (y1 - y0) * k / 4;
      g.appendChild(svg('text', { x: L - 4, y: sy(y) + 4, 'text-anchor': 'end' }, fmt(y, 1)));
    }
    // The x axis counts rounds: whole ticks, each once, at most five.
    const xs = ticks(x0, x1);
    xs.forEach((x, k) => g.appendChild(svg('text', { x: sx(x), y: H - B + 14, class: 'xtick',
      'text-anchor': xs.length > 1 && k === 0 && x === x0 ? 'start' : xs.length > 1 && k === xs.length - 1 && x === x1 ? 'end' : 'middle' }, String(x))));
    g.appendChild(svg('text', { x: (L + W - R) / 2, y: H - 2, 'text-anchor': 'middle' }, xlabel));
    g.appendChild(svg('text', { x: 4, y: 12 }, ylabel));
    for (const s of series) {
      if (!s.points.length) continue;
      const d = s.points.map((p, k) => `${k ? 'L' : 'M'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join('');
      const path = svg('path', { d, fill: 'none', stroke: s.colour, 'stroke-width': 1.6, class: 'series' });
      path.appendChild(svg('title', {}, s.name));
      g.appendChild(path);
    }
    const legend = el('div', { class: 'legend' }, series.map((s) => el('span', {},
      el('span', { class: 'swatch', style: `background:${s.colour}` }), s.name)));
    return el('div', {}, g, legend);
  }

  // Bars: [{label, value, title}].
  function barPlot(id, bars, ylabel, digits) {
    const d = digits === undefined ? 1 : digits;
    const H = 210, L = 10, T = 22, B = 34;
    const W = Math.max(420, L + 10 + bars.length * 46);
    if (!bars.length) return el('p', { class: 'muted', text: 'no rounds yet' });
    const max = Math.max(...bars.map((b) => b.value), 1e-9);
    const bw = (W - L - 10) / bars.length;
    const g = svg('svg', { id, viewBox: `0 0 ${W} ${H}`, width: '100%', style: `max-width:${Math.round(W * 1.25)}px`, role: 'img' });
    g.appendChild(svg('line', { class: 'axis', x1: L, y1: H - B, x2: W - 10, y2: H - B }));
    void ylabel;
    bars.forEach((b, k) => {
      const h = (b.value / max) * (H - T - B);
      const x = L + k * bw + bw * 0.15;
      const r = svg('rect', { x, y: H - B - h, width: bw * 0.7, height: h, fill: b.colour || '#b5651d' });
      r.appendChild(svg('title', {}, b.title || `${b.label}: ${fmt(b.value, 2)}`));
      g.appendChild(r);
      g.appendChild(svg('text', { x: x + bw * 0.35, y: H - B - h - 3, 'text-anchor': 'middle' }, fmt(b.value, d)));
      g.appendChild(svg('text', { x: x + bw * 0.35, y: H - B + 14, 'text-anchor': 'middle' }, b.label));
    });
    return g;
  }

  const avg = (t) => t && t.rounds ? t.points / t.rounds : 0;
  const winPct = (t) => t && t.rounds ? 100 * t.wins / t.rounds : 0;
  const ordinal = (k) => k === 0 ? '1st' : k === 1 ? '2nd' : k === 2 ? '3rd' : `${k + 1}th`;

  // Average points and win % by play order, seat and colour: bars for the field, a table per bot.
  function seatsPanel(seats, perBot) {
    const parts = [];
    const plots = el('div', { class: 'row2' });
    plots.appendChild(el('div', {}, el('h3', { text: 'average points by play order (1st = moved first)' }),
      barPlot('by-order', (seats.by_order || []).map((t, k) => ({ label: ordinal(k), value: avg(t),
        title: `${ordinal(k)} to move: ${fmt(avg(t), 2)} points, ${fmt(winPct(t), 1)}% wins over ${t.rounds} seats` })), 'points')));
    const colours = Object.entries(seats.by_colour || {});
    if (colours.length) {
      plots.appendChild(el('div', {}, el('h3', { text: 'average points by colour' }),
        barPlot('by-colour', colours.map(([c, t]) => ({ label: c, value: avg(t), colour: /^[a-z]+$/.test(c) ? c : null,
          title: `${c}: ${fmt(avg(t), 2)} points, ${fmt(winPct(t), 1)}% wins over ${t.rounds} seats` })), 'points')));
    } else {
      plots.appendChild(el('div', {}, el('h3', { text: 'average points by seat' }),
        barPlot('by-seat', (seats.by_seat || []).map((t, k) => ({ label: `seat ${k}`, value: avg(t) })), 'points')));
    }
    parts.push(plots);
    if (perBot) {
      const n = Math.max(...perBot.map((b) => (b.by_order || []).length), 0);
      const head = el('tr', {}, el('th', { text: 'bot' }), Array.from({ length: n }, (_, k) =>
        el('th', { class: 'num' }, `${ordinal(k)} to move`)));
      const rows = DATA.standings.standings.map((r) => nameIndex.get(r.bot)).filter((i) => i !== undefined).map((i) =>
        el('tr', {}, el('td', { class: 'name' }, botLink(i)), Array.from({ length: n }, (_, k) => {
          const t = (perBot[i].by_order || [])[k];
          return el('td', { class: 'num', title: t ? `${count(t.rounds, 'round')}, ${fmt(winPct(t), 1)}% wins` : null },
            t ? `${fmt(avg(t), 1)} (${fmt(winPct(t), 0)}%)` : '-');
        })));
      parts.push(el('h3', { text: 'average points (win %) by play order, per bot' }),
        el('table', { id: 'seat-table' }, el('thead', {}, head), el('tbody', {}, rows)));
    }
    return parts;
  }

  function kv(pairs) {
    return el('dl', { class: 'kv' }, pairs.filter((p) => p[1] !== null && p[1] !== undefined && p[1] !== '')
      .map(([k, v]) => [el('dt', { text: k }), el('dd', {}, v)]));
  }

  function aboutPanel(a) {
    return panel('settings and reproduction',
      kv([
        ['tournament id', el('code', { text: a.id })],
        ['game', a.games.join(', ')],
        ['schedule', a.schedule],
        ['players per table', String(a.players)],
        ['rounds per table', String(a.rounds)],
        ['tables', `${a.tables_played} played${a.tables_scheduled ? ` of ${a.tables_scheduled} scheduled` : ''}, ${count(a.rounds_played, 'round')}`],
        ['seed', String(a.seed)],
        ['file', a.file ? el('code', { text: a.file }) : null],
        ['file SHA-256', a.file_sha256 ? el('code', { text: a.file_sha256 }) : null],
        ['shard', a.shard],
        ['merged from', a.merged_from && a.merged_from.length ? a.merged_from.join(', ') : null],
        ['arbiter', a.arbiters.join(', ')],
        ['report made by', a.made_by],
      ]),
      el('h3', { text: 'to reproduce' }),
      el('pre', { id: 'reproduce' }, a.reproduce),
      el('h3', { text: 'the resolved configuration (tournament.json)' }),
      el('pre', { id: 'settings' }, JSON.stringify(a.settings, null, 2)));
  }

  function indexPage() {
    const s = DATA.standings;
    DATA.heading = s.tournament;
    DATA.subtitle = `${count(s.rounds_played, 'round')}, ${count(s.tables_played, 'table')}${s.tables_scheduled ? ` of ${s.tables_scheduled}` : ''}`;
    header();
    main.appendChild(panel('standings', standingsTable(s), sprtBlock(s),
      el('p', { class: 'muted', text: 'Ranked by round wins (a shared win counts 1/k), then points, then rounds won outright. Click a column to sort, a bot for its page.' })));
    if (DATA.bracket) {
      main.appendChild(panel('bracket', el('pre', { id: 'bracket', text: DATA.bracket }),
        el('p', { class: 'muted', text: 'Each phase\'s tables, their bots in order of finish (seed in brackets) with round wins and points; > goes through.' })));
    }
    main.appendChild(panel(DATA.players === 2 ? 'crosstable: score against each opponent' : 'crosstable: finished ahead of each opponent',
      crosstable(),
      el('p', { class: 'muted', text: DATA.players === 2
        ? 'Each cell: the row bot\'s score against the column bot (a draw counts half), its wins-draws-losses and the rounds behind it. Click a cell for those rounds.'
        : 'Each cell: how often the row bot finished ahead of the column bot in the rounds they played together (level counts half), the counts ahead-level-behind and the rounds behind it. Click a cell for those rounds.' })));
    main.appendChild(el('div', { class: 'row2' },
      panel('rating over the rounds (schedule order)', linePlot('rating-plot',
        DATA.history.map((h, i) => ({ name: NAMES[i], colour: colourOf(i), points: h.map((p) => [p[0], p[1]]) })),
        'rounds played', 'μ')),
      panel('seats, play order and colours', seatsPanel(DATA.seats, DATA.bot_seats))));
    main.appendChild(aboutPanel(DATA.about));
  }

  function pager(rows, render, size, container) {
    let page = 0;
    const info = el('span', { class: 'muted' });
    const prev = el('button', { onclick: () => { if (page > 0) { page--; draw(); } } }, '‹ previous');
    const next = el('button', { onclick: () => { if ((page + 1) * size < rows().length) { page++; draw(); } } }, 'next ›');
    const bar = el('div', { class: 'pager' }, prev, next, info);
    function draw() {
      const all = rows();
      const pages = Math.max(1, Math.ceil(all.length / size));
      if (page >= pages) page = pages - 1;
      render(all.slice(page * size, (page + 1) * size));
      info.textContent = `${all.length} in all; page ${page + 1} of ${pages}`;
      prev.disabled = page === 0; next.disabled = page + 1 >= pages;
    }
    container.appendChild(bar);
    return { draw, reset: () => { page = 0; draw(); } };
  }

  function botPage() {
    const b = DATA.bot;
    const row = DATA.row;
    DATA.heading = NAMES[b];
    DATA.subtitle = row ? `rank ${row.rank} of ${NAMES.length}: ${count(row.rounds, 'round')}, ${wins(row.wins)} wins, ${row.points} points, rating ${fmt(row.rating.mu, 1)} ±${fmt(row.rating.sigma, 1)}` : '';
    header();
    const idents = DATA.idents.map(([n, v, a]) => `${n}${v ? ' ' + v : ''}${a ? ' by ' + a : ''}`);
    main.appendChild(panel('bot', kv([
      ['name', el('span', { id: 'bot-name', text: NAMES[b] })],
      ['command', el('code', { id: 'bot-command', text: DATA.commands.join('\n') })],
      ['says it is', idents.length ? idents.join('; ') : null],
      ['executables', DATA.files.length ? el('div', { id: 'bot-files' }, DATA.files.map(([p, hashes]) =>
        el('div', {}, el('code', { text: p }), ' ', el('code', { class: 'muted', text: 'SHA-256 ' + hashes.join(', ') })))) : null],
      ['forfeits', el('span', { class: DATA.forfeits_total ? 'bad' : '' }, forfeitText(DATA.forfeit_kinds))],
      ['faults', forfeitText(DATA.fault_kinds)],
    ])));

    const t = DATA.timing;
    const timing = panel('time per move');
    if (t.moves) {
      timing.appendChild(kv([['moves', String(t.moves)], ['median', `${fmt(t.median, 3)} ms`], ['p90', `${fmt(t.p90, 3)} ms`],
        ['max', `${fmt(t.max, 3)} ms`], ['mean', `${fmt(t.mean, 3)} ms`]]));
      timing.appendChild(el('h3', { text: 'moves by time (ms)' }));
      timing.appendChild(barPlot('time-histogram', t.histogram.map((h) => ({ label: `<${h.hi}`, value: h.n,
        title: `${h.n} moves from ${h.lo} to ${h.hi} ms` })), 'moves', 0));
    } else {
      timing.appendChild(el('p', { class: 'muted', text: 'no moves of its own' }));
    }
    const rating = panel('rating over its rounds', linePlot('rating-plot', [
      { name: 'μ', colour: colourOf(b), points: DATA.history.map((p) => [p[0], p[1]]) },
      { name: 'μ - 3σ', colour: '#999', points: DATA.history.map((p) => [p[0], p[1] - 3 * p[2]]) },
    ], 'rounds played in the tournament', 'rating'));
    main.appendChild(el('div', { class: 'row2' }, timing, rating));

    const fpanel = panel(`forfeits (${DATA.forfeits_total})`);
    fpanel.id = 'forfeits';
    if (!DATA.forfeits.length) fpanel.appendChild(el('p', { class: 'muted', text: 'none' }));
    if (DATA.forfeits.length < DATA.forfeits_total) {
      fpanel.appendChild(el('p', { class: 'muted', text: `the first ${DATA.forfeits.length} with their evidence:` }));
    }
    for (const f of DATA.forfeits) {
      fpanel.appendChild(el('div', { class: 'evidence forfeit', 'data-kind': f.kind, 'data-table': f.t, 'data-round': f.r },
        el('div', {}, el('span', { class: 'tag' }, f.kind), ` table ${f.t}, round ${f.r}, move ${f.ply}: `, f.detail, ' ', replayLink(f.h)),
        f.exit && !String(f.detail).includes(exitText(f.exit).replace('the process ', '')) ? el('div', { class: 'muted exit' }, exitText(f.exit)) : null,
        f.line !== undefined && f.line !== null ? [el('div', { class: 'muted', text: 'offending line:' }), el('pre', { class: 'line' }, f.line)] : null,
        f.stderr_tail ? [el('div', { class: 'muted', text: 'stderr tail:' }), el('pre', { class: 'stderr' }, f.stderr_tail)] : null));
    }
    main.appendChild(fpanel);

    const faults = panel(`faults and refused lines (${Object.values(DATA.fault_kinds).reduce((a, c) => a + c, 0)})`);
    faults.id = 'faults';
    if (!DATA.faults.length) faults.appendChild(el('p', { class: 'muted', text: 'none' }));
    for (const f of DATA.faults) {
      faults.appendChild(el('div', { class: 'evidence fault', 'data-kind': f.kind },
        el('div', {}, el('span', { class: 'tag' }, f.kind), ` table ${f.t}, round ${f.r}${f.ply ? `, move ${f.ply}` : ''}: `, f.detail || '', ' ', replayLink(f.h)),
        f.line !== undefined && f.line !== null ? el('pre', { class: 'line' }, f.line) : null));
    }
    if (DATA.last_stderr) {
      const [tb, rd, text] = DATA.last_stderr;
      faults.appendChild(el('h3', { text: `the last stderr it wrote (table ${tb}, round ${rd})` }));
      faults.appendChild(el('pre', { class: 'stderr' }, text));
    }
    main.appendChild(faults);

    // Where its games were lost (a report written with --analyse).
    if (DATA.lost) {
      const L = DATA.lost;
      const lp = panel('where the game was lost');
      lp.id = 'lost';
      lp.appendChild(kv([
        ['accuracy', L.accuracy === null ? `no ${L.graded} graded` : `${fmt(100 * L.accuracy, 1)}% (${L.within_one} of ${L.moves} ${L.graded} ${L.accurate})`],
        [`${L.unit} lost`, String(L.total_loss)],
        ['graded exactly', `${L.exact} of ${L.moves} ${L.graded} (the others estimated, ${L.budget_ms} ms a position)`],
      ]));
      if (!L.worst.length) lp.appendChild(el('p', { class: 'muted', text: `nothing lost: every one of its ${L.graded} was the best` }));
      for (const w of L.worst) {
        lp.appendChild(el('div', { class: 'evidence lost', 'data-loss': w.loss },
          el('span', { class: 'tag' }, `-${w.loss}`),
          ` table ${w.t}, round ${w.r}, move ${w.ply}${w.colour ? ` (${w.colour})` : ''}: played ${w.move}, best ${w.best.join(' ')}`,
          w.exact ? ' (exact)' : ' (estimate)', ' ', replayLink(w.h)));
      }
      main.appendChild(lp);
    }

    // Its rounds, filtered by opponent (#vs=N) and to forfeits, a page at a time.
    const rp = panel('rounds');
    rp.id = 'rounds';
    // [table, round, seat, colour, bots, points, rank, win, forfeit, file, game]
    const ROUNDS = DATA.rounds.map((a) => ({ t: a[0], r: a[1], s: a[2], c: a[3], o: a[4], p: a[5], k: a[6], w: a[7], f: a[8],
      h: replayHref(a[9], a[10]) }));
    const ROUND_WINS = winsDigits(ROUNDS.map((r) => r.w));
    const opponents = [...new Set(ROUNDS.flatMap((r) => r.o))].filter((i) => i !== b && i !== null).sort((x, y) => x - y);
    const vs = el('select', {}, el('option', { value: '' }, 'any opponent'),
      opponents.map((i) => el('option', { value: String(i + 1) }, NAMES[i])));
    const onlyF = el('input', { type: 'checkbox' });
    const m = /^#vs=(\d+)$/.exec(location.hash);
    if (m) vs.value = m[1];
    rp.appendChild(el('div', { class: 'filter' }, el('label', {}, 'against ', vs), el('label', {}, onlyF, ' forfeits only')));
    const tbody = el('tbody');
    const tbl = el('table', { id: 'rounds-table' }, el('thead', {}, el('tr', {},
      ['table', 'round', 'seat', 'opponents', 'points', 'rank', 'win', 'forfeit', ''].map((h) => el('th', { text: h })))), tbody);
    const filtered = () => ROUNDS.filter((r) => (!vs.value || r.o.includes(Number(vs.value) - 1)) && (!onlyF.checked || r.f));
    const p = pager(filtered, (rows) => {
      tbody.textContent = '';
      for (const r of rows) {
        tbody.appendChild(el('tr', { 'data-table': r.t, 'data-round': r.r },
          el('td', { class: 'num' }, String(r.t)), el('td', { class: 'num' }, String(r.r)),
          el('td', {}, `${r.s}${r.c ? ' (' + r.c + ')' : ''}`),
          el('td', {}, r.o.map((i, k) => k === r.s ? null : [botLink(i), ' ']).filter(Boolean)),
          el('td', { class: 'num' }, String(r.p)), el('td', { class: 'num' }, String(r.k)),
          el('td', { class: 'num' }, wins(r.w, ROUND_WINS)),
          el('td', {}, r.f ? el('span', { class: 'tag' }, r.f) : ''),
          el('td', {}, replayLink(r.h))));
      }
    }, 200, rp);
    rp.appendChild(tbl);
    vs.addEventListener('change', () => p.reset());
    onlyF.addEventListener('change', () => p.reset());
    p.draw();
    main.appendChild(rp);
    main.appendChild(panel('results by seat and play order', seatsPanel(DATA.seats, null)));
  }

  function tablesPage() {
    DATA.heading = `${DATA.title}: tables and rounds`;
    DATA.subtitle = `${count(DATA.tables.length, 'table')}; every round opens in the replay viewer`;
    header();
    const tp = panel('tables');
    const tbody = el('tbody');
    // A table's result: each seat's round wins (a shared win counts 1/k) and points, best first.
    const tableResult = (t) => {
      const seats = t.b.map((bot, k) => ({ bot, k, w: 0, p: 0 }));
      for (const x of t.rounds) x[1].forEach((w, k) => { seats[k].w += w; seats[k].p += x[2][k]; });
      seats.sort((a, b) => b.w - a.w || b.p - a.p || a.k - b.k);
      const column = winsDigits(seats.map((e) => e.w));
      return seats.map((e, n) => [n ? '; ' : '', el('span', { class: n === 0 && e.w > 0 ? 'result best' : 'result', 'data-bot': NAMES[e.bot],
        'data-wins': e.w, 'data-points': e.p }, botLink(e.bot), ` ${wins(e.w, column)} (${e.p})`)]);
    };
    const p = pager(() => DATA.tables, (rows) => {
      tbody.textContent = '';
      for (const t of rows) {
        tbody.appendChild(el('tr', { 'data-table': t.t, class: t.counted ? null : 'muted' },
          el('td', { class: 'num', title: t.counted ? null : 'not counted: played after the SPRT decided' }, t.counted ? String(t.t) : `${t.t} (not counted)`),
          el('td', {}, t.b.map((i, k) => [k ? ', ' : '', botLink(i)])),
          el('td', { class: 'table-result' }, tableResult(t)),
          el('td', {}, t.rounds.map((x) => {
            const r = { r: x[0], w: x[1], p: x[2], f: x[3], h: replayHref(x[4], x[5]) };
            const winners = r.w.map((w, k) => w > 0 ? t.b[k] : null).filter((i) => i !== null);
            const label = `${r.r}`;
            const title = `round ${r.r}: ` + (winners.length ? 'won by ' + winners.map((i) => NAMES[i]).join(' and ') : 'nobody won') +
              `; points ${r.p.join('-')}` + (r.f ? `; ${r.f} forfeit(s)` : '');
            const a = replayLink(r.h, label);
            a.setAttribute('title', title);
            a.setAttribute('data-round', r.r);
            return [a, r.f ? el('span', { class: 'tag', title: 'forfeit' }, '!') : null, ' '];
          }))));
      }
    }, 100, tp);
    tp.appendChild(el('table', { id: 'tables' }, el('thead', {}, el('tr', {},
      ['table', 'bots by seat', 'result: round wins (points)', 'rounds (click to replay)'].map((h) => el('th', { text: h })))), tbody));
    p.draw();
    main.appendChild(tp);
  }

  function livePage() {
    const s = DATA.standings;
    DATA.heading = s.tournament;
    DATA.subtitle = '';
    header();
    document.getElementById('subtitle').appendChild(el('span', { class: 'live' },
      `live: ${count(s.rounds_played, 'round')}, ${count(s.tables_played, 'table')}${s.tables_scheduled ? ` of ${s.tables_scheduled}` : ''} counted; updated ${DATA.updated}; this page reloads itself`));
    main.appendChild(panel('standings', standingsTable(s), sprtBlock(s)));
    main.appendChild(progressPanel(s));
    const R = DATA.rounds;
    if (R) {
      main.appendChild(playingPanel(R.playing || []));
      if ((R.crosstable || []).length) {
        main.appendChild(panel(R.players === 2 ? 'crosstable so far: score against each opponent' : 'crosstable so far: finished ahead of each opponent',
          liveCrosstable(s, R.crosstable, R.players === 2)));
      }
    } else if ((s.head_to_head || []).length) {
      main.appendChild(panel('crosstable so far: score against each opponent', liveCrosstable(s, s.head_to_head.map((h) => ({
        row: h.bot, col: h.opponent, ahead: h.wins, tied: h.draws, behind: h.losses, score: h.wins + h.draws / 2 })), true)));
    }
  }

  // The tables with rounds played but not over, each linking to a viewer of those rounds.
  function playingPanel(playing) {
    const p = panel(`tables playing (${playing.length})`);
    p.id = 'playing';
    if (!playing.length) {
      p.appendChild(el('p', { class: 'muted', text: 'none with a finished round yet' }));
      return p;
    }
    p.appendChild(el('table', {}, el('thead', {}, el('tr', {}, ['table', 'bots by seat', 'rounds so far'].map((h) => el('th', { text: h })))),
      el('tbody', {}, playing.map((t) => el('tr', { 'data-table': t.t },
        el('td', { class: 'num' }, String(t.t)),
        el('td', {}, t.bots.join(', ')),
        el('td', {}, el('a', { href: t.href, class: 'replay' }, `${t.done} of ${t.rounds}: replay`)))))));
    p.appendChild(el('p', { class: 'muted', text: 'A table is listed once a round of it has ended; the page is written again as each table ends.' }));
    return p;
  }

  // A duration in words: "45 s", "4 min 12 s", "2 h 5 min".
  function duration(sec) {
    const t = Math.round(sec);
    if (t < 60) return `${t} s`;
    if (t < 3600) return `${Math.floor(t / 60)} min ${t % 60} s`;
    return `${Math.floor(t / 3600)} h ${Math.floor(t % 3600 / 60)} min`;
  }

  // How far a running tournament is, and when it should end.
  function progressPanel(s) {
    const eta = DATA.eta_s;
    const ends = eta === null || eta === undefined ? null : new Date(Date.parse(DATA.updated) + eta * 1000);
    return panel('progress', kv([
      ['rounds played', String(s.rounds_played)],
      ['tables', `${s.tables_played}${s.tables_scheduled ? ` of ${s.tables_scheduled}` : ''} ended`],
      ['running for', duration(DATA.elapsed_s || 0)],
      ['time left', el('span', { id: 'eta' }, ends === null
        ? 'estimated once a table has ended'
        : eta === 0 ? 'none: every table has ended'
          : `about ${duration(eta)} (ends about ${ends.toISOString().slice(11, 19)} UTC), at the rate of the tables played so far`)],
    ]));
  }

  // The crosstable so far, by name: cells {row, col, ahead, tied, behind, score}; with two
  // players the score against each other (a draw counts half), else how often ahead.
  function liveCrosstable(s, cells, two) {
    const order = s.standings.map((r) => r.bot);
    const cell = new Map(cells.map((c) => [`${c.row}\u0000${c.col}`, c]));
    return el('table', { id: 'crosstable' },
      el('thead', {}, el('tr', {}, el('th', { text: two ? 'score (row against column)' : 'finished ahead (row against column)' }),
        order.map((b) => el('th', { class: 'num', text: b })))),
      el('tbody', {}, order.map((row) => el('tr', { 'data-bot': row }, el('th', { text: row }), order.map((col) => {
        if (row === col) return el('td', { class: 'cell self' }, '');
        const c = cell.get(`${row}\u0000${col}`);
        if (!c) return el('td', { class: 'cell muted' }, '·');
        const n = c.ahead + c.tied + c.behind;
        const pct = 100 * (two ? c.score / n : (c.ahead + c.tied / 2) / n);
        return el('td', { class: 'cell', 'data-row': row, 'data-col': col, 'data-rounds': n },
          n ? `${fmt(pct, 0)}%` : '-', el('small', {}, `${c.ahead}-${c.tied}-${c.behind} · ${n}`));
      })))));
  }

  function errorPage() {
    DATA.heading = DATA.title;
    header();
    main.appendChild(panel('this page could not be made', el('pre', {}, DATA.text)));
  }

  ({ index: indexPage, bot: botPage, tables: tablesPage, live: livePage, error: errorPage }[DATA.kind] || errorPage)();
  document.body.setAttribute('data-ready', '1');
})();
