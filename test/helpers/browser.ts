/**
 * Headless Chromium (Debian's, driven by playwright-core) for the tests of report.html: a page
 * that may request nothing but files, with every page error, console error or warning, and
 * request kept for the test to check. Where no Chromium is found, `chromium` is undefined and
 * the tests skip, saying why.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';

/** Debian's Chromium, or the one CTXBENCH_CHROMIUM names. */
const CANDIDATES = [process.env.CTXBENCH_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const chromium = CANDIDATES.find((f): f is string => f !== undefined && f !== '' && fs.existsSync(f));
export const noChromium = `skipped: no Chromium at ${CANDIDATES.filter(Boolean).join(', ')} (apt-get install -y chromium, or set CTXBENCH_CHROMIUM)`;

/** What a page did that a report must never do: its errors, and any request off the file system. */
export interface Watched {
  readonly page: Page;
  readonly problems: string[];
  readonly requested: string[];
}

/** A browser for `use`, closed afterwards; each page it opens is watched. */
export async function withBrowser(use: (open: () => Promise<Watched>) => Promise<void>): Promise<void> {
  const { chromium: driver } = await import('playwright-core');
  // Root in a container has no user namespace for Chromium's sandbox.
  const browser = await driver.launch({ executablePath: chromium as string, args: ['--no-sandbox'] });
  try {
    await use(async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console: ${m.text()}`);
      });
      // No network: anything but the page itself is refused, and counted.
      const requested: string[] = [];
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:')) return route.continue();
        requested.push(url);
        return route.abort();
      });
      return { page, problems, requested };
    });
  } finally {
    await browser.close();
  }
}
