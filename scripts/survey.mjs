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
// Each size twice: budgets as generated (tight below the least legal cost), and the same sizes
// with the tight budget exactly at it, where a legal bundle just fits (issue 22).
for (const least of [false, true]) {
  for (const size of sizes) {
    const cases = CASES[size] ?? 40;
    const name = `${least ? 'least-' : ''}${size}`;
    const corpus = `runs/survey/corpus-${name}`;
    const run = `runs/survey/run-${name}`;
    ctxbench(
      'generate',
      '--seed',
      `survey-${name}`,
      '--candidates',
      String(size),
      '--cases',
      String(cases),
      '--out',
      corpus,
      '--force',
      ...(least ? ['--tight-at-least-cost'] : []),
    );
    ctxbench(
      'study',
      '--corpus',
      corpus,
      '--strategies',
      STRATEGIES,
      '--out',
      run,
      '--force',
      '--jobs',
      jobs,
    );
    runs.push(run);
  }
}
ctxbench('survey', ...runs, '--out', 'reports/survey');

// Solve times per cell, once each, outside any run folder: a benchmark, never a result. exact's
// at 200 candidates and more; compiler-v2's (the planner and its certification) at every size.
const { loadExact, certified, compileContext } = await import(
  path.join(root, 'dist/src/harness/kit/index.js')
);
const { solveExact } = await loadExact();
const { loadCorpus, requestAt } = await import(path.join(root, 'dist/src/harness/corpus/index.js'));
const { BUDGETS } = await import(path.join(root, 'dist/src/harness/vocabulary.js'));
const V2 = { pricing: 'rendered', mandatory_form: 'planned', required_missing: 'refuse' };
const timed = async (label, name, solve) => {
  const corpus = loadCorpus(path.join(root, `runs/survey/corpus-${name}`));
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
      const out = await solve(input);
      times.push(performance.now() - started);
      const p = out.extras?.proof;
      if (p === undefined ? out.extras?.proven_optimal !== false : p === 'optimal' || p === 'infeasible')
        proven++;
    }
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const worst = times[times.length - 1] ?? 0;
  console.log(
    `${label} at ${name} candidates: ${proven} of ${times.length} cells proven; median ${median.toFixed(1)} ms, worst ${worst.toFixed(0)} ms`,
  );
};
for (const least of [false, true])
  for (const size of sizes) {
    const name = `${least ? 'least-' : ''}${size}`;
    if (size >= 200) await timed('exact', name, (input) => solveExact(input));
    await timed('compiler-v2', name, (input) =>
      certified(input, compileContext(input.request, input.candidates, { ...input.policy, ...V2 })),
    );
  }
