#!/usr/bin/env node
// `npm run build` and `npm run typecheck` at once, for `npm test`: each is tens of seconds of one
// core, and neither reads what the other writes (the type check emits nothing). Exits with the
// first non-zero code of the two, after both have finished, so that both sets of errors show.
import { spawn } from 'node:child_process';

const npm = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });

const codes = await Promise.all([npm('build'), npm('typecheck')]);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
