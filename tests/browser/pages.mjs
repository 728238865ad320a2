// The arena's pages as they read, in headless Chromium, logged in as the organiser, against a
// running `rollarena serve` (tests/arena/web/pages.rs):
//
//   node pages.mjs EXPECT.json
//
// EXPECT.json: { "url": "http://127.0.0.1:PORT", "token": "the organiser's",
//   "widths": [1280, 800], "pages": ["/", "/matches", ...],
//   "rejudge": 12,            // a finished match: Enter in the re-judge form must not void it
//   "team": "Team Alpha" }    // an enabled team whose name says "Team": its Disable and New
//                             // token buttons must only ask
//
// At each width, on each page: no word of a table's header or cell, of a badge or of the title
// is broken across lines (each word's text, measured with a Range, sits on one line; a
// hyphen may end a line, as everywhere in text); every header stays on one line; a column of
// numbers has its header aligned right with them; the title has no doubled word. Then the
// confirmations: Enter in the re-judge form's fields and on every question page acts on
// nothing (a question, then back); the Rust test checks the database afterwards.
//
// Prints "ok: ..." lines; exits 1 with the reason on the first failure.
import { check, expect, stamp, withChromium } from './harness.mjs';

/// What the page breaks, in the page's context.
function audit() {
  const lineCount = (rects) => {
    const tops = [];
    for (const r of rects) {
      if (r.width === 0 || r.height === 0) continue;
      if (!tops.some((t) => Math.abs(t - r.top) < 3)) tops.push(r.top);
    }
    return tops.length;
  };
  const where = (el) => {
    const t = el.closest('table');
    return `${el.tagName.toLowerCase()}${t && t.id ? ' in #' + t.id : t ? ' in table.' + t.className : ''}`;
  };
  const broken = [];
  const roots = Array.from(document.querySelectorAll('main table, main .badge, h1'));
  const seen = new Set();
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (seen.has(node)) continue;
      seen.add(node);
      // Logs are logs: a pre wraps where it must.
      if (node.parentElement.closest('pre')) continue;
      // A word with the hyphen that may end its line.
      for (const m of node.data.matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if (lineCount(range.getClientRects()) > 1) {
          broken.push(`${JSON.stringify(m[0])} (${where(node.parentElement)})`);
        }
      }
    }
  }
  const headers = [];
  for (const th of document.querySelectorAll('main th, main .badge')) {
    const range = document.createRange();
    range.selectNodeContents(th);
    if (lineCount(range.getClientRects()) > 1) headers.push(`${JSON.stringify(th.textContent)} (${where(th)})`);
  }
  const misaligned = [];
  for (const table of document.querySelectorAll('main table')) {
    const head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    if (!head) continue;
    const body = Array.from(table.tBodies).flatMap((b) => Array.from(b.rows))
      .find((r) => r.cells.length === head.cells.length);
    if (!body) continue;
    Array.from(head.cells).forEach((th, i) => {
      const td = body.cells[i];
      if (!td.classList.contains('num')) return;
      const [a, b] = [getComputedStyle(th).textAlign, getComputedStyle(td).textAlign];
      if (a !== b) misaligned.push(`${JSON.stringify(th.textContent)} is ${a}, its numbers ${b} (${where(th)})`);
    });
  }
  const doubled = [];
  for (const title of [document.querySelector('h1').textContent, document.title]) {
    const words = title.toLowerCase().split(/\s+/).filter((w) => w);
    words.forEach((w, i) => { if (i > 0 && words[i - 1] === w) doubled.push(title); });
  }
  return { broken, headers, misaligned, doubled, wide: document.documentElement.scrollWidth };
}

const dialogs = [];
const errors = [];
await withChromium(async (context) => {
  const page = await context.newPage();
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  page.on('pageerror', (e) => errors.push(String(e)));

  await page.goto(`${expect.url}/login`);
  await page.fill('input[name=token]', expect.token);
  await Promise.all([page.waitForNavigation(), page.click('form[action="/login"] button')]);
  check((await page.textContent('nav .who')).includes('Organiser'), 'not logged in as the organiser');

  for (const width of expect.widths) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of expect.pages) {
      await page.goto(`${expect.url}${path}`);
      const r = await page.evaluate(audit);
      const at = `${path} at ${width} px`;
      check(r.broken.length === 0, `${at}: words broken inside: ${r.broken.slice(0, 12).join(', ')}`);
      check(r.headers.length === 0, `${at}: headers or badges on more than one line: ${r.headers.slice(0, 12).join(', ')}`);
      check(r.misaligned.length === 0, `${at}: numeric headers not aligned with their numbers: ${r.misaligned.join('; ')}`);
      check(r.doubled.length === 0, `${at}: a doubled word in the title: ${JSON.stringify(r.doubled)}`);
      check(r.wide <= width, `${at}: the page is ${r.wide} px wide (a table should scroll in its frame)`);
    }
    stamp(`ok: at ${width} px, ${expect.pages.length} pages: no word broken, headers on one line, numbers aligned, titles single`);
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  const state = (id) => page.evaluate(async (id) => {
    const r = await fetch(`/api/matches/${id}`, { credentials: 'same-origin' });
    return (await r.json()).state;
  }, id);
  const closing = () => page.evaluate(async () => (await (await fetch('/api/final')).json()).closing);
  // A question page: its title, Cancel focused; Enter goes back to the organiser's page.
  const question = async (title, what) => {
    check(new URL(page.url()).pathname !== '/organiser', `${what}: no question, still on ${page.url()}`);
    const h1 = await page.textContent('h1');
    check(h1 === title, `${what}: the question is ${JSON.stringify(h1)}, not ${JSON.stringify(title)}`);
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
    check(focused === 'cancel', `${what}: the focused element is ${JSON.stringify(focused)}, not Cancel`);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    check(new URL(page.url()).pathname === '/organiser', `${what}: Enter on the question led to ${page.url()}`);
  };
  const rejudge = 'form[action="/organiser/rejudge"]';
  for (const field of ['match', 'reason']) {
    await page.goto(`${expect.url}/organiser`);
    await page.fill(`${rejudge} input[name=match]`, String(expect.rejudge));
    await page.fill(`${rejudge} input[name=reason]`, 'pressed Enter');
    await Promise.all([page.waitForNavigation(), page.press(`${rejudge} input[name=${field}]`, 'Enter')]);
    check(await state(expect.rejudge) === 'done', `Enter in the ${field} field changed match ${expect.rejudge}`);
    await question(`Void match #${expect.rejudge}?`, `Enter in the ${field} field`);
    check(await state(expect.rejudge) === 'done', `Enter on the question changed match ${expect.rejudge}`);
  }
  for (const [button, title] of [['rerun', `Play match #${expect.rejudge} again?`], ['void', `Void match #${expect.rejudge}?`]]) {
    await page.fill(`${rejudge} input[name=match]`, String(expect.rejudge));
    await Promise.all([page.waitForNavigation(), page.click(`${rejudge} button[value=${button}]`)]);
    await question(title, `the ${button} button`);
  }
  await Promise.all([page.waitForNavigation(), page.click(`${rejudge} button[value=recompute]`)]);
  await question('Recompute every rating?', 'the recompute button');
  check(await state(expect.rejudge) === 'done', `match ${expect.rejudge} changed`);

  await page.fill('form[action="/organiser/freeze"] input[name=at]', '2001-01-01T00:00:00Z');
  await Promise.all([page.waitForNavigation(), page.click('form[action="/organiser/freeze"] button[value=now]')]);
  await question('Close the contest now?', 'Close now');
  check(await closing() === null, 'the contest has a closing time');

  const row = `#teams tr:has(a[title="${expect.team}"])`;
  await Promise.all([page.waitForNavigation(), page.click(`${row} button[value=disable]`)]);
  await question(`Disable ${expect.team}?`, 'Disable');
  await Promise.all([page.waitForNavigation(), page.click(`${row} button[value=token]`)]);
  await question(`Give ${expect.team} a new token?`, 'New token');
  stamp('ok: Enter in the re-judge form\'s fields and on each question (void, rerun, recompute, close now, disable, new token) acted on nothing');

  check(dialogs.length === 0, `a dialog opened: ${JSON.stringify(dialogs)}`);
  check(errors.length === 0, `the pages logged errors: ${JSON.stringify(errors)}`);
  stamp('ok: no dialog, no error');
}, { deviceScaleFactor: 1 });
