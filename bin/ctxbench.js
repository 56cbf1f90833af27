#!/usr/bin/env node
// The ctxbench command. Plain JavaScript over the compiled sources in dist/ (built by
// `npm install` through the prepare script, or by `npm run build`).
import { existsSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('ctxbench: not built yet: run `npm run build` (npm install does it)\n');
  process.exit(2);
}
const { run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
