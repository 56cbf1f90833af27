#!/usr/bin/env node
// `node scripts/fit-relevance-misses.mjs` (after `npm run fit:relevance -- --cached` has cached
// the features): the error analysis of issue 49, out of fold. Each repository of SWE-bench Lite is
// scored by a conditional logit fitted on the other eight (ridge 1, every feature); for every
// instance whose gold file is not in the top three it prints the issue's first lines, the gold
// file's rank and features and the files above it, so that misses can be grouped by cause.
// Reads only the vendored Lite records and the cached features.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { root } from './cli.mjs';
import { casesOf, filled, LIMITS, order } from './fit-relevance-eval.mjs';
import { exactKnapsack } from './fit-relevance-knapsack.mjs';

const built = (m) => import(pathToFileURL(path.join(root, 'dist/src/harness', m)).href);
const { FAMILIES, FEATURES, pathKinds } = await built('ingest/relevance/relevance-features.js');
const { fitConditional, fitLogistic } = await built('ingest/relevance/relevance-fit.js');
const { logShares } = await built('ingest/relevance/relevance-model.js');
const { SWE_BENCH_LITE } = await built('vocabulary.js');

const data = JSON.parse(
  gunzipSync(fs.readFileSync(path.join(root, 'runs/relevance/features.json.gz'))).toString('utf8'),
);
// Features cached before the `snippets` and `kinds` families: the path's kinds added as
// scripts/fit-relevance.mjs adds them, the snippets' left at 0 (a column of zeros weighs nothing).
const before = 5 + FEATURES.length - FAMILIES.kinds.length - FAMILIES.snippets.length;
data.rows = data.rows.map((r) =>
  r.length === before ? [...r, ...FAMILIES.snippets.map(() => 0), ...pathKinds(r[2])] : r,
);
const issues = new Map(
  fs
    .readFileSync(path.join(root, SWE_BENCH_LITE.records), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .map((r) => [r.instance_id, r.problem_statement]),
);
const swe = casesOf(data, 'swe-bench');
const repos = [...new Set(swe.map((c) => c.repo))].sort();
const shares = new Array(swe.length);
for (const repo of repos) {
  const f = fitConditional(
    swe.filter((c) => c.repo !== repo).map((c) => ({ rows: c.xs, needed: c.needed })),
    1,
  );
  swe.forEach((c, j) => {
    if (c.repo === repo) shares[j] = logShares(c.xs, f.weights);
  });
}
const shown = (c, i) => {
  const x = c.xs[i];
  const on = FEATURES.map((f, k) => [f, x[k]]).filter(([, v]) => v !== 0);
  return `${c.paths[i]} (${c.tokens[i]} tokens) ${on.map(([f, v]) => `${f}=${Number(v.toFixed(2))}`).join(' ')}`;
};
const at = (c, i, f) => c.xs[i][FEATURES.indexOf(f)];
const NAMING = [
  'path_named',
  'file_name_named',
  'stem_named',
  'module_named',
  'frame_named',
  'identifiers_declared',
  'frame_rank',
];
const dir = (p) => p.slice(0, p.lastIndexOf('/') + 1);
const notSource = (p) =>
  /(^|\/)(docs?|examples?|tutorials?|benchmarks?|tests?|testing)\//.test(p) || !p.endsWith('.py');
/** Causes of a miss, in the order the first that holds is counted as its main one. */
const CAUSES = [
  ['gold file not in the pool', (c, g) => g.length < c.gold],
  [
    'a non-source file (docs, examples, tests, assets) above it',
    (c, _g, above) => above.some((i) => notSource(c.paths[i])),
  ],
  ['an __init__.py above it', (c, _g, above) => above.some((i) => c.paths[i].endsWith('__init__.py'))],
  [
    'gold file not named at all (no path, stem, module, frame or declared identifier)',
    (c, g) => g.every(([i]) => NAMING.every((f) => at(c, i, f) === 0)),
  ],
  ['a huge file (over 20k tokens) above it', (c, _g, above) => above.some((i) => c.tokens[i] > 20_000)],
  [
    'a sibling module (same directory) above it',
    (c, g, above) => above.some((i) => g.some(([k]) => dir(c.paths[k]) === dir(c.paths[i]))),
  ],
];
const main = new Map(CAUSES.map(([n]) => [n, 0]));
const any = new Map(CAUSES.map(([n]) => [n, 0]));
let misses = 0;
swe.forEach((c, j) => {
  const ranked = order(c, shares[j]);
  const golds = ranked.map((i, r) => [i, r]).filter(([i]) => c.needed[i]);
  const worst = golds.length < c.gold ? Infinity : Math.max(...golds.map(([, r]) => r));
  if (worst < 3) return;
  misses++;
  const above = ranked.slice(0, Math.max(...golds.map(([, r]) => r), 0)).filter((i) => !c.needed[i]);
  const held = CAUSES.filter(([, test]) => test(c, golds, above)).map(([n]) => n);
  for (const n of held) any.set(n, any.get(n) + 1);
  if (held.length > 0) main.set(held[0], main.get(held[0]) + 1);
  const lines = (issues.get(c.name) ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(0, 4);
  console.log(
    `\n=== ${c.name}: gold rank ${golds.map(([, r]) => r + 1).join(',') || 'not in pool'} of ${c.paths.length}`,
  );
  for (const l of lines) console.log(`  | ${l.slice(0, 160)}`);
  for (const [i] of golds) console.log(`  gold: ${shown(c, i)}`);
  for (const i of ranked.slice(0, Math.min(5, Math.max(...golds.map(([, r]) => r), 3))))
    if (!c.needed[i]) console.log(`  above: ${shown(c, i)}`);
});
console.log('\n| cause | main cause | holds |\n| --- | ---: | ---: |');
for (const [n] of CAUSES) console.log(`| ${n} | ${main.get(n)} | ${any.get(n)} |`);
console.log(`| none of these | ${misses - [...main.values()].reduce((a, b) => a + b, 0)} | |`);
console.log(`\n${misses} of ${swe.length} instances with a gold file below the top three`);

// Where the exact knapsack loses to top-k: each limit's cases top-k holds whole and the knapsack
// does not, with the gold file's size and chance and what the knapsack took instead. The chance is
// the share's logistic, its scale fitted on the other repositories' out-of-fold shares.
const chance = new Array(swe.length);
for (const repo of repos) {
  const s = fitLogistic(
    swe.flatMap((c, j) =>
      c.repo === repo ? [] : shares[j].map((l, i) => ({ x: [l], needed: c.needed[i] })),
    ),
    1e-6,
  );
  swe.forEach((c, j) => {
    if (c.repo === repo)
      chance[j] = shares[j].map((l) => 1 / (1 + Math.exp(-(s.intercept + s.weights[0] * l))));
  });
}
for (const limit of LIMITS) {
  let lost = 0;
  let won = 0;
  let byShare = 0;
  swe.forEach((c, j) => {
    const top = filled(c, order(c, chance[j]), limit);
    const room = limit - (c.task ?? 0);
    const took = exactKnapsack(c, chance[j], room);
    const knap = c.needed.every((y, i) => !y || took.has(i));
    const share = exactKnapsack(c, shares[j].map(Math.exp), room);
    if (c.needed.every((y, i) => !y || share.has(i))) byShare++;
    if (knap && !top) won++;
    if (!top || knap) return;
    lost++;
    const g = c.needed.findIndex(Boolean);
    const sum = [...took].reduce((a, i) => a + chance[j][i], 0);
    console.log(
      `${limit}: ${c.name} gold ${c.paths[g]} ${c.tokens[g]} tokens chance ${chance[j][g].toFixed(3)}; knapsack took ${took.size} files, chance sum ${sum.toFixed(3)}, largest ${Math.max(...[...took].map((i) => c.tokens[i]))} tokens`,
    );
  });
  console.log(
    `${limit}: the knapsack loses ${lost} cases to top-k and wins ${won}; by share instead of chance it holds ${byShare}`,
  );
}

// Whether a calibration that also reads the file's size (log of its characters) closes the gap:
// chance = logistic(a + b log share + c log size), fitted out of fold as above.
const SIZE = FEATURES.indexOf('log_size');
const sized = new Array(swe.length);
for (const repo of repos) {
  const s = fitLogistic(
    swe.flatMap((c, j) =>
      c.repo === repo ? [] : shares[j].map((l, i) => ({ x: [l, c.xs[i][SIZE]], needed: c.needed[i] })),
    ),
    1e-6,
  );
  if (repo === repos[0])
    console.log(`size-aware scale: ${s.intercept.toFixed(3)} ${s.weights.map((w) => w.toFixed(3))}`);
  swe.forEach((c, j) => {
    if (c.repo === repo)
      sized[j] = shares[j].map(
        (l, i) => 1 / (1 + Math.exp(-(s.intercept + s.weights[0] * l + s.weights[1] * c.xs[i][SIZE]))),
      );
  });
}
for (const limit of LIMITS) {
  const held = swe.filter((c, j) => {
    const took = exactKnapsack(c, sized[j], limit - (c.task ?? 0));
    return c.needed.every((y, i) => !y || took.has(i));
  }).length;
  const top = swe.filter((c, j) => filled(c, order(c, sized[j]), limit)).length;
  console.log(`${limit}: size-aware chance: the knapsack holds ${held}, top-k ${top} of ${swe.length}`);
}

// Whether sharpening the chances (chance ** g, g > 1) moves the knapsack towards top-k's order
// where the two disagree: at g = 1 the expected count, as g grows the likeliest file first.
for (const g of [1, 1.5, 2, 3]) {
  const held = LIMITS.map(
    (limit) =>
      swe.filter((c, j) => {
        const took = exactKnapsack(
          c,
          chance[j].map((p) => p ** g),
          limit - (c.task ?? 0),
        );
        return c.needed.every((y, i) => !y || took.has(i));
      }).length,
  );
  console.log(
    `chance ** ${g}: the knapsack holds ${held.join(', ')} of ${swe.length} at ${LIMITS.join(', ')}`,
  );
}
