#!/usr/bin/env node
// The repositories a slice of a SWE-bench ingest reads, one owner/name a line (after `npm run
// build`): what a job of .github/workflows/swe-bench.yml, or a pod of
// deploy/kubernetes/swe-bench.yaml, clones before `ingest --swe-bench ... --shard i/n`. The same
// selection and slice as ingest's, from the same code.
//
//   node scripts/slice-repos.mjs RECORDS i/n [--instances IDS] [--repo NAMES] [--limit N]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { root } from './cli.mjs';

const load = (p) => import(pathToFileURL(path.join(root, 'dist/src/harness', p)).href);
const { readInstances, selectInstances } = await load('ingest/swe-bench/swe-records.js');
const { ingestOrder, sliceSelection } = await load('ingest/swe-bench/swe-slice.js');
const { parseShard } = await load('shard.js');

const USAGE = 'usage: node scripts/slice-repos.mjs RECORDS i/n [--instances IDS] [--repo NAMES] [--limit N]';
try {
  const { values: o, positionals } = parseArgs({
    allowPositionals: true,
    options: { instances: { type: 'string' }, repo: { type: 'string' }, limit: { type: 'string' } },
  });
  const [records, shard] = positionals;
  if (records === undefined || shard === undefined || positionals.length > 2)
    throw new Error('give RECORDS and i/n');
  const list = (s) => (s === undefined ? undefined : s.split(',').filter(Boolean));
  const chosen = selectInstances(readInstances(records), {
    instances: list(o.instances),
    repos: list(o.repo),
    limit: o.limit === undefined ? undefined : Number(o.limit),
  });
  const ordered = ingestOrder(chosen);
  const { ids } = sliceSelection(ordered, parseShard(shard));
  const repos = [...new Set(ordered.filter((i) => ids.has(i.instance_id)).map((i) => i.repo))];
  process.stdout.write(repos.map((r) => `${r}\n`).join(''));
} catch (e) {
  process.stderr.write(`slice-repos: ${e.message}\n${USAGE}\n`);
  process.exit(2);
}
