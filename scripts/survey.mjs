#!/usr/bin/env node
// The survey of issue 9: generated corpora of 40, 200 and 1,000 candidates (fixed seeds), every
// strategy that matters against `exact`, and the tables with 95% Wilson intervals written to
// reports/survey/. Then, as a benchmark and not part of any result, exact's solve time per cell
// of the larger corpora: the median and the worst. Usage: node scripts/survey.mjs [sizes] [jobs]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/ctxbench.js');
const CASES = { 40: 1000, 200: 100, 1000: 40 };
const sizes = (process.argv[2] ?? '40,200,1000').split(',').map(Number);
const jobs = process.argv[3] ?? '2';
const STRATEGIES = 'compiler,compiler-strict,compiler-v2,exact,gated,tiered';

function ctxbench(...args) {
  process.stderr.write(`$ ctxbench ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0 && !(args[0] === 'study' && r.status === 1)) process.exit(r.status ?? 1);
}

const runs = [];
for (const size of sizes) {
  const cases = CASES[size] ?? 40;
  const corpus = `runs/survey/corpus-${size}`;
  const run = `runs/survey/run-${size}`;
  ctxbench(
    'generate',
    '--seed',
    `survey-${size}`,
    '--candidates',
    String(size),
    '--cases',
    String(cases),
    '--out',
    corpus,
    '--force',
  );
  ctxbench('study', '--corpus', corpus, '--strategies', STRATEGIES, '--out', run, '--force', '--jobs', jobs);
  runs.push(run);
}
ctxbench('survey', ...runs, '--out', 'reports/survey');

// Exact's solve time per cell, once each, outside any run folder: a benchmark, never a result.
const { loadExact } = await import(path.join(root, 'dist/src/harness/kit/index.js'));
const { solveExact } = await loadExact();
const { loadCorpus, requestAt } = await import(path.join(root, 'dist/src/harness/input/index.js'));
const { BUDGETS } = await import(path.join(root, 'dist/src/harness/vocabulary.js'));
for (const size of sizes.filter((s) => s >= 200)) {
  const corpus = loadCorpus(path.join(root, `runs/survey/corpus-${size}`));
  const times = [];
  let proven = 0;
  for (const kase of corpus.cases) {
    for (const level of BUDGETS) {
      const request = requestAt(kase, level);
      const input = {
        request,
        candidates: kase.candidates,
        policy: corpus.policy,
        budget: request.usable_token_budget,
      };
      const started = performance.now();
      const out = solveExact(input);
      times.push(performance.now() - started);
      if (out.extras?.proven_optimal !== false) proven++;
    }
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const worst = times[times.length - 1] ?? 0;
  console.log(
    `exact at ${size} candidates: ${proven} of ${times.length} cells proven; median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms`,
  );
}
