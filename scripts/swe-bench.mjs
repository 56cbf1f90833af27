#!/usr/bin/env node
// `npm run swe-bench -- --repos DIR` (after `npm run build`): the SWE-bench reproduction. The
// vendored Lite records of SWE_BENCH_LITE's repositories (src/harness/vocabulary.ts), found as
// bare mirrors or clones under DIR (`owner__name`), ingested as a corpus; every strategy of
// REPORT_STRATEGIES run on it; reports/swe-bench-lite/ and docs/swe-bench.md written from that
// run. Tests compare the committed files with what the code makes of the committed rows, and,
// under `npm run test:full` with CTXBENCH_SWE_REPOS=DIR, ingest again and compare the digest.
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

const { values } = parseArgs({
  options: {
    repos: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    only: { type: 'string' },
    corpus: { type: 'string' },
  },
});
const only = values.only?.split(',').filter((s) => s !== '');
if (
  (only === undefined) === (values.repos === undefined) ||
  (only !== undefined) !== (values.corpus !== undefined)
) {
  process.stderr.write(
    'usage: npm run swe-bench -- --repos DIR [--jobs N] | --only A,B --corpus DIR [--jobs N]\n',
  );
  process.exit(2);
}
const run = `runs/${SWE_BENCH_LITE.name}`;
const reports = path.join(root, 'reports', SWE_BENCH_LITE.name);
const corpusFile = path.join(reports, 'corpus.json');

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
