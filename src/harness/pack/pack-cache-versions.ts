/**
 * What every key of `pack`'s cache holds besides what it is a key of: a digest of the code that
 * computes the value and of the pinned versions of the libraries it calls, so an entry made by
 * other code never applies (pack-cache.ts). The modules are named where they lie, from here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromRoot } from '../paths.js';

/** A digest of the code a cached value comes from, and of the library versions it calls. */
function versionOf(modules: readonly string[], libraries: readonly string[]): string {
  const h = createHash('sha256');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  for (const m of modules) h.update(`${m}\0`).update(fs.readFileSync(path.join(here, `${m}${ext}`)));
  const pkg = JSON.parse(fs.readFileSync(fromRoot('package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  h.update(`ctxbench ${pkg.version}\0`);
  for (const l of libraries) h.update(`${l} ${pkg.dependencies[l] ?? '?'}\0`);
  return h.digest('hex');
}

let versions: { readonly counts: string; readonly facts: string } | undefined;
/** The digests of the code behind token counts and behind a file's facts, made once. */
export const versionsNow = () =>
  (versions ??= {
    counts: versionOf(['../corpus/bpe', '../corpus/piece-cuts'], ['gpt-tokenizer']),
    facts: versionOf(
      [
        '../ingest/outlines/outline',
        '../ingest/outlines/outliners',
        '../ingest/outlines/outline-tests',
        '../ingest/outlines/specifiers',
        '../ingest/blob-facts',
        '../kit/repo-graph',
      ],
      ['web-tree-sitter', 'tree-sitter-wasms'],
    ),
  });
