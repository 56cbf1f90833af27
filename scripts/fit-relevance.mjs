#!/usr/bin/env node
// `npm run fit:relevance -- --repos DIR` (after `npm run build`): the relevance model of ingested
// corpora, fitted again (issue 49). Ingests the SWE-bench Lite instances of the mirrors under DIR
// (SWE_BENCH_LITE) and this repository's pinned history (SELF_CORPUS, checked on, never fitted
// on), keeps every pool file's features (relevance-features.ts), its full text's tokens and
// whether its case needed it (the ledger's `must`), and then, from those alone:
// - out of fold, each of the nine repositories left out in turn, fits the conditional logit on the
//   other eight and scores the one left out: the ablation (every feature family left out in turn),
//   the ridge chosen, and the calibration of the share (relevance-model.ts `scale`);
// - fits the committed model on all 140 instances, and writes
//   src/harness/ingest/relevance/relevance-model.json with the out-of-fold calibration, and
//   runs/relevance/tables.md with the tables docs/real-data.md prints.
// The features are kept in runs/relevance/ so that `--cached` fits again without ingesting.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { root } from './cli.mjs';
import { fitAndReport } from './fit-relevance-eval.mjs';

const built = (module) => import(pathToFileURL(path.join(root, 'dist/src/harness', module)).href);
const { SELF_CORPUS, SWE_BENCH_LITE } = await built('vocabulary.js');
const { ingestRun } = await built('ingest/index.js');
const { FEATURES } = await built('ingest/relevance/relevance-features.js');

const { values } = parseArgs({ options: { repos: { type: 'string' }, cached: { type: 'boolean' } } });
if ((values.repos === undefined) === (values.cached === undefined)) {
  process.stderr.write('usage: npm run fit:relevance -- --repos DIR | --cached\n');
  process.exit(2);
}
const work = path.join(root, 'runs/relevance');
const cache = path.join(work, 'features.json.gz');

/**
 * Every pool file of a source's cases, as [source, case, path, needed, full tokens, ...features],
 * and per case its repository and its gold files, those the pool lacks counted (a miss).
 */
async function examplesOf(source, ingestSource, options) {
  const seen = [];
  const taskTokens = new Map();
  const out = path.join(work, source);
  await ingestRun(ingestSource, {
    maxBytes: 1_000_000,
    seed: 'ingest',
    commits: 50,
    ...options,
    out,
    force: true,
    progress: { sink: { err: (line) => process.stderr.write(`${line}\n`), isTTY: false }, quiet: false },
    observe: (name, files, pool) => {
      const full = new Map(
        pool.filter((c) => c.representation_id === 'full').map((c) => [c.content_identity, c.token_count]),
      );
      taskTokens.set(name, pool.find((c) => c.kind === 'task')?.token_count ?? 0);
      for (const f of files) seen.push([source, name, f.path, full.get(f.path) ?? 0, Array.from(f.features)]);
    },
  });
  const cases = {};
  const needed = new Map();
  for (const name of new Set(seen.map((s) => s[1]))) {
    const truth = JSON.parse(fs.readFileSync(path.join(out, 'ledger', `${name}.truth.json`), 'utf8'));
    const must = Object.entries(truth.identity_truth)
      .filter(([, t]) => t.eval_class === 'must')
      .map(([p]) => p);
    needed.set(name, new Set(must));
    // SWE-bench's case names are `owner__name-number`: the repository is what comes before the number.
    const repo = source === 'self' ? 'self' : name.slice(0, name.lastIndexOf('-'));
    // must_not_in_pool: the gold files no form of which the pool holds, by path, with the reason.
    const gold = must.length + Object.keys(truth.must_not_in_pool ?? {}).length;
    cases[name] = { source, repo, gold, task: taskTokens.get(name) };
  }
  const rows = seen.map(([s, name, p, tokens, x]) => [
    s,
    name,
    p,
    needed.get(name).has(p) ? 1 : 0,
    tokens,
    ...x,
  ]);
  return { rows, cases };
}

let data;
if (values.cached) data = JSON.parse(gunzipSync(fs.readFileSync(cache)).toString('utf8'));
else {
  fs.mkdirSync(work, { recursive: true });
  const swe = await examplesOf(
    'swe-bench',
    {
      sweBench: path.join(root, SWE_BENCH_LITE.records),
      repos: path.resolve(values.repos),
      repo: SWE_BENCH_LITE.repositories,
    },
    {},
  );
  const self = await examplesOf(
    'self',
    { repository: root },
    {
      commits: SELF_CORPUS.commits,
      until: SELF_CORPUS.until,
      name: SELF_CORPUS.repository,
      include: SELF_CORPUS.include.split(','),
    },
  );
  data = { rows: [...swe.rows, ...self.rows], cases: { ...swe.cases, ...self.cases } };
  fs.writeFileSync(cache, gzipSync(JSON.stringify(data)));
}

// A cache made before the features it lacks (the path-only `kinds` among them) cannot
// be fitted on: ingest again.
const stale = data.rows.find((r) => r.length !== 5 + FEATURES.length);
if (stale !== undefined) {
  process.stderr.write(
    `${path.relative(root, cache)}: case ${stale[1]}, file ${stale[2]}: ${stale.length - 5} features where this build computes ${FEATURES.length}; run with --repos DIR again\n`,
  );
  process.exit(2);
}

await fitAndReport(data, {
  root,
  work,
  sources: { 'swe-bench': SWE_BENCH_LITE.name, self: SELF_CORPUS.name },
});
