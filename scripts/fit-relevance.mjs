#!/usr/bin/env node
// `npm run fit:relevance -- --repos DIR` (after `npm run build`): the relevance model of ingested
// corpora, fitted again. Ingests this repository's pinned history (SELF_CORPUS) and the SWE-bench
// Lite instances of the mirrors under DIR (SWE_BENCH_LITE), keeps every pool file's features
// (relevance-features.ts) and whether its case needed it (the ledger's `must`), fits a logistic
// regression on the cases of the development split (relevance-split.ts: `heldOut` false), checks it
// on the others, and writes src/harness/ingest/relevance/relevance-model.json: the weights, what they were
// fitted on, and the calibration on both halves. The features are kept in runs/relevance/ so that
// `--cached` fits again without ingesting (about ten minutes).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { root } from './cli.mjs';

const built = (module) => import(pathToFileURL(path.join(root, 'dist/src/harness', module)).href);
const { SELF_CORPUS, SWE_BENCH_LITE } = await built('vocabulary.js');
const { ingestRun } = await built('ingest/index.js');
const { FEATURES } = await built('ingest/relevance/relevance-features.js');
const { calibration, fitLogistic } = await built('ingest/relevance/relevance-fit.js');
const { heldOut } = await built('relevance-split.js');
const { chanceOf } = await built('ingest/relevance/relevance-model.js');

const { values } = parseArgs({ options: { repos: { type: 'string' }, cached: { type: 'boolean' } } });
if ((values.repos === undefined) === (values.cached === undefined)) {
  process.stderr.write('usage: npm run fit:relevance -- --repos DIR | --cached\n');
  process.exit(2);
}
const work = path.join(root, 'runs/relevance');
const cache = path.join(work, 'features.json.gz');
/** The ridge on the weights: a weak prior, so that a feature seen a few times gets no extreme weight. */
const RIDGE = 1;

/** Every pool file of a source's cases: [source, case, path, needed, ...features]. */
async function examplesOf(source, ingestSource, options) {
  const seen = [];
  const out = path.join(work, source);
  await ingestRun(ingestSource, {
    maxBytes: 1_000_000,
    seed: 'ingest',
    commits: 50,
    ...options,
    out,
    force: true,
    progress: { sink: { err: (line) => process.stderr.write(`${line}\n`), isTTY: false }, quiet: false },
    observe: (name, files) => {
      for (const f of files) seen.push([source, name, f.path, Array.from(f.features)]);
    },
  });
  const needed = new Map();
  for (const name of new Set(seen.map((s) => s[1]))) {
    const truth = JSON.parse(fs.readFileSync(path.join(out, 'ledger', `${name}.truth.json`), 'utf8'));
    needed.set(
      name,
      new Set(
        Object.entries(truth.identity_truth)
          .filter(([, t]) => t.eval_class === 'must')
          .map(([p]) => p),
      ),
    );
  }
  return seen.map(([s, name, p, x]) => [s, name, p, needed.get(name).has(p) ? 1 : 0, ...x]);
}

let rows;
if (values.cached) rows = JSON.parse(gunzipSync(fs.readFileSync(cache)).toString('utf8'));
else {
  fs.mkdirSync(work, { recursive: true });
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
  const swe = await examplesOf(
    'swe-bench',
    {
      sweBench: path.join(root, SWE_BENCH_LITE.records),
      repos: path.resolve(values.repos),
      repo: SWE_BENCH_LITE.repositories,
    },
    {},
  );
  rows = [...self, ...swe];
  fs.writeFileSync(cache, gzipSync(JSON.stringify(rows)));
}

const example = (r) => ({ x: r.slice(4), needed: r[3] === 1 });
const dev = rows.filter((r) => !heldOut(r[1]));
const fit = fitLogistic(dev.map(example), RIDGE);
const model = { features: [...FEATURES], intercept: fit.intercept, weights: fit.weights };
const round = (x) => Number(x.toPrecision(6));
const checked = (subset) => {
  const c = calibration(subset.map((r) => ({ p: chanceOf(r.slice(4), model), needed: r[3] === 1 })));
  return {
    cases: new Set(subset.map((r) => r[1])).size,
    files: c.files,
    needed: c.needed,
    expected: round(c.expected),
    log_loss: round(c.logLoss),
    base_log_loss: round(c.baseLogLoss),
    bins: c.bins.map((b) => ({ ...b, predicted: round(b.predicted), observed: round(b.observed) })),
  };
};
const part = (source, held) => rows.filter((r) => r[0] === source && heldOut(r[1]) === held);
// The ingest policy's floor: a tenth of the chance of a development file drawn at random. A form
// earning less has, by the model's account, no real chance of being needed (ingested-corpus.ts).
const base = dev.filter((r) => r[3] === 1).length / dev.length;
const written = {
  features: model.features,
  intercept: round(model.intercept),
  weights: model.weights.map(round),
  floor: Number((base / 10).toPrecision(1)),
  fitted: {
    ridge: RIDGE,
    newton_steps: fit.steps,
    split: 'held out when the first byte of sha256("relevance-split:" + case) is odd',
    sources: { self: SELF_CORPUS.name, 'swe-bench': SWE_BENCH_LITE.name },
  },
  calibration: {
    development: { self: checked(part('self', false)), 'swe-bench': checked(part('swe-bench', false)) },
    held_out: { self: checked(part('self', true)), 'swe-bench': checked(part('swe-bench', true)) },
  },
};
const file = path.join(root, 'src/harness/ingest/relevance/relevance-model.json');
fs.writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
process.stderr.write(`${path.relative(root, file)} written: ${dev.length} files of the development split\n`);
