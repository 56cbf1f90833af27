#!/usr/bin/env node
// Bar `scale-out`, on this machine (after `npm run build`): SWE-bench instances ingested and
// studied once, then again as N slices, each its own processes as a job of
// .github/workflows/swe-bench.yml runs them, and the slices merged; the rows and corpora compared
// byte for byte and the merged folder validated. Each step is timed with /usr/bin/time (wall, CPU,
// the largest process's peak memory), the figures docs/scale.md projects from.
//
//   node scripts/scale-out.mjs --repos DIR --shards 3 --instances ID,... [--strategies S] [--out runs/scale-out]
//
// --instances, --repo and --limit choose the instances as `ingest --swe-bench` does.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root } from './cli.mjs';

const USAGE =
  'usage: node scripts/scale-out.mjs --repos DIR --shards N [--instances IDS | --repo NAMES | --limit N] [--strategies S] [--out DIR]';
let o;
try {
  ({ values: o } = parseArgs({
    options: {
      repos: { type: 'string' },
      shards: { type: 'string' },
      instances: { type: 'string' },
      repo: { type: 'string' },
      limit: { type: 'string' },
      strategies: { type: 'string' },
      records: { type: 'string', default: 'data/swe-bench/lite.jsonl' },
      out: { type: 'string', default: 'runs/scale-out' },
    },
  }));
} catch (e) {
  process.stderr.write(`scale-out: ${e.message}\n${USAGE}\n`);
  process.exit(2);
}
const shards = Number(o.shards);
if (o.repos === undefined || !Number.isInteger(shards) || shards < 2) {
  process.stderr.write(`scale-out: give --repos DIR and --shards N (N >= 2)\n${USAGE}\n`);
  process.exit(2);
}
const out = path.resolve(root, o.out);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const select = [
  ...(o.instances ? ['--instances', o.instances] : []),
  ...(o.repo ? ['--repo', o.repo] : []),
  ...(o.limit ? ['--limit', o.limit] : []),
];
const strategies = o.strategies ? ['--strategies', o.strategies] : [];
const bin = path.join(root, 'bin/ctxbench.js');
const steps = [];

/** One command, timed; its output kept beside the run. */
function timed(label, ...args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, bin, ...args], {
    cwd: out,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const [wall, user, sys, kib] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  fs.writeFileSync(path.join(out, `${label}.log`), `$ ctxbench ${args.join(' ')}\n${r.stdout}${r.stderr}`);
  steps.push({ label, wall, cpu: user + sys, mib: kib / 1024 });
  if (r.status !== 0) {
    process.stderr.write(
      `scale-out: ${label} failed (exit ${r.status}); see ${path.join(out, `${label}.log`)}\n`,
    );
    process.exit(1);
  }
}

const ingest = (label, corpus, ...more) =>
  timed(
    label,
    'ingest',
    '--swe-bench',
    path.resolve(root, o.records),
    '--repos',
    path.resolve(o.repos),
    '--out',
    corpus,
    '--quiet',
    ...select,
    ...more,
  );
const study = (label, corpus, run) =>
  timed(label, 'study', '--corpus', corpus, '--out', run, '--jobs', '2', '--quiet', ...strategies);

ingest('one-ingest', 'one/swe');
study('one-study', 'one/swe', 'one/run');
for (let i = 1; i <= shards; i++) {
  ingest(`slice-${i}-ingest`, `corpora/slice-${i}`, '--shard', `${i}/${shards}`);
  study(`slice-${i}-study`, `corpora/slice-${i}`, `runs/slice-${i}`);
}
const slices = Array.from({ length: shards }, (_, k) => `runs/slice-${k + 1}`);
timed('merge', 'merge', ...slices, '--out', 'runs/whole', '--corpus', 'joined/swe');
timed('validate', 'validate', 'runs/whole');

const bytes = (f) => fs.readFileSync(path.join(out, f));
const sameRows = bytes('runs/whole/rows.jsonl').equals(bytes('one/run/rows.jsonl'));
const digest = (run) => JSON.parse(bytes(`${run}/manifest.json`)).corpus.digest;
const sameCorpus = digest('runs/whole') === digest('one/run');
const rows = bytes('one/run/rows.jsonl').toString().split('\n').filter(Boolean).length;

const pad = (s, n) => String(s).padStart(n);
process.stdout.write(`step                 wall s   CPU s  peak MiB\n`);
for (const s of steps)
  process.stdout.write(
    `${s.label.padEnd(18)} ${pad(s.wall.toFixed(1), 8)} ${pad(s.cpu.toFixed(1), 7)} ${pad(s.mib.toFixed(0), 9)}\n`,
  );
process.stdout.write(
  `${rows} rows; merged rows byte-identical to one run: ${sameRows ? 'yes' : 'NO'}; ` +
    `joined corpus's digest the same: ${sameCorpus ? 'yes' : 'NO'}; validate accepts the merged folder: yes\n`,
);
fs.writeFileSync(
  path.join(out, 'steps.json'),
  `${JSON.stringify({ shards, select, steps, rows, sameRows, sameCorpus }, null, 2)}\n`,
);
process.exit(sameRows && sameCorpus ? 0 : 1);
