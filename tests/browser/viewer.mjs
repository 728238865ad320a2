// End-to-end test of the HTML replay viewer in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core: no browser is ever downloaded).
//
//   node viewer.mjs EXPECT.json
//
// EXPECT.json (written by the Rust test tests/replay/browser.rs) lists viewers to check in
// one browser session, and where to take the screenshot:
//   { "pages": [{ "html": "/abs/viewer.html",
//                 "games": [{ "index": 1, "moves": 60, "board": "....RY..",
//                             "scores": {"red": 30, ...}, "names": ["seat name", ...] }],
//                 "hostile": { "game": 5, "names": ["<img src=x onerror=alert(1)>", ...] } }],
//     "screenshot": "/abs/out.png", "shot": { "page": 0, "game": 1, "ply": 30 },
//     "shots": [{ "path": "/abs/robots.png", "page": 1, "game": 1, "ply": 9 }] }
// (a shot with "row": n instead of "ply" shows the step after the move list's row n, and
// "forward": k steps more; "seat": n takes it in seat n's view).
//
// A page with "robots": true is a Rock'n'Roll Robot viewer; its games are
//   { "index": 1, "token": "yellow-star", "target": "b12", "diagonals": 8, "names": [...],
//     "start": "blue:d9,green:l12,..." or null, "final": "blue:d9,...", "declarations": 2,
//     "failed": 1, "win": [{"robot": "red", "dir": "up"}, ...] or null }
// and the checks are: the board drawn (17 targets, the diagonals, the walls, the goal), the
// token, stepping with the forward button from the start (the robots as the record starts them)
// to the end (the robots as the record leaves them), the winning demonstration move by move
// (each move's path drawn for its robot, the earlier ones faded, the robot sliding along it),
// failures listed, the declarations plotted.
//
// A page with "rollerball": true is a Rollerball viewer (one round) with
//   { "seats": 3, "names": [...], "points": [5, 2, 2], "final": { "balls": "1:c7,2:d7", "cards": 6 },
//     "phase": { "decision": 12, "before": {"1": "a2"}, "steps": [{ "step": 1, "balls": {"1": "a3"} }, ...] },
//     "bids": [{ "decision": 1, "seat": 1, "move": "bid DR RU" }, ...], "reveal": 3, "view": 1 }
// and the checks are: the board drawn (64 squares, the balls and cards of the record's end),
// the ball phase of `decision` stepped frame by frame with each ball on the square its step
// events say and sliding there, the victory-point plot (one line per seat ending at the
// result's points), the seat switch (seat `view` sees its own hand and only the sizes of the
// others), other seats' bids sealed in the seat's view (move list, time plot, status) until
// `reveal`, and shown to the spectator.
// A page with "goofspiel": true is a Goofspiel viewer (one round) with
//   { "names": [...], "points": [...], "turns": [{ "prize": 4, "bids": [1, 2, 2],
//     "moves": [{ "ply": 1, "seat": 1, "bid": "2" }, ...] }, ...] }
// and the checks are, for each turn: just before its last bid the prize and the bids made are
// shown to the spectator, while the last bidder's view shows them sealed (board, move list,
// status) and its first bidder's view its own bid; at its last bid every bid is revealed.
//
// Checks, for each viewer and game: stepping with the forward button to the end shows the record's final
// board and scores; End, Home and the slider move the board; both plots exist with one point
// per move. For the hostile game: the names show literally, no <img> exists in the seat list
// (nor anywhere), no dialog opens, no script error happens. No request leaves the file. Prints
// "ok: ..." lines, and exits 1 with the reason on the first failure.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CHROMIUM = process.env.ROLLARENA_CHROMIUM || '/usr/bin/chromium';
const t0 = Date.now();
const stamp = (what) => console.log(`${((Date.now() - t0) / 1000).toFixed(2)} s: ${what}`);
const expect = JSON.parse(readFileSync(process.argv[2], 'utf8'));

function check(cond, what) {
  if (!cond) throw new Error(what);
}

const profile = mkdtempSync(join(tmpdir(), 'rollarena-chromium-'));
let context;
let failed = false;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  });
  const pages = [];
  // Checks one viewer in a page of its own; returns the page.
  async function checkViewer(view) {
    const page = await context.newPage();
    const dialogs = [];
    const errors = [];
    const requests = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    await page.goto(pathToFileURL(view.html).href);
    await page.waitForSelector(view.robots ? '#board g.robot' : view.rollerball ? '#board rect.track' : view.goofspiel ? '#board g.bid' : '#board circle.ball');
    check(errors.length === 0, `script errors on load: ${errors.join('; ')}`);

    const ply = async () => Number(await page.getAttribute('#board', 'data-ply'));
    const shownBoard = () => page.getAttribute('#board', 'data-board');

    if (view.rollerball) await checkRollerball(page, view, ply);
    if (view.goofspiel) await checkGoofspiel(page, view, ply);
    if (!view.robots && !view.rollerball && !view.goofspiel && view.games.length > 1) {
      // An address that names a round opens it (and the old `#game=` form still does).
      await page.goto(`${pathToFileURL(view.html).href}#round=2`);
      await page.waitForFunction(() => document.getElementById('round').value === '2');
      await page.goto(`${pathToFileURL(view.html).href}#game=1`);
      await page.waitForFunction(() => document.getElementById('round').value === '1');
    }
    for (const g of view.robots || view.rollerball || view.goofspiel ? [] : view.games) {
      await page.selectOption('#round', String(g.index));
      check(page.url().endsWith(`#round=${g.index}`), `round ${g.index}: the address says ${page.url()}`);
      check(/^round/.test(await page.$eval('#round', (s) => s.closest('label').textContent)), 'the picker is labelled round');
      // The score plot marks, for each colour in play, the move that took the most of its
      // balls (the later on a tie); its legend button goes there.
      const drops = await page.$$eval('#score-plot g.drop', (gs) => gs.map((d) => ({ colour: d.dataset.colour, ply: Number(d.dataset.ply) })));
      const want = await page.evaluate((idx) => {
        const data = JSON.parse(document.getElementById('replay-data').textContent);
        const round = data.games.find((x) => x.index === idx);
        const letter = { red: 'R', yellow: 'Y', green: 'G', blue: 'B' };
        const out = [];
        for (const colour of round.seats.map((x) => x.colour)) {
          const n = round.boards.map((b) => JSON.stringify(b).split(letter[colour]).length - 1);
          let best = null;
          for (let i = 1; i < n.length; i++) if (n[i - 1] - n[i] > 0 && (!best || n[i - 1] - n[i] >= best.lost)) best = { ply: i, lost: n[i - 1] - n[i] };
          if (best) out.push({ colour, ply: best.ply });
        }
        return out;
      }, g.index);
      const key = (a) => JSON.stringify(a.slice().sort((x, y) => x.colour.localeCompare(y.colour)));
      check(drops.length > 0 && key(drops) === key(want), `round ${g.index}: drops marked ${key(drops)}, want ${key(want)}`);
      await page.click('#score-legend button.drop-link');
      const firstDrop = ['red', 'yellow', 'green', 'blue'].map((c) => drops.find((d) => d.colour === c)).find(Boolean);
      check((await ply()) === firstDrop.ply, `round ${g.index}: the legend's drop button went to ${await ply()}, not ${firstDrop.ply}`);
      await page.click('#first');
      check((await ply()) === 0, `game ${g.index}: first goes to the start`);
      // Step to the end with the forward button, one move at a time: the first step with a
      // real mouse click, the rest clicked in the page (no round trip per move).
      await page.click('#forward');
      check((await ply()) === 1, `game ${g.index}: forward shows move 1`);
      const seen = await page.evaluate((n) => {
        const plies = [];
        for (let i = 2; i <= n; i++) {
          document.getElementById('forward').click();
          plies.push(Number(document.getElementById('board').getAttribute('data-ply')));
        }
        return plies;
      }, g.moves);
      seen.forEach((p, k) => check(p === k + 2, `game ${g.index}: forward shows move ${k + 2}, not ${p}`));
      await page.click('#forward');
      check((await ply()) === g.moves, `game ${g.index}: forward stops at the last move`);
      check((await shownBoard()) === g.board, `game ${g.index}: the final board shown is ${await shownBoard()}, the record's is ${g.board}`);
      // The balls drawn agree with the board and the scores with the record.
      const drawn = await page.$$eval('#board circle.ball', (cs) => {
        const n = { red: 0, yellow: 0, green: 0, blue: 0 };
        for (const c of cs) n[c.getAttribute('data-colour')] += 1;
        return n;
      });
      const shown = await page.$$eval('#scores .score', (ss) => {
        const n = {};
        for (const s of ss) n[s.getAttribute('data-colour')] = Number(s.querySelector('.n').textContent);
        return n;
      });
      for (const [colour, want] of Object.entries(g.scores)) {
        check(drawn[colour] === want, `game ${g.index}: ${drawn[colour]} ${colour} balls drawn, the record scores ${want}`);
        check(shown[colour] === want, `game ${g.index}: ${colour} score shown ${shown[colour]}, the record's ${want}`);
      }
      const names = await page.$$eval('#seats li .name', (ns) => ns.map((n) => n.textContent));
      check(JSON.stringify(names) === JSON.stringify(g.names), `game ${g.index}: seat names ${JSON.stringify(names)}`);
      // Plots: four score lines of moves+1 points each, one time bar per move.
      const lines = await page.$$eval('#score-plot polyline.series', (ls) => ls.map((l) => l.getAttribute('points').trim().split(/\s+/).length));
      check(lines.length === 4 && lines.every((n) => n === g.moves + 1), `game ${g.index}: score plot lines ${JSON.stringify(lines)}`);
      const bars = await page.$$eval('#time-plot rect.bar', (bs) => bs.length);
      check(bars === g.moves, `game ${g.index}: ${bars} time bars for ${g.moves} moves`);
      // Keyboard and slider.
      await page.focus('body');
      await page.keyboard.press('Home');
      check((await ply()) === 0, `game ${g.index}: Home goes to the start`);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      check((await ply()) === 2, `game ${g.index}: two right arrows show move 2`);
      await page.keyboard.press('ArrowLeft');
      check((await ply()) === 1, `game ${g.index}: left arrow goes back`);
      await page.keyboard.press('End');
      check((await ply()) === g.moves, `game ${g.index}: End goes to the last move`);
      await page.$eval('#slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, Math.floor(g.moves / 2));
      check((await ply()) === Math.floor(g.moves / 2), `game ${g.index}: the slider moves the board`);
      stamp(`ok: game ${g.index}: ${g.moves} moves stepped, final board and scores match the record, plots drawn`);
    }

    for (const g of view.robots ? view.games : []) await checkRobots(page, g, ply);

    if (view.hostile) {
      const h = view.hostile;
      await page.selectOption('#round', String(h.game));
      await page.focus('body');
      await page.keyboard.press('End');
      const names = await page.$$eval('#seats li .name', (ns) => ns.map((n) => n.textContent));
      for (const want of h.names) {
        check(names.includes(want), `the hostile name ${JSON.stringify(want)} is not shown as text: ${JSON.stringify(names)}`);
      }
      check((await page.$$('#seats img')).length === 0, 'an img element exists in the seat list');
      check((await page.$$('img')).length === 0, 'an img element exists in the page');
      check((await page.$$('script')).length === 2, 'a script element was added to the page');
      // Play a little, so every panel has been drawn with the hostile names.
      await page.click('#play');
      await page.waitForTimeout(600);
      await page.click('#play');
      const seen = await page.evaluate(() => document.body.innerText);
      for (const want of h.names) check(seen.includes(want), `the page text lacks ${JSON.stringify(want)}`);
      stamp(`ok: hostile names shown as text, no img element`);
    }

    check(dialogs.length === 0, `dialogs opened: ${JSON.stringify(dialogs)}`);
    check(errors.length === 0, `script errors: ${errors.join('; ')}`);
    check(requests.length === 0, `network requests: ${JSON.stringify(requests)}`);
    stamp(`ok: ${view.html}: no dialog, no script error, no network request`);
    return page;
  }
  // Checks one token of a Rock'n'Roll Robot viewer.
  async function checkRobots(page, g, ply) {
    const robots = () => page.getAttribute('#board', 'data-robots');
    const what = `robots game ${g.index}`;
    await page.selectOption('#round', String(g.index));
    await page.click('#first');
    check((await ply()) === 0, `${what}: first goes to the start`);
    if (g.start) check((await robots()) === g.start, `${what}: the start shows ${await robots()}, the record starts from ${g.start}`);
    const drawn = await page.evaluate(() => ({
      targets: document.querySelectorAll('#board g.target').length,
      diagonals: document.querySelectorAll('#board line.diagonal').length,
      walls: document.querySelectorAll('#board line.wall').length,
      goal: document.querySelector('#board .goal') && document.querySelector('#board .goal').getAttribute('data-cell'),
      token: document.querySelector('#scores .token') && document.querySelector('#scores .token').getAttribute('data-token'),
      robots: document.querySelectorAll('#board g.robot').length,
      names: Array.from(document.querySelectorAll('#seats li .name')).map((n) => n.textContent),
    }));
    check(drawn.targets === 17, `${what}: ${drawn.targets} targets drawn`);
    check(drawn.diagonals === g.diagonals, `${what}: ${drawn.diagonals} diagonals drawn, the board has ${g.diagonals}`);
    check(drawn.walls >= 64, `${what}: ${drawn.walls} wall segments drawn (the edge alone has 64)`);
    check(drawn.goal === g.target, `${what}: the goal drawn on ${drawn.goal}, the target is ${g.target}`);
    check(drawn.token === g.token, `${what}: token shown ${drawn.token}, the record's ${g.token}`);
    check(drawn.robots === g.start_count, `${what}: ${drawn.robots} robots drawn`);
    check(JSON.stringify(drawn.names) === JSON.stringify(g.names), `${what}: seat names ${JSON.stringify(drawn.names)}`);
    // Forward to the end, one step at a time.
    const last = Number(await page.getAttribute('#slider', 'max'));
    const seen = await page.evaluate((n) => {
      const plies = [];
      for (let i = 1; i <= n + 1; i++) {
        document.getElementById('forward').click();
        plies.push(Number(document.getElementById('board').getAttribute('data-ply')));
      }
      return plies;
    }, last);
    seen.forEach((p, k) => check(p === Math.min(k + 1, last), `${what}: forward shows step ${Math.min(k + 1, last)}, not ${p}`));
    check((await robots()) === g.final, `${what}: the end shows ${await robots()}, the record ends with ${g.final}`);
    check((await page.$$('#board polyline.trail')).length > 0 || !g.win, `${what}: the last move's path is drawn`);
    // The declarations plot: a point per declaration; the failures listed.
    const points = await page.$$eval('#score-plot circle.decl', (cs) => cs.length);
    check(points === g.declarations, `${what}: ${points} declarations plotted, ${g.declarations} made`);
    const fails = await page.$$eval('#moves tr.sub.fail', (rs) => rs.length);
    check(fails >= g.failed, `${what}: ${fails} failure rows for ${g.failed} failed demonstrations`);
    if (g.win) {
      // The winning demonstration move by move, from its row in the action list.
      const rows = await page.$$('#moves tbody tr.move:not(.sub)');
      let clicked = false;
      for (const row of rows) {
        const cells = await row.$$eval('td', (tds) => tds.map((td) => td.textContent));
        if (cells[4] === 'ok') {
          await row.click();
          clicked = true;
          break;
        }
      }
      check(clicked, `${what}: no action row says ok`);
      for (let k = 0; k < g.win.length; k++) {
        const m = g.win[k];
        if (k > 0) {
          await page.focus('body');
          await page.keyboard.press('ArrowRight');
        }
        const shown = await page.evaluate(() => {
          const now = document.querySelector('#board polyline.trail:not(.past)');
          const moving = now && Array.from(document.querySelectorAll('#board g.robot')).find((r) => r.getAttribute('data-robot') === now.getAttribute('data-robot'));
          return {
            robot: now && now.getAttribute('data-robot'),
            past: document.querySelectorAll('#board polyline.trail.past').length,
            status: document.querySelector('#status .move-now') ? document.querySelector('#status .move-now').textContent : '',
            transform: moving && moving.getAttribute('transform'),
            cell: moving && moving.getAttribute('data-cell'),
          };
        });
        check(shown.robot === m.robot, `${what}: move ${k + 1} draws the path of ${shown.robot}, not ${m.robot}`);
        check(shown.past === k, `${what}: move ${k + 1} shows ${shown.past} earlier paths`);
        check(shown.status.includes(`${m.robot} ${m.dir}`), `${what}: move ${k + 1} says ${JSON.stringify(shown.status)}`);
        if (k === 1) {
          // The robot slides: it is on its way just after the key, and at its cell at the end.
          await page.waitForTimeout(900);
          const end = await page.evaluate((r) => Array.from(document.querySelectorAll('#board g.robot')).find((x) => x.getAttribute('data-robot') === r).getAttribute('transform'), m.robot);
          check(shown.transform !== end, `${what}: the robot of move 2 does not slide (${shown.transform})`);
          const file = shown.cell.charCodeAt(0) - 97;
          const rank = Number(shown.cell.slice(1));
          check(end === `translate(${6 + file * 10 + 5} ${6 + (16 - rank) * 10 + 5})`, `${what}: the robot ends its slide at ${end}, its cell is ${shown.cell}`);
        }
      }
      check((await robots()) === g.final, `${what}: after the winning moves the robots are ${await robots()}, not ${g.final}`);
      check((await page.$$('#status .ok')).length === 1, `${what}: the win is announced`);
    }
    // The result: the pile as the terminal counts it, the winner's moves beside the optimal.
    const result = await page.evaluate(() => ({
      pile: (document.querySelector('#result .pile') || {}).textContent || '',
      optimal: (document.querySelector('#result .optimal-solution') || {}).textContent || null,
      winner: (document.querySelector('#result .winner-solution') || {}).textContent || null,
      option: document.querySelector('#round').selectedOptions[0].textContent,
      actions: Array.from(document.querySelectorAll('#moves tbody tr.move:not(.sub) td:nth-child(3)')).map((td) => td.textContent),
      decl: Array.from(document.querySelectorAll('#score-plot circle.decl')).map((c) => Number(c.getAttribute('cx'))),
      width: Number(document.getElementById('score-plot').getAttribute('viewBox').split(' ')[2]),
    }));
    check(result.pile.startsWith(g.pile), `${what}: the viewer says ${JSON.stringify(result.pile)}, the terminal ${JSON.stringify(g.pile)}`);
    const steps = (moves) => moves.map((m, k) => `${k + 1}. ${m.robot} ${m.dir}`).join('  ');
    if (g.optimal) check(result.optimal === steps(g.optimal), `${what}: the optimal shown ${JSON.stringify(result.optimal)}, the record's ${steps(g.optimal)}`);
    if (g.win) check(result.winner === steps(g.win), `${what}: the winner's moves shown ${JSON.stringify(result.winner)}`);
    check(result.option.includes(`token ${g.index}`) && !/round \d+\//.test(result.option), `${what}: the picker says ${JSON.stringify(result.option)}`);
    check(result.actions.every((t) => !t.includes('{}') && !/^pass /.test(t)), `${what}: actions read ${JSON.stringify(result.actions)}`);
    if (result.decl.length) {
      const right = Math.max(...result.decl);
      check(right > result.width * 0.6, `${what}: the last declaration is drawn at x ${right} of ${result.width}: the axis is not scaled to the declarations`);
    }
    stamp(`ok: ${what}: board, token, ${last} steps, the winning moves and the declarations shown as the record says`);
  }
  // The move list's text of decision `n`, and its time bar's title.
  async function moveRow(page, n) {
    return page.evaluate((n) => {
      const row = Array.from(document.querySelectorAll('#moves tr.move')).find((tr) => tr.firstChild.textContent === String(n));
      const bar = document.querySelectorAll('#time-plot rect.bar title')[n - 1];
      return { move: row.children[2].textContent, title: bar.textContent };
    }, n);
  }
  // Clicks the move list's row of decision `n` (0: the start).
  async function clickRow(page, n) {
    await page.evaluate((n) => {
      Array.from(document.querySelectorAll('#moves tr.move')).find((tr) => tr.firstChild.textContent === String(n)).click();
    }, n);
  }
  async function seatView(page, seat) {
    await page.selectOption('#seat-view', seat === null ? '' : String(seat));
  }
  // Each seat's hand as shown: the cards' texts and the hidden count.
  async function hands(page) {
    return page.$$eval('#seats li', (lis) => lis.map((li) => {
      const h = li.querySelector('.seat-hand');
      return { cards: Array.from(h.querySelectorAll('.card')).map((c) => c.textContent), hidden: h.getAttribute('data-hidden') };
    }));
  }
  async function checkRollerball(page, v, ply) {
    const what = 'rollerball';
    const drawn = await page.evaluate(() => ({
      squares: document.querySelectorAll('#board rect.track').length + document.querySelectorAll('#board rect.logo').length,
      names: Array.from(document.querySelectorAll('#seats li .name')).map((n) => n.textContent),
    }));
    check(drawn.squares === 64, `${what}: ${drawn.squares} squares drawn`);
    check(JSON.stringify(drawn.names) === JSON.stringify(v.names), `${what}: seat names ${JSON.stringify(drawn.names)}`);
    // The end: the record's balls and cards.
    await page.focus('body');
    await page.keyboard.press('End');
    const end = await page.evaluate(() => ({
      balls: document.getElementById('board').getAttribute('data-balls'),
      circles: document.querySelectorAll('#board g.ball circle').length,
      cards: document.querySelectorAll('#board g.card').length,
    }));
    check(end.balls === v.final.balls, `${what}: the end shows balls ${end.balls}, the record's are ${v.final.balls}`);
    check(end.circles === v.final.balls.split(',').filter((x) => x).length, `${what}: ${end.circles} balls drawn`);
    check(end.cards === v.final.cards, `${what}: ${end.cards} cards on the board drawn, the record has ${v.final.cards}`);
    // The ball phase of one decision, frame by frame.
    const ph = v.phase;
    await clickRow(page, ph.decision - 1);
    const at = async () => Object.fromEntries((await page.getAttribute('#board', 'data-balls')).split(',').filter((x) => x).map((x) => x.split(':')));
    const before = await at();
    for (const [b, sq] of Object.entries(ph.before)) check(before[b] === sq, `${what}: before the ball phase of decision ${ph.decision} ball ${b} is on ${before[b]}, its step event starts from ${sq}`);
    let prev = before;
    for (const st of ph.steps) {
      // Forward to the frame of this step (a rubber switch may come first).
      let shown = null;
      for (let tries = 0; tries < 4; tries++) {
        shown = await page.evaluate(() => {
          document.getElementById('forward').click();
          const line = document.querySelector('#status .events .line');
          const balls = {};
          for (const g of document.querySelectorAll('#board g.ball')) balls[g.getAttribute('data-ball')] = { square: g.getAttribute('data-square'), transform: g.style.transform };
          return { label: line ? line.textContent : '', plylabel: document.getElementById('plylabel').textContent, balls };
        });
        if (shown.label === `ball phase, step ${st.step}`) break;
      }
      check(shown.label === `ball phase, step ${st.step}`, `${what}: decision ${ph.decision} shows no frame for step ${st.step} (${shown.label})`);
      check(shown.plylabel.includes(`(decision ${ph.decision})`), `${what}: the step label says ${shown.plylabel}`);
      const xy = (sq) => `translate(${6 + (sq.charCodeAt(0) - 97) * 10 + 5}px, ${6 + (8 - Number(sq.slice(1))) * 10 + 5}px)`;
      for (const [b, sq] of Object.entries(st.balls)) {
        const g = shown.balls[b];
        check(g && g.square === sq, `${what}: step ${st.step} of decision ${ph.decision} leaves ball ${b} on ${g && g.square}, the record says ${sq}`);
        // It slides: drawn where it was, then moved to its square.
        if (prev[b] !== sq) check(g.transform === xy(prev[b]), `${what}: ball ${b} starts its slide at ${g.transform}, not at ${prev[b]}`);
      }
      await page.waitForTimeout(450);
      const ends = await page.evaluate(() => Object.fromEntries(Array.from(document.querySelectorAll('#board g.ball')).map((g) => [g.getAttribute('data-ball'), g.style.transform])));
      for (const [b, sq] of Object.entries(st.balls)) check(ends[b] === xy(sq), `${what}: ball ${b} ends its slide at ${ends[b]}, its square is ${sq}`);
      prev = Object.fromEntries(Object.entries(shown.balls).map(([b, g]) => [b, g.square]));
    }
    stamp(`ok: ${what}: the ball phase of decision ${ph.decision} moves the balls as the step events say`);
    // Victory points: a line per seat ending at the result's points.
    const lines = await page.$$eval('#score-plot polyline.series.vp', (ls) => ls.map((l) => ({ vp: l.getAttribute('data-vp').split(',').map(Number), points: l.getAttribute('points').trim().split(/\s+/) })));
    check(lines.length === v.seats, `${what}: ${lines.length} victory-point lines for ${v.seats} seats`);
    lines.forEach((l, seat) => {
      const last = l.vp[l.vp.length - 1];
      check(last === v.points[seat], `${what}: seat ${seat}'s line ends at ${last} VP, the result says ${v.points[seat]}`);
      check(l.points.length === l.vp.length, `${what}: seat ${seat}'s line has ${l.points.length} points for ${l.vp.length} values`);
      const y = Number(l.points[l.points.length - 1].split(',')[1]);
      const want = 160 - 18 - (160 - 18 - 8) * (last / 5) - seat * 0.8;
      check(Math.abs(y - want) < 0.11, `${what}: seat ${seat}'s line ends at y ${y}, ${last} VP is at ${want}`);
    });
    const legend = await page.$eval('#score-legend', (e) => e.textContent);
    v.points.forEach((pts, seat) => check(legend.includes(`${v.names[seat]}: ${pts} VP`), `${what}: the legend lacks ${v.names[seat]}: ${pts} VP (${legend})`));
    // The seat switch: every hand for the spectator, only its own for a seat.
    const all = await hands(page);
    const holding = all.filter((h) => h.cards.length > 0).length;
    check(holding >= 2, `${what}: at decision ${ph.decision} only ${holding} seats hold cards: nothing to hide`);
    check(all.every((h) => h.hidden === null && !h.cards.includes('??')), `${what}: the spectator sees every hand: ${JSON.stringify(all)}`);
    await seatView(page, v.view);
    const mine = await hands(page);
    mine.forEach((h, seat) => {
      if (seat === v.view) {
        check(JSON.stringify(h.cards) === JSON.stringify(all[seat].cards) && h.hidden === null, `${what}: seat ${seat} sees its own hand ${JSON.stringify(h.cards)}, not ${JSON.stringify(all[seat].cards)}`);
      } else {
        check(h.hidden === String(all[seat].cards.length) && h.cards.every((c) => c === '??'), `${what}: seat ${v.view} sees seat ${seat}'s hand as ${JSON.stringify(h)}`);
      }
    });
    // Bids: sealed in the seat's view until the last is in; its own always shown.
    await clickRow(page, 0);
    for (const b of v.bids) {
      const row = await moveRow(page, b.decision);
      const want = b.seat === v.view ? b.move : 'bid (sealed)';
      check(row.move === want, `${what}: at the start seat ${v.view} sees decision ${b.decision} (${b.move} by seat ${b.seat}) as ${row.move}`);
      check(row.title.includes(`: ${want} `), `${what}: the time bar of decision ${b.decision} says ${row.title}`);
    }
    const other = v.bids.find((b) => b.seat !== v.view && b.decision < v.reveal);
    await clickRow(page, other.decision);
    const status = await page.$eval('#status .move-now', (e) => e.textContent);
    check(status.endsWith(': bid (sealed)'), `${what}: seat ${v.view} sees decision ${other.decision} as ${status}`);
    await clickRow(page, v.reveal);
    for (const b of v.bids) {
      const row = await moveRow(page, b.decision);
      check(row.move === b.move, `${what}: once every bid is in seat ${v.view} sees decision ${b.decision} as ${row.move}, not ${b.move}`);
    }
    await seatView(page, null);
    await clickRow(page, 0);
    for (const b of v.bids) check((await moveRow(page, b.decision)).move === b.move, `${what}: the spectator sees decision ${b.decision} as sealed`);
    stamp(`ok: ${what}: hands and bids hidden in seat ${v.view}'s view, shown to the spectator; victory points as the result`);
  }
  async function checkGoofspiel(page, v, ply) {
    const what = 'goofspiel';
    const names = await page.$$eval('#seats li .name', (ns) => ns.map((n) => n.textContent));
    check(JSON.stringify(names) === JSON.stringify(v.names), `${what}: seat names ${JSON.stringify(names)}`);
    const board = () => page.evaluate(() => ({
      prize: document.querySelector('#board g.prize') && document.querySelector('#board g.prize').getAttribute('data-prize'),
      bids: Array.from(document.querySelectorAll('#board g.bid')).map((g) => ({ seat: Number(g.getAttribute('data-seat')), text: g.textContent, cls: g.getAttribute('class') })),
      status: document.getElementById('status').textContent,
    }));
    const show = async (p) => {
      await page.$eval('#slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, p);
      check((await ply()) === p, `${what}: the slider shows bid ${await ply()}, not ${p}`);
    };
    for (const [t, turn] of v.turns.entries()) {
      const last = turn.moves[turn.moves.length - 1];
      const made = turn.moves.slice(0, -1);
      // Just before the last bid, as the spectator: the prize and the bids made.
      await seatView(page, null);
      await show(last.ply - 1);
      let b = await board();
      check(b.prize === String(turn.prize), `${what}: turn ${t + 1} shows the prize ${b.prize}, the record's is ${turn.prize}`);
      for (const m of made) check(b.bids[m.seat].text === m.bid, `${what}: turn ${t + 1}: the spectator sees seat ${m.seat}'s bid as ${b.bids[m.seat].text}, not ${m.bid}`);
      check(b.bids[last.seat].cls.includes('waiting'), `${what}: turn ${t + 1}: seat ${last.seat} has not bid yet, shown ${b.bids[last.seat].text}`);
      // The last bidder's view: every bid made is sealed, on the board and in the move list.
      await seatView(page, last.seat);
      b = await board();
      for (const m of made) {
        check(b.bids[m.seat].text === '?' && b.bids[m.seat].cls.includes('sealed'), `${what}: turn ${t + 1}: seat ${last.seat} sees seat ${m.seat}'s bid as ${b.bids[m.seat].text}`);
        const row = await moveRow(page, m.ply);
        check(row.move === 'bid (sealed)', `${what}: turn ${t + 1}: seat ${last.seat}'s move list shows bid ${m.ply} as ${row.move}, not sealed`);
        check(!row.title.includes(`: ${m.bid} `), `${what}: turn ${t + 1}: the time bar of bid ${m.ply} says ${row.title}`);
      }
      check(b.status.includes('sealed'), `${what}: turn ${t + 1}: the status shows another seat's bid: ${b.status}`);
      // The first bidder's view: its own bid shown.
      await seatView(page, made[0].seat);
      b = await board();
      check(b.bids[made[0].seat].text === made[0].bid, `${what}: turn ${t + 1}: seat ${made[0].seat} sees its own bid as ${b.bids[made[0].seat].text}`);
      check((await moveRow(page, made[0].ply)).move === made[0].bid, `${what}: turn ${t + 1}: seat ${made[0].seat}'s move list hides its own bid`);
      // The last bid reveals them all, in every view.
      await seatView(page, last.seat);
      await show(last.ply);
      b = await board();
      turn.bids.forEach((bid, seat) => check(b.bids[seat].text === String(bid) && b.bids[seat].cls.includes('revealed'), `${what}: turn ${t + 1}: revealed, seat ${seat}'s bid shows ${b.bids[seat].text}, the record's is ${bid}`));
      check(b.prize === String(turn.prize), `${what}: turn ${t + 1}: the revealed turn shows the prize ${b.prize}`);
      for (const m of turn.moves) check((await moveRow(page, m.ply)).move === m.bid, `${what}: turn ${t + 1}: once revealed, bid ${m.ply} shows as ${(await moveRow(page, m.ply)).move}`);
    }
    await seatView(page, null);
    await page.focus('body');
    await page.keyboard.press('End');
    const pts = await page.$$eval('#seats li .pts', (ps) => ps.map((p) => parseInt(p.textContent, 10)));
    check(JSON.stringify(pts) === JSON.stringify(v.points), `${what}: the end shows points ${JSON.stringify(pts)}, the result ${JSON.stringify(v.points)}`);
    stamp(`ok: ${what}: ${v.turns.length} turns: prize and bids shown, sealed in a seat's view until revealed`);
  }
  for (const view of expect.pages) pages.push(await checkViewer(view));

  if (expect.screenshot) {
    const shot = expect.shot || { page: 0, game: 1, ply: 30 };
    const page = pages[shot.page || 0];
    await page.selectOption('#round', String(shot.game));
    await page.focus('body');
    await page.$eval('#slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, shot.ply);
    await page.screenshot({ path: expect.screenshot });
    stamp(`ok: screenshot ${expect.screenshot}`);
  }
  for (const shot of expect.shots || []) {
    const page = pages[shot.page || 0];
    await page.selectOption('#round', String(shot.game));
    await page.focus('body');
    if (shot.seat !== undefined) await seatView(page, shot.seat);
    await page.focus('body');
    if (shot.row !== undefined) {
      // After the move list's row `row` (a decision, where steps are not moves), then
      // `forward` steps more.
      await clickRow(page, shot.row);
      for (let i = 0; i < (shot.forward || 0); i++) await page.click('#forward');
      await page.waitForTimeout(400);
    } else {
      await page.$eval('#slider', (s, v) => { s.value = String(v); s.dispatchEvent(new Event('input')); }, shot.ply);
    }
    await page.screenshot({ path: shot.path });
    stamp(`ok: screenshot ${shot.path}`);
  }
} catch (e) {
  failed = true;
  console.error(`FAIL: ${e && e.message ? e.message : e}`);
} finally {
  if (context) await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
