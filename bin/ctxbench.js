#!/usr/bin/env node
// The ctxbench command. Plain JavaScript over the compiled sources in dist/ (built by
// `npm install` through the prepare script, or by `npm run build`).
import { existsSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('ctxbench: not built yet: run `npm run build` (npm install does it)\n');
  process.exit(2);
}
// A reader that stops early (`| head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}
const { run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
// For the scale benchmark: the peak memory of this whole process, on stderr.
if (process.env.CTXBENCH_REPORT_RSS)
  process.stderr.write(`ctxbench-maxrss-kb ${process.resourceUsage().maxRSS}\n`);
