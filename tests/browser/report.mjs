// End-to-end test of the organiser's report in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core: no browser is ever downloaded).
//
//   node report.mjs EXPECT.json
//
// EXPECT.json (written by tests/report/browser.rs):
//   { "index": "/abs/report/index.html", "tables": ".../tables.html", "bot": ".../bots/3.html",
//     "bot_name": "...", "hostile": ["<img ...>", ...],
//     "standings": [{ "rank", "bot", "rounds", "points", "wins" }, ...],   // standings.json's order
//     "crosstable": [{ "row", "col", "ahead", "tied", "behind", "rounds" }, ...],
//     "forfeits": [{ "table", "round", "kind" }, ...],   // the bot's, in schedule order
//     "rounds": 12, "stderr": "text its stderr tail holds",
//     "screenshot": "/abs/index.png", "bot_screenshot": "/abs/bot.png",
//     "live": { "page": "/abs/live/index.html", "next": "/abs/live/next.html" } }
// (the live page shows 1 round played; "next", 2, is renamed over it while the page is open).
// or, to measure only: { "measure": ["/abs/index.html", ...] }.
//
// Prints "ok: ..." lines and, per page, "weight: N bytes, first contentful paint: T ms";
// exits 1 with the reason on the first failure.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CHROMIUM = process.env.ROLLARENA_CHROMIUM || '/usr/bin/chromium';
const expect = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const t0 = Date.now();
const stamp = (what) => console.log(`${((Date.now() - t0) / 1000).toFixed(2)} s: ${what}`);

function check(cond, what) {
  if (!cond) throw new Error(what);
}

const profile = mkdtempSync(join(tmpdir(), 'rollarena-chromium-'));
let context;
let failed = false;
const dialogs = [];
const errors = [];
const requests = [];
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
  });

  // A page with every listener that tells of something running or leaving the files.
  async function open(file) {
    const page = await context.newPage();
    page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
    await page.goto(typeof file === 'string' && file.startsWith('file:') ? file : pathToFileURL(file).href);
    return page;
  }

  // Weight and time to first paint of a page, loaded fresh (quiet: returns the times).
  async function measure(file, quiet) {
    const bytes = statSync(file).size;
    const page = await open(file);
    await page.waitForSelector('body[data-ready], #board circle, #board g', { state: 'attached', timeout: 60000 });
    const t = await page.evaluate(() => {
      const paint = (n) => performance.getEntriesByName(n)[0];
      const fcp = paint('first-contentful-paint');
      const fp = paint('first-paint');
      const nav = performance.getEntriesByType('navigation')[0];
      return { fcp: fcp ? fcp.startTime : null, fp: fp ? fp.startTime : null, load: nav ? nav.loadEventEnd : null };
    });
    if (quiet) { await page.close(); return t; }
    console.log(`weight: ${bytes} bytes, first paint: ${t.fp && t.fp.toFixed(0)} ms, first contentful paint: ${t.fcp && t.fcp.toFixed(0)} ms, load: ${t.load && t.load.toFixed(0)} ms (${file})`);
    return page;
  }

  if (expect.measure) {
    // Each page loaded 7 times, in turn with the others: the minimum and the median.
    const times = new Map(expect.measure.map((f) => [f, []]));
    for (let i = 0; i < 7; i++) {
      for (const f of expect.measure) times.get(f).push((await measure(f, true)).fcp);
    }
    for (const [f, ts] of times) {
      ts.sort((a, b) => a - b);
      console.log(`weight: ${statSync(f).size} bytes, first contentful paint: min ${ts[0].toFixed(0)} ms, median ${ts[3].toFixed(0)} ms (${f})`);
    }
  } else {
    // The front page: standings, sorting, crosstable, hostile names.
    const index = await measure(expect.index);
    const shown = await index.$$eval('#standings tbody tr', (trs) => trs.map((tr) => {
      const c = (k) => tr.querySelector(`td[data-col="${k}"]`).textContent;
      return { rank: Number(c('rank')), bot: c('bot'), rounds: Number(c('rounds')), points: Number(c('points')), wins: Number(c('wins')),
        winsText: c('wins'), winPct: c('win_pct') };
    }));
    check(shown.length === expect.standings.length, `${shown.length} standings rows, want ${expect.standings.length}`);
    expect.standings.forEach((want, i) => {
      const got = shown[i];
      check(got.bot === want.bot && got.rank === want.rank && got.rounds === want.rounds && got.points === want.points
        && Math.abs(got.wins - want.wins) < 0.01, `standings row ${i + 1}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      check(got.winPct === want.win_pct, `standings row ${i + 1}: win % ${got.winPct}, the terminal prints ${want.win_pct}`);
    });
    const decimals = (t) => (t.split('.')[1] || '').length;
    check(new Set(shown.map((r) => decimals(r.winsText))).size === 1, `the wins column mixes formats: ${shown.map((r) => r.winsText)}`);
    stamp(`ok: the ${shown.length} standings rows are standings.json's, win % as the terminal prints it, wins alike`);

    const names = () => index.$$eval('#standings tbody tr td[data-col="bot"]', (tds) => tds.map((t) => t.textContent));
    await index.click('#standings th[data-col="bot"]');
    const asc = await names();
    const sorted = await index.evaluate((n) => n.slice().sort((a, b) => a.localeCompare(b)), asc);
    check(JSON.stringify(asc) === JSON.stringify(sorted), `sorted by name: ${JSON.stringify(asc)}`);
    await index.click('#standings th[data-col="bot"]');
    check(JSON.stringify(await names()) === JSON.stringify(sorted.slice().reverse()), 'sorted by name, descending');
    await index.click('#standings th[data-col="points"]');
    const pts = await index.$$eval('#standings tbody tr td[data-col="points"]', (tds) => tds.map((t) => Number(t.textContent)));
    check(pts.every((p, i) => i === 0 || pts[i - 1] >= p), `sorted by points: ${pts}`);
    await index.click('#standings th[data-col="rank"]');
    stamp('ok: the standings sort by name both ways and by points');

    const cells = await index.$$eval('#crosstable td.cell[data-row]', (tds) => tds.map((td) => ({
      row: td.dataset.row, col: td.dataset.col, ahead: Number(td.dataset.ahead), tied: Number(td.dataset.tied),
      behind: Number(td.dataset.behind), rounds: Number(td.dataset.rounds), small: td.querySelector('small').textContent,
    })));
    check(cells.length === expect.crosstable.length, `${cells.length} crosstable cells, want ${expect.crosstable.length}`);
    for (const want of expect.crosstable) {
      const got = cells.find((c) => c.row === want.row && c.col === want.col);
      check(got, `no crosstable cell for ${want.row} against ${want.col}`);
      check(got.ahead === want.ahead && got.tied === want.tied && got.behind === want.behind && got.rounds === want.rounds,
        `crosstable ${want.row} against ${want.col}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      check(got.small === `${want.ahead}-${want.tied}-${want.behind} · ${want.rounds}`, `crosstable text ${got.small}`);
    }
    stamp(`ok: the ${cells.length} crosstable cells match the count from results.jsonl`);

    for (const h of expect.hostile) {
      check((await names()).includes(h), `the hostile name ${JSON.stringify(h)} is not shown as text`);
    }
    const inert = async (page, what) => {
      const n = await page.evaluate(() => ({ img: document.querySelectorAll('img').length, scripts: document.scripts.length,
        b: document.querySelectorAll('main b').length }));
      check(n.img === 0 && n.b === 0, `${what}: markup from the data became elements: ${JSON.stringify(n)}`);
      return n;
    };
    check((await inert(index, 'front page')).scripts === 2, 'the front page has only its data and its script');
    await index.mouse.move(1270, 890);
    await index.screenshot({ path: expect.screenshot });
    stamp('ok: hostile names shown as text on the front page; screenshot saved');

    // The quitter's page: its forfeits with their evidence.
    const bot = await measure(expect.bot);
    check(await bot.$eval('#title', (e) => e.textContent) === expect.bot_name, 'the bot page names the bot, as text');
    const forfeits = await bot.$$eval('#forfeits .forfeit', (ds) => ds.map((d) => ({
      table: Number(d.dataset.table), round: Number(d.dataset.round), kind: d.dataset.kind,
      stderr: (d.querySelector('pre.stderr') || {}).textContent || '', link: !!d.querySelector('a.replay'),
      text: d.textContent,
    })));
    check(forfeits.length === expect.forfeits.length, `${forfeits.length} forfeits listed, want ${expect.forfeits.length}`);
    expect.forfeits.forEach((want, i) => {
      const got = forfeits[i];
      check(got.table === want.table && got.round === want.round && got.kind === want.kind,
        `forfeit ${i + 1}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      check(got.stderr.includes(expect.stderr), `forfeit ${i + 1}: its stderr tail is not shown as text: ${JSON.stringify(got.stderr)}`);
      check(got.link, `forfeit ${i + 1} has no replay link`);
      check(got.text.includes(want.exit) && !got.text.includes('{"code"') && !got.text.includes('{"signal"'),
        `forfeit ${i + 1}: ${JSON.stringify(got.text.slice(0, 200))} does not say ${JSON.stringify(want.exit)} in words`);
    });
    await inert(bot, 'bot page');
    const roundsShown = await bot.$$eval('#rounds-table tbody tr', (trs) => trs.length);
    check(roundsShown > 0, 'the bot page lists its rounds');
    await bot.screenshot({ path: expect.bot_screenshot });
    stamp(`ok: the bot page lists its ${forfeits.length} forfeits with their stderr tails as text; screenshot saved`);

    // A round's link opens the viewer on that round: the last forfeit's, which is not the
    // first round of its viewer file (the viewer's default).
    const first = expect.forfeits[expect.forfeits.length - 1];
    const replays = await bot.$$('#forfeits .forfeit a.replay');
    const href = await replays[replays.length - 1].getAttribute('href');
    check(!href.endsWith('#round=1'), `pick a round other than a file's first: ${href}`);
    await Promise.all([bot.waitForNavigation(), replays[replays.length - 1].click()]);
    await bot.waitForSelector('#board circle.ball');
    const picked = await bot.$eval('#round', (s) => s.options[s.selectedIndex].textContent);
    check(picked.includes(`table ${first.table}, round ${first.round}/`), `the viewer opened on ${JSON.stringify(picked)}, want table ${first.table}, round ${first.round}`);
    check(bot.url().includes('#round='), 'the link names the round');
    check(await bot.$('header a[href="../index.html"]'), 'the viewer has no link back to the report');
    stamp(`ok: the forfeit's link opened the viewer on table ${first.table}, round ${first.round}`);
    await bot.goBack();
    await bot.waitForSelector('body[data-ready]');

    // Every round from the tables page, and a second round opened from there.
    const tables = await measure(expect.tables);
    const links = await tables.$$eval('#tables a.replay[data-round]', (as) => as.map((a) => ({
      href: a.getAttribute('href'), round: a.dataset.round, table: a.closest('tr').dataset.table })));
    check(links.length === expect.rounds, `${links.length} round links on the tables page, want ${expect.rounds}`);
    const results = await tables.$$eval('#tables tbody tr', (trs) => trs.map((tr) => ({ table: tr.dataset.table,
      bots: [...tr.querySelectorAll('td.table-result .result')].map((r) => ({ bot: r.dataset.bot, wins: Number(r.dataset.wins), text: r.textContent })) })));
    for (const [table, want] of Object.entries(expect.results)) {
      const got = results.find((r) => r.table === table);
      check(got && got.bots.length === Object.keys(want).length, `table ${table}: its result lists ${JSON.stringify(got)}`);
      for (const b of got.bots) {
        check(Math.abs(b.wins - want[b.bot]) < 1e-9, `table ${table}: ${b.bot} has ${b.wins} wins on the page, ${want[b.bot]} in the records`);
      }
      check(got.bots.every((b, k) => k === 0 || got.bots[k - 1].wins >= b.wins), `table ${table}: the result is not best first`);
    }
    stamp(`ok: every table's result (round wins per bot) is the records'`);
    const last = links[links.length - 1];
    await Promise.all([tables.waitForNavigation(), tables.click(`#tables a.replay[href="${last.href}"]`)]);
    await tables.waitForSelector('#board circle.ball');
    const lastPicked = await tables.$eval('#round', (s) => s.options[s.selectedIndex].textContent);
    check(lastPicked.includes(`table ${last.table}, round ${last.round}/`), `the viewer shows ${lastPicked}, want table ${last.table}, round ${last.round}`);
    stamp(`ok: ${links.length} round links on the tables page; the last opened ${JSON.stringify(lastPicked)}`);

    // The live page reloads itself and shows the page that replaced it.
    const live = await open(expect.live.page);
    await live.waitForSelector('body[data-ready]');
    const before = await live.$eval('#subtitle', (e) => e.textContent);
    check(before.includes('live: 1 round,'), `the live page says ${JSON.stringify(before)}`);
    check(await live.$('meta[http-equiv="refresh"]'), 'the live page has no refresh');
    renameSync(expect.live.next, expect.live.page);
    // A reload may have come just before the new page: wait for up to three.
    let after = before;
    for (let i = 0; i < 3 && !after.includes('live: 2 rounds'); i++) {
      await live.waitForNavigation({ timeout: 15000 });
      await live.waitForSelector('body[data-ready]');
      after = await live.$eval('#subtitle', (e) => e.textContent);
    }
    check(after.includes('live: 2 rounds'), `the reloaded live page says ${JSON.stringify(after)}`);
    stamp('ok: the live page reloaded itself and shows the new standings');
    const liveRows = await live.$$eval('#standings tbody tr', (trs) => trs.map((tr) => ({
      bot: tr.querySelector('td[data-col="bot"]').textContent, wins: tr.querySelector('td[data-col="wins"]').textContent,
      winPct: tr.querySelector('td[data-col="win_pct"]').textContent })));
    const [a, b] = expect.live.pair;
    const rowOf = (n) => liveRows.find((r) => r.bot === n);
    check(rowOf(a).winPct === expect.live.win_pct, `the live page's win % of 1.25 reads ${rowOf(a).winPct}, the terminal ${expect.live.win_pct}`);
    check(rowOf(a).wins === expect.live.wins[0] && rowOf(b).wins === expect.live.wins[1],
      `wins of 32 and 13.5 read ${rowOf(a).wins} and ${rowOf(b).wins}, want ${expect.live.wins}`);
    const eta = await live.$eval('#eta', (e) => e.textContent);
    check(/about|estimated once|none/.test(eta), `the live page's time left: ${JSON.stringify(eta)}`);
    const h2h = await live.$$eval('#crosstable td.cell[data-row]', (tds) => tds.map((td) => [td.dataset.row, td.dataset.col, td.textContent]));
    check(h2h.some(([r, c, t]) => r === a && c === b && t.startsWith('88%') && t.endsWith('3-1-0 · 4')), `the live crosstable: ${JSON.stringify(h2h)}`);
    stamp(`ok: the live page: win % and wins as the terminal, time left ${JSON.stringify(eta)}, the crosstable so far`);

    // The live page of a running tournament: the crosstable of the rounds so far, and the
    // table still playing with a link to its rounds so far.
    const running = await open(expect.running.page);
    await running.waitForSelector('body[data-ready]');
    const runCells = await running.$$eval('#crosstable td.cell[data-row]', (tds) => tds.map((td) => ({
      row: td.dataset.row, col: td.dataset.col, rounds: Number(td.dataset.rounds), small: td.querySelector('small').textContent })));
    check(runCells.length === expect.running.crosstable.length, `${runCells.length} live crosstable cells, want ${expect.running.crosstable.length}`);
    for (const want of expect.running.crosstable) {
      const got = runCells.find((c) => c.row === want.row && c.col === want.col);
      check(got && got.small === `${want.ahead}-${want.tied}-${want.behind} · ${want.rounds}`, `live crosstable ${want.row} against ${want.col}: ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
    const playing = await running.$$eval('#playing tbody tr', (trs) => trs.map((tr) => ({ table: Number(tr.dataset.table),
      href: tr.querySelector('a.replay').getAttribute('href'), text: tr.textContent })));
    check(playing.length === 1 && playing[0].table === expect.running.table && playing[0].href.endsWith(`#round=${expect.running.done}`),
      `tables playing: ${JSON.stringify(playing)}, want table ${expect.running.table} after ${expect.running.done} rounds`);
    if (expect.running.screenshot) await running.screenshot({ path: expect.running.screenshot, fullPage: true });
    await Promise.all([running.waitForNavigation(), running.click('#playing a.replay')]);
    await running.waitForSelector('#board circle.ball');
    check(await running.$eval('#round', (s) => s.value) === String(expect.running.done), 'the playing table\'s link opens its last round played');
    stamp(`ok: the running tournament's live page: its crosstable so far and table ${expect.running.table} playing, with its ${expect.running.done} rounds so far`);

    // A three-round tournament: the rating plot's x axis names each round once.
    const small = await measure(expect.small);
    const xs = await small.$$eval('#rating-plot text.xtick', (ts) => ts.map((t) => t.textContent));
    check(xs.length >= 2 && new Set(xs).size === xs.length && xs.every((x) => /^\d+$/.test(x)), `x-axis labels ${JSON.stringify(xs)}`);
    stamp(`ok: the x axis of three rounds reads ${xs.join(' ')}`);
    // One table is "1 table" (it read "1 tables of 1").
    const subtitle = await small.$eval('#subtitle', (e) => e.textContent);
    check(/^3 rounds, 1 table( of 1)?$/.test(subtitle), `the subtitle of one table: ${subtitle}`);
    stamp(`ok: the subtitle of one table reads "${subtitle}"`);

    await index.waitForTimeout(300);
    check(dialogs.length === 0, `a dialog opened: ${JSON.stringify(dialogs)}`);
    check(errors.length === 0, `script errors: ${JSON.stringify(errors)}`);
    check(requests.length === 0, `requests left the files: ${JSON.stringify(requests)}`);
    stamp('ok: nothing ran: no dialog, no script error, no request');
  }
} catch (e) {
  console.log(`FAILED: ${e.message}`);
  if (errors.length) console.log(`script errors: ${JSON.stringify(errors)}`);
  failed = true;
} finally {
  if (context) await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
