// A match in play watched in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core), against a running `rollarena serve`:
//
//   node live.mjs EXPECT.json
//
// EXPECT.json (written by tests/arena/live/watch.rs):
//   { "url": "http://127.0.0.1:PORT", "match": 12,
//     "hostile": ["<img ...>", ...],   // the seats' team names, which must show as text
//     "seconds": 240 }                 // how long the match may take
//
// The match page must show moves arriving (the count of moves grows while the match is in
// play; tests/browser/live_board.mjs watches the board itself), then turn into the finished
// page with the result by itself, without a reload; the leaderboard and
// the first seat's team page, opened in other tabs, must show the finished match without being
// reloaded.
// Prints "ok: ..." lines; exits 1 with the reason on the first failure.
import { check, expect, stamp, withChromium } from './harness.mjs';

const dialogs = [];
const errors = [];
await withChromium(async (context) => {
  const watch = (page) => {
    page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    page.on('pageerror', (e) => errors.push(String(e)));
  };
  const board = await context.newPage();
  watch(board);
  await board.goto(`${expect.url}/`);
  await board.evaluate(() => { window.stillHere = true; });
  const before = await board.textContent('#matches-count');

  const team = await context.newPage();
  watch(team);
  await team.goto(`${expect.url}/teams/${encodeURIComponent(expect.hostile[0])}`);
  await team.evaluate(() => { window.stillHere = true; });
  const teamMatches = () => team.$$eval('#versions tbody tr td:nth-child(7)', (tds) => tds.map((t) => t.textContent).join(','));
  const teamBefore = await teamMatches();

  const page = await context.newPage();
  watch(page);
  await page.goto(`${expect.url}/matches/${expect.match}`);
  await page.evaluate(() => { window.stillHere = true; });
  check(await page.$('#live') !== null, 'the page of a match in play has no live viewer');
  const names = await page.$$eval('#seats tbody tr td:nth-child(2)', (tds) => tds.map((t) => t.textContent));
  for (const h of expect.hostile) {
    check(names.includes(h), `the live page does not show ${JSON.stringify(h)} as text: ${JSON.stringify(names)}`);
  }
  const inert = async (what) => {
    const n = await page.evaluate(() => ({
      img: document.querySelectorAll('main img').length,
      scripts: Array.from(document.scripts).filter((s) => s.getAttribute('src') !== '/live.js').length,
    }));
    check(n.img === 0 && n.scripts === 0, `${what}: a name became markup: ${JSON.stringify(n)}`);
  };
  await inert('the live page');
  stamp(`ok: match ${expect.match} in play; its seats show as text`);

  // Moves arrive while the page stays: the count grows, seen at several different values.
  const counts = new Set();
  const deadline = Date.now() + expect.seconds * 1000;
  let finished = false;
  while (Date.now() < deadline) {
    let state;
    try {
      state = await page.evaluate(() => {
        const live = document.getElementById('live');
        return live ? { moves: live.getAttribute('data-moves'), board: document.getElementById('live-board') !== null }
          : { done: document.querySelector('iframe.replay') !== null };
      });
    } catch (e) {
      // The page is turning into the finished one.
      if (!/context was destroyed|navigat/i.test(e.message)) throw e;
      await page.waitForLoadState('load');
      continue;
    }
    if (state.done) { finished = true; break; }
    if (state.moves !== null && state.moves !== undefined) {
      check(state.board, 'the page of a match in play frames no live board');
      counts.add(parseInt(state.moves, 10));
      if (counts.size === 1) await inert('the live viewer');
    }
    await page.waitForTimeout(250);
  }
  check(finished, `the page did not turn into the finished page in ${expect.seconds} s`);
  check(await page.evaluate(() => window.stillHere === true), 'the match page was reloaded');
  const seen = Array.from(counts).sort((a, b) => a - b);
  check(seen.length >= 3 && seen[seen.length - 1] > 0, `moves did not arrive one after another: counts seen ${JSON.stringify(seen)}`);
  stamp(`ok: moves arrived while watching (${seen.length} different counts, up to ${seen[seen.length - 1]})`);
  const h1 = await page.textContent('h1');
  check(h1 === `Match ${expect.match}`, `the finished page's title is ${JSON.stringify(h1)}`);
  const result = await page.$$eval('#seats tbody tr', (trs) => trs.map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
  check(result.length === expect.hostile.length && result.every((r) => r[3] !== '-'), `no result on the finished page: ${JSON.stringify(result)}`);
  await inert('the finished page');
  stamp(`ok: the page became the finished match's page with its result ${JSON.stringify(result.map((r) => [r[1], r[3]]))}`);

  // The leaderboard tab counted the finished match without a reload.
  const until = Date.now() + 30000;
  let after = before;
  while (Date.now() < until) {
    after = await board.textContent('#matches-count');
    if (after !== before) break;
    await board.waitForTimeout(250);
  }
  check(after !== before, `the leaderboard still says ${before} finished matches`);
  check(await board.evaluate(() => window.stillHere === true), 'the leaderboard was reloaded');
  check(await board.$eval('#leaderboard', (t) => t.hasAttribute('data-updated')), 'the leaderboard table was not redrawn');
  const teams = await board.$$eval('#leaderboard tbody a', (as) => as.map((a) => a.textContent));
  for (const h of expect.hostile) check(teams.includes(h), `the redrawn leaderboard lacks ${JSON.stringify(h)} as text: ${JSON.stringify(teams)}`);
  check(await board.evaluate(() => document.querySelectorAll('main img').length) === 0, 'a name became markup on the leaderboard');
  stamp(`ok: the leaderboard went from ${before} to ${after} finished matches without a reload`);

  // So did the team's page: its version's count of matches, without a reload.
  let teamAfter = teamBefore;
  while (Date.now() < until + 10000) {
    teamAfter = await teamMatches();
    if (teamAfter !== teamBefore) break;
    await team.waitForTimeout(250);
  }
  check(teamAfter !== teamBefore, `the team page still says ${teamBefore} matches`);
  check(await team.evaluate(() => window.stillHere === true), 'the team page was reloaded');
  check(await team.textContent('h1') === `Team ${expect.hostile[0]}`, 'the team page lost its title');
  stamp(`ok: the team page's matches went from ${teamBefore} to ${teamAfter} without a reload`);

  check(dialogs.length === 0, `a dialog opened: ${JSON.stringify(dialogs)}`);
  check(errors.length === 0, `the pages raised errors: ${JSON.stringify(errors)}`);
  stamp('ok: no dialog, no error');
});
