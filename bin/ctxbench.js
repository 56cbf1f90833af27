#!/usr/bin/env node
// The ctxbench command. Plain JavaScript over the compiled sources in dist/ (built by
// `npm install` through the prepare script, or by `npm run build`).
import { existsSync, readdirSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
// A build puts its dist/ in place by two renames (scripts/build.mjs): the old one aside, the new
// one in. Between them, with the old one's folder still there, wait for the new one, a few seconds
// at most, rather than call the project unbuilt.
const aside = () => readdirSync(new URL('..', import.meta.url)).some((n) => n.startsWith('dist.old-'));
for (let waited = 0; !existsSync(main) && waited < 5000 && aside(); waited += 20)
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
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
// A throw that escapes the command (in a callback, say) is a bug of ctxbench's own: one line and
// exit 3, the code of an internal error, never 1, which would read as a failed check.
const crash = (e) => {
  let text;
  try {
    text = e instanceof Error ? e.message : String(e);
  } catch {
    text = 'a value that cannot be described';
  }
  process.stderr.write(`ctxbench: internal error: ${text.split('\n')[0]}\n`);
  if (process.env.CTXBENCH_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
  process.exit(3);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
const { run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
// For the scale benchmark: the peak memory of this whole process, on stderr.
if (process.env.CTXBENCH_REPORT_RSS)
  process.stderr.write(`ctxbench-maxrss-kb ${process.resourceUsage().maxRSS}\n`);
