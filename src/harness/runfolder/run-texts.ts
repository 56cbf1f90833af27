/**
 * Where the texts of a run's compilations are read from when its lines hold them by reference
 * (by-reference.ts): the corpus in hand, for the study and `validate`; for a run folder read
 * later (`report`, `merge`, `compare`, `findings`), the corpus its manifest names, read the first
 * time a line asks for it and held to the manifest's digest. A run whose lines hold their texts
 * never reads a corpus.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject } from '../../compiler/index.js';
import { isThere, linesOf, loadCorpus, toPolicy } from '../corpus/index.js';
import { InputError } from '../errors.js';
import type { Corpus } from '../types.js';
import { type RunTexts, readBack } from './by-reference.js';
import { corpusDigest } from './digest.js';
import { RUN_FILE } from './files.js';
import type { RunManifest } from './manifest.js';

const inHand = new WeakMap<Corpus, RunTexts>();

/** The texts of a corpus in hand, under the policy it runs with (its digest taken once). */
export function corpusTexts(corpus: Corpus): RunTexts {
  let texts = inHand.get(corpus);
  if (texts === undefined) {
    // A case's candidates are asked for when needed: a large corpus holds a few at a time.
    const byName = new Map(corpus.cases.map((c) => [c.name, c]));
    texts = {
      digest: corpusDigest(corpus.dir),
      frame: corpus.policy.frame,
      candidates: (kase) => byName.get(kase)?.candidates,
    };
    inHand.set(corpus, texts);
  }
  return texts;
}

/**
 * The texts of a run folder's corpus, read when first asked for: the manifest's folder (or
 * `corpusDir`), which must still be what the run read. Null for a folder without a manifest.
 */
export function folderTexts(
  dir: string,
  manifest: RunManifest | null,
  corpusDir?: string | undefined,
): RunTexts | null {
  if (manifest === null) return null;
  const file = path.join(dir, RUN_FILE.manifest);
  let byName: Map<string, Corpus['cases'][number]> | undefined;
  const load = () => {
    const from = path.resolve(corpusDir ?? manifest.corpus.dir);
    const why = 'its compilations hold their texts by reference to the corpus';
    if (!fs.existsSync(from)) throw new InputError(file, `corpus.dir ${from} is gone: ${why}`);
    if (!fs.statSync(from).isDirectory())
      throw new InputError(file, `corpus.dir ${from} is not a folder: ${why}`);
    if (corpusDigest(from, { file, field: 'corpus.dir', why }) !== manifest.corpus.digest)
      throw new InputError(
        file,
        `corpus.digest: corpus.dir ${from} is not the corpus the run read (changed since, or another): ${why}`,
      );
    return new Map(loadCorpus(from).cases.map((c) => [c.name, c]));
  };
  return {
    digest: manifest.corpus.digest,
    frame: toPolicy(file, manifest.policy).frame,
    candidates: (kase) => {
      byName ??= load();
      return byName.get(kase)?.candidates;
    },
  };
}

/**
 * The lines of a compilations.jsonl as the study compiled them, for the readers that show them:
 * a line by reference read back against `texts` (parsed), any other as it is (its text), so that
 * each reader says of an unreadable line what it always has. A line by reference that cannot be
 * read back stops the read (exit 2), naming the file, the line and why.
 */
export function* compiledLines(
  file: string,
  texts: RunTexts | null,
): Generator<string | Record<string, unknown>> {
  if (!isThere(file)) return;
  let k = 0;
  for (const text of linesOf(file)) {
    k++;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      line = null;
    }
    yield isPlainObject(line) && line.by_reference !== undefined
      ? (readBack(file, k, line, texts) as Record<string, unknown>)
      : text;
  }
}
