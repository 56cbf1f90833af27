#!/usr/bin/env node
// `npm run swe-bench -- --repos DIR` (after `npm run build`): the SWE-bench reproduction. The
// vendored Lite records of SWE_BENCH_LITE's repositories (src/harness/vocabulary.ts), found as
// bare mirrors or clones under DIR (`owner__name`), ingested as a corpus; every strategy of
// REPORT_STRATEGIES run on it; reports/swe-bench-lite/ and docs/swe-bench.md written from that
// run. Tests compare the committed files with what the code makes of the committed rows, and,
// under `npm run test:full` with CTXBENCH_SWE_REPOS=DIR, ingest again and compare the digest.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ctxbench, root } from './cli.mjs';

const built = (module) => import(pathToFileURL(path.join(root, 'dist/src/harness', module)).href);
const { REPORT_STRATEGIES, SWE_BENCH_LITE, sweBenchLiteArgs } = await built('vocabulary.js');
const { corpusDigest } = await built('runfolder/index.js');

const { values } = parseArgs({
  options: { repos: { type: 'string' }, jobs: { type: 'string', default: '2' } },
});
if (values.repos === undefined) {
  process.stderr.write('usage: npm run swe-bench -- --repos DIR [--jobs N]\n');
  process.exit(2);
}
const corpus = `runs/corpora/${SWE_BENCH_LITE.name}`;
const run = `runs/${SWE_BENCH_LITE.name}`;
const reports = path.join(root, 'reports', SWE_BENCH_LITE.name);
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
fs.writeFileSync(
  path.join(reports, 'corpus.json'),
  `${JSON.stringify({ repositories: SWE_BENCH_LITE.repositories, digest: corpusDigest(path.join(root, corpus)) }, null, 2)}\n`,
);
ctxbench('findings', run, '--template', 'docs/swe-bench.template.md', '--out', 'docs/swe-bench.md');
