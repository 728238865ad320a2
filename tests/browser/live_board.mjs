// A match's live board watched in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core), against a running `rollarena serve` whose first match is about to be
// made:
//
//   node live_board.mjs EXPECT.json
//
// EXPECT.json (written by tests/arena/live/board.rs):
//   { "url": "http://127.0.0.1:PORT", "match": 1, "game": "rolit",
//     "pieces": "#board circle.ball",  // what the game's board draws, at least `min` of them
//     "min": 4,
//     "hidden": false,                 // hands shown as backs and counts
//     "counts": 3,                     // different counts of moves seen in play, at least
//     "screenshot": "/path/live-rolit.png" or null,   // taken once `min_shot` moves are in
//     "min_shot": 6,
//     "seconds": 90 }
//
// The match page must frame the replay viewer fed by the match's stream: the game's board
// with its pieces, the state before the round's first move (step 0), a seat list, each
// seat's clock, the move list growing, a "live" mark; at the end of round 1 the board moves on
// to round 2 (round 1 stays in the picker, over); at the end of the match the page becomes
// the finished match's page without a reload.
// Prints "ok: ..." lines; exits 1 with the reason on the first failure.
import { check, expect, stamp, withChromium } from './harness.mjs';

const errors = [];
await withChromium(async (context) => {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  // The frame's uncaught errors come as console errors.
  const consoled = [];
  page.on('console', (m) => {
    consoled.push(`${m.type()}: ${m.text()}`);
    if (m.type() === 'error' && /uncaught|error:/i.test(m.text())) errors.push(m.text());
  });
  page.on('dialog', async (d) => { errors.push('dialog: ' + d.message()); await d.dismiss(); });
  const url = `${expect.url}/matches/${expect.match}`;
  // The match appears once the ladder makes it (its second version is being checked).
  const until = Date.now() + expect.seconds * 1000;
  for (;;) {
    const r = await page.request.get(url);
    if (r.status() === 200) break;
    check(Date.now() < until, `${url} never answered 200`);
    await page.waitForTimeout(100);
  }
  await page.goto(url);
  await page.evaluate(() => { window.stillHere = true; });
  const finished = await page.$('body[data-finished], iframe.replay:not(#live-board)');
  check(!finished && await page.$('#live-board') !== null, 'the match was over before its page opened: no live board to watch');
  stamp(`ok: match ${expect.match} opened while ${await page.textContent('main .badge')}`);

  const frameOf = () => page.frames().find((f) => /\/watch(#|$)/.test(f.url()));
  const seen = { rounds: new Set(), moves: new Set(), start: false, shot: false, over: false, moved_on: false };
  let finishedPage = false;
  let lastState = null;
  while (Date.now() < until) {
    if (await page.$('body[data-finished]')) { finishedPage = true; break; }
    const frame = frameOf();
    let s = null;
    if (frame) {
      try {
        s = await frame.evaluate((sel) => {
          const b = document.body;
          const hands = document.querySelectorAll('#seats .seat-hand');
          return {
            live: b.getAttribute('data-live'), following: b.getAttribute('data-following'), round: b.getAttribute('data-round'), moves: parseInt(b.getAttribute('data-moves') || '0', 10),
            pieces: document.querySelectorAll(sel).length, seats: document.querySelectorAll('#seats li').length,
            clocks: document.querySelectorAll('#clocks table.clocks tbody tr').length,
            mark: (document.getElementById('live-mark') || {}).textContent,
            rows: document.querySelectorAll('#moves tbody tr.move').length,
            label: document.getElementById('plylabel').textContent,
            backs: document.querySelectorAll('#seats .seat-hand .card.hidden').length,
            faces: document.querySelectorAll('#seats .seat-hand .card:not(.hidden)').length,
            hands: hands.length,
            options: Array.from(document.querySelectorAll('#round option')).map((o) => o.textContent),
          };
        }, expect.pieces);
      } catch (e) {
        if (!/detached|destroyed|navigat/i.test(e.message)) throw e;
      }
    }
    if (s && (!lastState || s.round !== lastState.round || s.live !== lastState.live)) stamp(`the board: ${s.live}, round ${s.round}, ${s.moves} moves${s.following === 'false' ? ' (not following)' : ''}`);
    if (s) lastState = s;
    if (s && s.live === 'playing' && s.round) {
      const round = parseInt(s.round, 10);
      check(s.pieces >= expect.min, `round ${round}: the board draws ${s.pieces} of ${expect.pieces}`);
      check(s.seats === 2 && s.clocks === 2, `round ${round}: ${s.seats} seats and ${s.clocks} clocks shown`);
      check(s.mark === '● live', `the live mark says ${JSON.stringify(s.mark)}`);
      if (expect.hidden) {
        check(s.faces === 0, `round ${round}: ${s.faces} cards of a hand shown face up while in play`);
      }
      if (seen.rounds.size && !seen.rounds.has(round) && Math.max(...seen.rounds) < round) {
        seen.moved_on = true;
        const before = s.options.find((o) => o.startsWith(`round ${round - 1}/`));
        check(before && !before.includes('in play'), `round ${round - 1} is not listed as over once round ${round} plays: ${JSON.stringify(s.options)}`);
        stamp(`ok: the board moved on to round ${round}; the picker lists ${JSON.stringify(s.options)}`);
      }
      seen.rounds.add(round);
      seen.moves.add(s.moves);
      if (!seen.start && s.moves > 0) {
        // The state before the round's first move: step 0, with the board drawn.
        await frame.click('#first');
        const zero = await frame.evaluate((sel) => ({ label: document.getElementById('plylabel').textContent, pieces: document.querySelectorAll(sel).length, status: document.getElementById('status').textContent }), expect.pieces);
        check(/ 0 \//.test(zero.label) && zero.pieces >= expect.min, `step 0 of round ${round}: ${JSON.stringify(zero)}`);
        await frame.click('#last');
        seen.start = true;
        stamp(`ok: round ${round}'s state before its first move is shown (${zero.pieces} pieces, "${zero.status.slice(0, 60)}")`);
      }
      if (expect.hidden && s.backs > 0) seen.backs = s.backs;
      if (!seen.shot && expect.screenshot && s.moves >= Math.min(6, expect.min_shot || 6)) {
        await page.locator('#live-board').screenshot({ path: expect.screenshot });
        seen.shot = true;
        stamp(`ok: screenshot at round ${round}, ${s.moves} moves`);
      }
    }
    if (s && s.live === 'over') seen.over = true;
    await page.waitForTimeout(100);
  }
  check(finishedPage, `the page did not become the finished match's page in ${expect.seconds} s`);
  const rounds = Array.from(seen.rounds).sort();
  const moves = Array.from(seen.moves).sort((a, b) => a - b);
  check(seen.moved_on && rounds.length >= 2, `the board never moved on to a new round: rounds seen ${JSON.stringify(rounds)}; last seen ${JSON.stringify(lastState)}; frames ${JSON.stringify(page.frames().map((f) => f.url()))}; console ${JSON.stringify(consoled.slice(-10))}; errors ${JSON.stringify(errors)}`);
  check(moves.length >= expect.counts, `moves did not arrive one after another: counts seen ${JSON.stringify(moves)}`);
  check(seen.start, 'the state before a first move was never checked');
  if (expect.hidden) check(seen.backs > 0, 'no hand was shown as backs');
  stamp(`ok: rounds ${JSON.stringify(rounds)} seen in play, ${moves.length} different move counts up to ${moves[moves.length - 1]}${expect.hidden ? ', hands as ' + seen.backs + ' backs' : ''}`);

  // The finished page, in place: its replay framed, the result in the seats' table.
  check(await page.evaluate(() => window.stillHere === true), 'the page was reloaded');
  check(await page.$('#live') === null && await page.$('iframe.replay') !== null, 'the finished page has no replay');
  const src = await page.getAttribute('iframe.replay', 'src');
  check(src === `/matches/${expect.match}/replay`, `the finished page frames ${src}`);
  const h1 = await page.textContent('h1');
  check(h1 === `Match ${expect.match}`, `the finished page's title is ${JSON.stringify(h1)}`);
  const result = await page.$$eval('#seats tbody tr', (trs) => trs.map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
  check(result.length === 2 && result.every((r) => r[3] !== '-'), `no result on the finished page: ${JSON.stringify(result)}`);
  stamp(`ok: the page became the finished match's page without a reload: ${JSON.stringify(result.map((r) => [r[1], r[3]]))}`);
  check(errors.length === 0, `the page raised errors: ${JSON.stringify(errors)}`);
  stamp('ok: no error');
});
