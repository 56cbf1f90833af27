#!/usr/bin/env node
// `npm run bench:ingest`: one `ctxbench ingest` of the synthetic repository scripts/scale-repo.mjs
// builds (2,000 files, 600 commits; built once into runs/scale-repo), timed as a whole process:
// its wall time from outside, its CPU time and peak memory from its own accounting, printed as it
// exits (a preloaded module, so that the figures need no tool beyond node).
// Usage: node scripts/bench-ingest.mjs [cases=200] [repo=runs/scale-repo]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cases = process.argv[2] ?? '200';
const repo = path.resolve(process.argv[3] ?? path.join(root, 'runs/scale-repo'));
if (!fs.existsSync(repo)) {
  const made = spawnSync(process.execPath, [path.join(root, 'scripts/scale-repo.mjs'), repo], {
    stdio: 'inherit',
  });
  if (made.status !== 0) process.exit(made.status ?? 1);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-bench-ingest-'));
const probe = path.join(work, 'probe.mjs');
fs.writeFileSync(
  probe,
  `process.on('exit', () => { const u = process.resourceUsage();
process.stderr.write('ctxbench-usage ' + u.maxRSS + ' ' + (u.userCPUTime + u.systemCPUTime) + '\\n'); });\n`,
);
const out = path.join(work, 'corpus');
const started = process.hrtime.bigint();
const r = spawnSync(
  process.execPath,
  ['--import', probe, path.join(root, 'bin/ctxbench.js'), 'ingest', repo, '--out', out, '--commits', cases],
  { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 },
);
const wall = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(r.stdout);
const usage = /ctxbench-usage (\d+) (\d+)/.exec(r.stderr.toString('utf8'));
if (r.status !== 0 || usage === null) {
  process.stderr.write(r.stderr);
  process.exit(r.status ?? 1);
}
const bytes = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => {
    const p = path.join(dir, e.name);
    return n + (e.isDirectory() ? bytes(p) : fs.statSync(p).size);
  }, 0);
const corpus = bytes(out);
fs.rmSync(work, { recursive: true, force: true });
process.stdout.write(
  `ingest of ${cases} cases: wall ${wall.toFixed(1)} s, cpu ${(Number(usage[2]) / 1e6).toFixed(1)} s, ` +
    `peak ${(Number(usage[1]) / 1024).toFixed(0)} MB, corpus ${(corpus / 2 ** 30).toFixed(2)} GiB, ` +
    `${os.cpus().length} cores\n`,
);
