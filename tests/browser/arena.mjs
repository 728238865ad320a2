// The arena's pages in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core: no browser is ever downloaded), against a running `rollarena serve`.
//
//   node arena.mjs EXPECT.json
//
// EXPECT.json (written by tests/arena/web/e2e.rs):
//   { "url": "http://127.0.0.1:PORT", "token": "team_...", "team": "its name",
//     "hostile": ["<img ...>", ...],          // team names that must show as text
//     "broken": "/abs/bot.py",                 // submitted through the form
//     "label": "a hostile label",
//     "diagnosis": ["words", ...],             // what its check report must say
//     "pin": 3,                                // a ready version of the team, pinned with its
//                                              // page's button while the leaderboard is open
//     "screenshots": { "leaderboard": "/abs/a.png", "team": "/abs/b.png" } }   // optional
// or, for the docs' pictures only: { "url": ..., "screenshots": {...}, "team": "its name" }.
//
// Prints "ok: ..." lines; exits 1 with the reason on the first failure.
import { check, expect, stamp, withChromium } from './harness.mjs';

const teamHref = (name) => `/teams/${encodeURIComponent(name)}`;

const dialogs = [];
const errors = [];
await withChromium(async (context) => {
  const page = await context.newPage();
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const inert = async (what) => {
    const n = await page.evaluate(() => ({
      img: document.querySelectorAll('main img').length,
      // The site's own script (/live.js) is the only one a page may have.
      scripts: Array.from(document.scripts).filter((s) => s.getAttribute('src') !== '/live.js').length,
    }));
    check(n.img === 0 && n.scripts === 0, `${what}: a name became markup: ${JSON.stringify(n)}`);
  };

  if (expect.broken) {
    await page.goto(`${expect.url}/`);
    const names = await page.$$eval('main a', (as) => as.map((a) => a.textContent));
    for (const h of expect.hostile) {
      check(names.includes(h), `the leaderboard does not show ${JSON.stringify(h)} as text: ${JSON.stringify(names)}`);
    }
    await inert('the leaderboard');
    for (const h of expect.hostile) {
      await page.goto(`${expect.url}${teamHref(h)}`);
      const title = await page.textContent('h1');
      check(title === `Team ${h}`, `the team page's title is ${JSON.stringify(title)}`);
      await inert(`the page of ${h}`);
    }
    stamp(`ok: ${expect.hostile.length} hostile team names show as text, on the leaderboard and their pages`);

    // Log in with the token through the form.
    await page.goto(`${expect.url}/login`);
    await page.fill('input[name=token]', expect.token);
    await Promise.all([page.waitForNavigation(), page.click('form[action="/login"] button')]);
    const who = await page.textContent('nav .who');
    check(who.includes(expect.team), `after login the page says ${JSON.stringify(who)}`);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'rollarena_session');
    check(session && session.httpOnly && session.sameSite === 'Strict', `the session cookie: ${JSON.stringify(session)}`);
    stamp('ok: logged in through the form; the session cookie is HttpOnly and SameSite=Strict');

    // The broken bot through the submit form.
    await page.goto(`${expect.url}/submit`);
    await page.setInputFiles('input[name=file]', expect.broken);
    await page.fill('input[name=label]', expect.label);
    await Promise.all([page.waitForNavigation(), page.click('form[action="/submit"] button')]);
    check(/\/submissions\/\d+$/.test(page.url()), `the form led to ${page.url()}`);
    stamp(`ok: submitted through the form: ${page.url()}`);
    const deadline = Date.now() + 120000;
    for (;;) {
      const state = await page.$eval('main p .badge', (b) => b.textContent);
      if (state === 'failed') break;
      check(state !== 'ready', 'the broken bot passed its check');
      check(Date.now() < deadline, `the broken bot is still ${state} after 120 s`);
      await page.waitForTimeout(1000);
      await page.reload();
    }
    const verdict = await page.textContent('#check-verdict');
    check(verdict.startsWith('Failed'), `the check's verdict reads ${JSON.stringify(verdict)}`);
    const report = await page.textContent('#check');
    for (const words of expect.diagnosis) {
      check(report.includes(words), `the check report does not say ${JSON.stringify(words)}:\n${report}`);
    }
    const title = await page.textContent('h1');
    check(title.endsWith(expect.label), `the label shows as ${JSON.stringify(title)}`);
    await inert('the submission page');
    stamp(`ok: the check report shows the diagnosis (${expect.diagnosis.join('; ')}) and the label as text`);
  }

  if (expect.pin) {
    // The leaderboard open in a tab of its own; the team pins a version with its page's button;
    // the leaderboard redraws (no reload) with the version marked "pinned".
    const board = await context.newPage();
    board.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    board.on('pageerror', (e) => errors.push(String(e)));
    await board.goto(`${expect.url}/`);
    await board.evaluate(() => { window.stillHere = true; });
    const versionCell = () => board.$$eval('#leaderboard tbody tr', (trs, team) => {
      // Ranked or still placing (the second body, under its heading row).
      const tr = trs.find((r) => r.cells.length > 2 && r.cells[1].querySelector('a').textContent === team);
      return tr ? { text: tr.cells[2].textContent, pinned: tr.cells[2].querySelector('.badge.pinned') !== null } : null;
    }, expect.team);
    const before = await versionCell();
    check(before && !before.pinned, `before the pin the leaderboard's row of the team is ${JSON.stringify(before)}`);

    await page.goto(`${expect.url}${teamHref(expect.team)}`);
    await Promise.all([
      page.waitForNavigation(),
      page.click(`#pin-versions form:has(input[name="version"][value="${expect.pin}"]) button`),
    ]);
    const status = await page.textContent('#pin-status');
    check(status.includes(`Version #${expect.pin} is pinned`), `after the button the team page says ${JSON.stringify(status)}`);
    const pinnedAt = Date.now();

    let after = before;
    while (Date.now() < pinnedAt + 20000) {
      after = await versionCell();
      if (after && after.pinned) break;
      await board.waitForTimeout(100);
    }
    check(after && after.pinned, `20 s after the pin the leaderboard's row of the team is ${JSON.stringify(after)}`);
    check(after.text.includes(`#${expect.pin}`), `the pinned badge is on ${JSON.stringify(after.text)}, not version #${expect.pin}`);
    check(await board.evaluate(() => window.stillHere === true), 'the leaderboard was reloaded');
    check(await board.$eval('#leaderboard', (t) => t.hasAttribute('data-updated')), 'the leaderboard table was not redrawn');
    await board.close();
    stamp(`ok: version #${expect.pin} pinned with the team page's button; the open leaderboard redrew with its badge in ${((Date.now() - pinnedAt) / 1000).toFixed(1)} s, without a reload`);
  }

  if (expect.screenshots) {
    await page.goto(`${expect.url}/`);
    await page.screenshot({ path: expect.screenshots.leaderboard, fullPage: true });
    await page.goto(`${expect.url}${teamHref(expect.team)}`);
    await page.screenshot({ path: expect.screenshots.team, fullPage: true });
    stamp(`ok: screenshots ${expect.screenshots.leaderboard} and ${expect.screenshots.team}`);
  }
  check(dialogs.length === 0, `a dialog opened: ${JSON.stringify(dialogs)}`);
  check(errors.length === 0, `the pages logged errors: ${JSON.stringify(errors)}`);
  stamp('ok: no dialog, no error');
}, { deviceScaleFactor: 1 });
