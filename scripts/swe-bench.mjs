#!/usr/bin/env node
// `npm run swe-bench -- --repos DIR [--repo A,B] [--instances IDS] [--limit N] [--out DIR]`
// (after `npm run build`): SWE-bench Lite, or a subset of it, studied. The vendored Lite records of
// SWE_BENCH_LITE's repositories (src/harness/vocabulary.ts), found as bare mirrors or clones under
// DIR (`owner__name`), ingested as a corpus; every strategy of REPORT_STRATEGIES run on it; a
// report and a page (docs/swe-bench-subset.template.md: the paper's table beside this run's, its
// wording from the figures) written under --out (default runs/swe-bench-subset/). Nothing
// committed is touched.
//
// `--publish` (the whole of it, no --repo, --instances or --limit): the committed
// reports/swe-bench-lite/ and docs/swe-bench.md written from the run instead. Tests compare the
// committed files with what the code makes of the committed rows, and, under `npm run test:full`
// with CTXBENCH_SWE_REPOS=DIR, ingest again and compare the digest.
//
// `--only a,b --corpus DIR`: study only those strategies, on a corpus already ingested whose
// digest is the committed one, and put their rows in place of (or beside) theirs in the committed
// rows, in the order a whole run writes them; the other strategies' rows stay as committed. For a
// strategy changed or added since the last whole run: about an hour less than one.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ctxbench, root } from './cli.mjs';

const built = (module) => import(pathToFileURL(path.join(root, 'dist/src/harness', module)).href);
const { BUDGETS, REPORT_STRATEGIES, SWE_BENCH_LITE, sweBenchLiteArgs } = await built('vocabulary.js');
const { corpusDigest, readRunFolder } = await built('runfolder/index.js');
const { derivedFiles } = await built('runfolder/rows.js');

const USAGE =
  'npm run swe-bench -- --repos DIR [--repo A,B] [--instances IDS] [--limit N] [--out DIR] [--jobs N] | --repos DIR --publish | --only A,B --corpus DIR';
let values;
try {
  ({ values } = parseArgs({
    options: {
      repos: { type: 'string' },
      jobs: { type: 'string', default: '2' },
      only: { type: 'string' },
      corpus: { type: 'string' },
      repo: { type: 'string' },
      instances: { type: 'string' },
      limit: { type: 'string' },
      out: { type: 'string' },
      publish: { type: 'boolean', default: false },
    },
  }));
} catch (e) {
  process.stderr.write(`swe-bench: ${e.message} (usage: ${USAGE})\n`);
  process.exit(2);
}
const only = values.only?.split(',').filter((s) => s !== '');
const subset = ['repo', 'instances', 'limit'].filter((k) => values[k] !== undefined);
const refuse = (why) => {
  process.stderr.write(`swe-bench: ${why} (usage: ${USAGE})\n`);
  process.exit(2);
};
if (
  (only === undefined) === (values.repos === undefined) ||
  (only !== undefined) !== (values.corpus !== undefined)
)
  refuse('give --repos DIR, or --only A,B with --corpus DIR');
if (only !== undefined && (subset.length > 0 || values.out !== undefined || values.publish))
  refuse('--only puts rows into the committed report: no --repo, --instances, --limit, --out or --publish');
if (values.publish && (subset.length > 0 || values.out !== undefined))
  refuse(`--publish writes the committed report of every instance: not with --${subset[0] ?? 'out'}`);
if (values.limit !== undefined && !/^[1-9]\d*$/.test(values.limit)) refuse('--limit: a whole number >= 1');
const run = `runs/${SWE_BENCH_LITE.name}`;
const reports = path.join(root, 'reports', SWE_BENCH_LITE.name);
const corpusFile = path.join(reports, 'corpus.json');

if (only === undefined && !values.publish) {
  // A run of one's own: under --out, nothing committed touched.
  const out = path.resolve(values.out ?? 'runs/swe-bench-subset');
  const corpus = path.join(out, 'corpus');
  const mine = path.join(out, 'swe-bench-subset');
  const pick = [
    ...[
      '--swe-bench',
      SWE_BENCH_LITE.records,
      '--repo',
      values.repo ?? SWE_BENCH_LITE.repositories.join(','),
    ],
    ...(values.instances === undefined ? [] : ['--instances', values.instances]),
    ...(values.limit === undefined ? [] : ['--limit', values.limit]),
  ];
  ctxbench('ingest', '--repos', values.repos, '--out', corpus, '--force', '--quiet', ...pick);
  ctxbench(
    'study',
    ...['--corpus', corpus, '--strategies', REPORT_STRATEGIES.join(','), '--out', mine],
    ...['--force', '--jobs', values.jobs, '--quiet'],
  );
  ctxbench('report', mine, '--out', path.join(out, 'report'));
  const page = path.join(out, 'swe-bench.md');
  ctxbench('findings', mine, '--template', 'docs/swe-bench-subset.template.md', '--out', page);
  process.stderr.write(`swe-bench: written ${path.join(out, 'report', 'report.md')} and ${page}\n`);
  process.exit(0);
}

if (only === undefined) {
  const corpus = `runs/corpora/${SWE_BENCH_LITE.name}`;
  ctxbench('ingest', '--repos', values.repos, '--out', corpus, '--force', '--quiet', ...sweBenchLiteArgs());
  ctxbench(
    'study',
    ...['--corpus', corpus, '--strategies', REPORT_STRATEGIES.join(','), '--out', run],
    ...['--force', '--jobs', values.jobs, '--quiet'],
  );
  ctxbench('report', run, '--out', reports);
  // The rows, compressed (tens of MB as text), so that a clone without the repositories can check
  // every derived figure; rows.csv and report.html are made from them and not kept.
  fs.writeFileSync(
    path.join(reports, 'rows.jsonl.gz'),
    gzipSync(fs.readFileSync(path.join(root, run, 'rows.jsonl')), { level: 9 }),
  );
  for (const made of ['rows.csv', 'report.html']) fs.rmSync(path.join(reports, made), { force: true });
  const digest = corpusDigest(path.join(root, corpus));
  fs.writeFileSync(
    corpusFile,
    `${JSON.stringify({ repositories: SWE_BENCH_LITE.repositories, digest }, null, 2)}\n`,
  );
} else {
  const unknown = only.filter((s) => !REPORT_STRATEGIES.includes(s));
  if (unknown.length > 0) throw new Error(`--only: ${unknown.join(', ')} not in REPORT_STRATEGIES`);
  const { digest } = JSON.parse(fs.readFileSync(corpusFile, 'utf8'));
  if (corpusDigest(path.resolve(values.corpus)) !== digest)
    throw new Error(`--corpus ${values.corpus}: not the corpus of ${corpusFile} (digest differs)`);
  const part = `${run}-only`;
  ctxbench(
    'study',
    ...['--corpus', values.corpus, '--strategies', only.join(','), '--out', part],
    ...['--force', '--jobs', values.jobs, '--quiet'],
  );
  // Each line with its row, parsed once.
  const rowsOf = (text) =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => ({ line, row: JSON.parse(line) }));
  const old = rowsOf(gunzipSync(fs.readFileSync(path.join(reports, 'rows.jsonl.gz'))).toString('utf8'));
  const fresh = rowsOf(fs.readFileSync(path.join(root, part, 'rows.jsonl'), 'utf8'));
  // A whole run's order: cases as committed, then budgets, then strategies in registry order.
  const cases = new Map([...new Set(old.map(({ row }) => row.case))].map((c, k) => [c, k]));
  const key = ({ row }) => [
    cases.get(row.case),
    BUDGETS.indexOf(row.budget),
    REPORT_STRATEGIES.indexOf(row.strategy),
  ];
  const merged = [...old.filter(({ row }) => !only.includes(row.strategy)), ...fresh]
    .map((r) => [key(r), r.line])
    .sort(([a], [b]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
    .map(([, line]) => line);
  fs.rmSync(path.join(root, run), { recursive: true, force: true });
  fs.mkdirSync(path.join(root, run), { recursive: true });
  fs.writeFileSync(path.join(root, run, 'rows.jsonl'), `${merged.join('\n')}\n`);
  const stability = (dir) =>
    JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')).prefix_stability;
  const [studied, committed] = [stability(part), stability(reports)];
  const prefix = new Map(REPORT_STRATEGIES.map((s) => [s, (only.includes(s) ? studied : committed)[s]]));
  const made = derivedFiles(readRunFolder(path.join(root, run)).rows, SWE_BENCH_LITE.name, true, prefix);
  for (const name of ['summary.json', 'report.md']) fs.writeFileSync(path.join(reports, name), made[name]);
  fs.writeFileSync(path.join(reports, 'rows.jsonl.gz'), gzipSync(`${merged.join('\n')}\n`, { level: 9 }));
}
ctxbench('findings', run, '--template', 'docs/swe-bench.template.md', '--out', 'docs/swe-bench.md');
