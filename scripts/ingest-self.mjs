#!/usr/bin/env node
// `npm run ingest:self` (after `npm run build`): this repository's own history, up to a pinned
// commit so that the figures do not move with every new commit, as a corpus; every strategy run on
// it; reports/self/ and docs/real-data.md written from that run. Needs the history up to the pin
// (a shallow clone has not got it: `git fetch --unshallow`). Tests compare the committed files with
// what the code makes of the committed rows, and, under `npm run test:full`, ingest and study again.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ctxbench, root } from './cli.mjs';

const { SELF_CORPUS, selfCorpusArgs, selfStudyArgs } = await import(
  pathToFileURL(path.join(root, 'dist/src/harness/vocabulary.js')).href
);
const { corpusDigest } = await import(
  pathToFileURL(path.join(root, 'dist/src/harness/runfolder/index.js')).href
);

const corpus = `runs/corpora/${SELF_CORPUS.name}`;
const run = `runs/${SELF_CORPUS.name}`;
ctxbench('ingest', '.', '--out', corpus, '--force', '--quiet', ...selfCorpusArgs());
ctxbench('study', '--corpus', corpus, '--out', run, '--force', '--quiet', ...selfStudyArgs());
ctxbench('report', run, '--out', `reports/${SELF_CORPUS.name}`);
// The rows themselves, so that a clone without the history can still check every derived figure.
fs.copyFileSync(
  path.join(root, run, 'rows.jsonl'),
  path.join(root, 'reports', SELF_CORPUS.name, 'rows.jsonl'),
);
// What a test ingests again and compares, where the clone holds the history.
fs.writeFileSync(
  path.join(root, 'reports', SELF_CORPUS.name, 'corpus.json'),
  `${JSON.stringify({ until: SELF_CORPUS.until, digest: corpusDigest(path.join(root, corpus)) }, null, 2)}\n`,
);
ctxbench('findings', run, '--template', 'docs/real-data.template.md', '--out', 'docs/real-data.md');
