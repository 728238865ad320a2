// What the arena's browser scripts share: Debian's Chromium started headless through
// playwright-core (no browser is ever downloaded) in a throwaway profile, the "ok:" lines they
// print, and the exit status the Rust tests read (1 with the reason on the first failure).
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CHROMIUM = process.env.ROLLARENA_CHROMIUM || '/usr/bin/chromium';
const t0 = Date.now();

/// The test's expectations: the JSON file named by the first argument.
export const expect = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/// Prints a line with the seconds since the script started.
export const stamp = (what) => console.log(`${((Date.now() - t0) / 1000).toFixed(2)} s: ${what}`);

/// Fails the script with `what` unless `cond`.
export function check(cond, what) {
  if (!cond) throw new Error(what);
}

/// Runs `body(context)` in a fresh Chromium (`options` added to the launch's), then closes it,
/// removes its profile and exits: 0, or 1 after printing "FAIL: reason".
export async function withChromium(body, options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'rollarena-chromium-'));
  let context;
  let failed = false;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
      viewport: { width: 1280, height: 900 },
      ...options,
    });
    await body(context);
  } catch (e) {
    failed = true;
    console.log(`FAIL: ${e.message}`);
  } finally {
    if (context) await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}
