#!/usr/bin/env node
// `npm run screenshot` (after `npm run build`): docs/report.png from a fresh default run's
// report.html, as a reader sees it: headless Chromium (Debian's /usr/bin/chromium, or the one
// CTXBENCH_CHROMIUM names) driven by playwright-core, with one of the compiler's refusals opened
// so the picture shows a decision trace. The run is of the report strategies (src/harness/
// vocabulary.ts), the default set as shipped, so a plug-in in strategies/ leaves the picture as
// it is. Usage: node scripts/screenshot.mjs [out.png]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium as driver } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.resolve(process.argv[2] ?? path.join(root, 'docs/report.png'));
const run = path.join(root, 'runs/screenshot');

const browsers = [process.env.CTXBENCH_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
const executablePath = browsers.find((f) => f !== undefined && f !== '' && fs.existsSync(f));
if (executablePath === undefined) {
  process.stderr.write(
    'screenshot: no Chromium found (apt-get install -y chromium, or set CTXBENCH_CHROMIUM)\n',
  );
  process.exit(2);
}

const vocabulary = pathToFileURL(path.join(root, 'dist/src/harness/vocabulary.js')).href;
const { REPORT_STRATEGIES } = await import(vocabulary);
const study = spawnSync(
  process.execPath,
  [
    path.join(root, 'bin/ctxbench.js'),
    'study',
    '--strategies',
    REPORT_STRATEGIES.join(','),
    '--out',
    run,
    '--force',
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
if (study.status !== 0) process.exit(study.status ?? 1);

// The cell to open: the first refusal of the compiler that the manifest expects, as in
// test/cli/report-html.test.ts; the grid's cells are numbered by row.
const rows = fs
  .readFileSync(path.join(run, 'rows.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l));
const refused = rows.findIndex((r) => !r.success && r.strategy === 'compiler' && r.status_correct);

// Root in a container has no user namespace for Chromium's sandbox.
const browser = await driver.launch({ executablePath, args: ['--no-sandbox'] });
try {
  // Wide enough for the widest chart of 13 strategies: narrower, the page scrolls sideways.
  const page = await browser.newPage({ viewport: { width: 1700, height: 1000 } });
  // The page needs nothing from the network, and gets nothing.
  await page.route('**/*', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : route.abort(),
  );
  await page.goto(pathToFileURL(path.join(run, 'report.html')).href);
  if (refused >= 0) {
    await page.locator(`button[data-k="${refused}"]`).click();
    await page.locator('#detail').waitFor({ state: 'visible' });
  }
  await page.screenshot({ path: target, fullPage: true });
} finally {
  await browser.close();
}
process.stderr.write(
  `screenshot: ${path.relative(root, target)} from ${path.relative(root, run)}/report.html\n`,
);
