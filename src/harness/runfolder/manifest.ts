/**
 * A run folder's manifest.json: what the run was made from (the corpus and the ledger with their
 * digests, the policy, the strategies and what each said of itself, the shard, the limits the
 * strategies ran under) and with what (the version, the command, when). Written here, and read
 * back here as one type, so that no reader guesses at its fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type CompilerPolicy, isPlainObject, policyToJSON } from '../../compiler/index.js';
import { CORPUS_MANIFEST, isThere, MAX_TEXT_BYTES, readJsonFile } from '../corpus/index.js';
import { InputError } from '../errors.js';
import { count } from '../format.js';
import type { Corpus, ShardInfo, StrategyInfo } from '../types.js';
import { corpusDigest } from './digest.js';
import { RUN_FILE } from './files.js';

/** manifest.json as a run writes it; the optional fields are written only when they apply. */
export interface RunManifest {
  readonly ctxbench: string;
  readonly node: string;
  readonly created_at: string;
  readonly command: readonly string[];
  readonly corpus: {
    readonly name: string;
    readonly dir: string;
    readonly digest: string;
    readonly cases: number;
    /** Written (as true) only for a corpus ingested from a repository. */
    readonly ingested?: true;
  };
  /** The ledger's folder and digest; absent from runs made without naming it (library calls). */
  readonly ledger?: { readonly dir: string; readonly digest: string };
  /** The policy as policyToJSON writes it. */
  readonly policy: unknown;
  readonly strategies: readonly { readonly name: string; readonly readsLedger: boolean }[];
  readonly rows: number;
  readonly shard?: ShardInfo;
  /** `--timeout` and `--memory` of a run whose strategies ran in processes (memory when given). */
  readonly timeout?: number;
  readonly memory?: number;
  /** The shard folders a merged run was joined from (merge.ts). */
  readonly merged_from?: readonly string[];
}

export interface ManifestFacts {
  readonly version: string;
  readonly command: readonly string[];
  readonly corpus: Corpus;
  readonly policy: CompilerPolicy;
  readonly strategies: readonly StrategyInfo[];
  readonly shard?: ShardInfo | undefined;
  /** The ledger's folder, named with its digest so that `validate` can re-derive every metric. */
  readonly ledgerDir?: string | undefined;
  /** The limits of strategies run in processes; absent for strategies run in the calling thread. */
  readonly timeout?: number | undefined;
  readonly memory?: number | undefined;
}

/** When and under which Node a manifest was written: what no other field derives. */
export interface Made {
  readonly node: string;
  readonly created_at: string;
}

/** The one file allowed to differ between reruns: it records when and with what. */
export const manifestOf = (
  m: ManifestFacts,
  rows: number,
  made: Made = { node: process.version, created_at: new Date().toISOString() },
): RunManifest => ({
  ctxbench: m.version,
  node: made.node,
  created_at: made.created_at,
  command: [...m.command],
  corpus: {
    name: m.corpus.name,
    dir: m.corpus.dir,
    digest: corpusDigest(m.corpus.dir),
    cases: m.corpus.cases.length,
    ...(m.corpus.ingested ? { ingested: true as const } : {}),
  },
  ...(m.ledgerDir === undefined
    ? {}
    : { ledger: { dir: path.resolve(m.ledgerDir), digest: corpusDigest(m.ledgerDir) } }),
  policy: policyToJSON(m.policy),
  strategies: m.strategies.map((s) => ({ name: s.name, readsLedger: s.readsLedger === true })),
  rows,
  ...(m.shard ? { shard: m.shard } : {}),
  ...(m.timeout === undefined ? {} : { timeout: m.timeout }),
  ...(m.memory === undefined ? {} : { memory: m.memory }),
});

const isString = (x: unknown): x is string => typeof x === 'string';
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every(isString);

/** The first field of a manifest that is not of its kind, or null. */
function manifestProblem(m: Record<string, unknown>): string | null {
  for (const key of ['ctxbench', 'node', 'created_at'] as const) if (!isString(m[key])) return key;
  if (!isStrings(m.command)) return 'command';
  const c = m.corpus;
  if (!isPlainObject(c)) return 'corpus';
  for (const key of ['name', 'dir', 'digest'] as const) if (!isString(c[key])) return `corpus.${key}`;
  if (!isCount(c.cases)) return 'corpus.cases';
  if (c.ingested !== undefined && c.ingested !== true) return 'corpus.ingested';
  if (
    m.ledger !== undefined &&
    !(isPlainObject(m.ledger) && isString(m.ledger.dir) && isString(m.ledger.digest))
  )
    return 'ledger';
  if (!Array.isArray(m.strategies)) return 'strategies';
  for (const [k, s] of m.strategies.entries())
    if (!isPlainObject(s) || !isString(s.name) || typeof s.readsLedger !== 'boolean')
      return `strategies[${k}]`;
  if (!isCount(m.rows)) return 'rows';
  const s = m.shard;
  if (
    s !== undefined &&
    !(isPlainObject(s) && ['index', 'count', 'from', 'to', 'total'].every((k) => isCount(s[k])))
  )
    return 'shard';
  for (const key of ['timeout', 'memory'] as const)
    if (m[key] !== undefined && !(typeof m[key] === 'number' && m[key] > 0)) return key;
  if (m.merged_from !== undefined && !isStrings(m.merged_from)) return 'merged_from';
  return null;
}

/** A run folder's manifest.json, read as one; a file that is not one stops with its field named (exit 2). */
export function readRunManifest(file: string): RunManifest {
  const m = readJsonFile(file);
  if (!isPlainObject(m)) throw new InputError(file, "not a run folder's manifest (not an object)");
  const bad = manifestProblem(m);
  if (bad !== null)
    throw new InputError(file, `invalid ${bad}: not a run folder's manifest as a run writes it`);
  return m as unknown as RunManifest;
}

/** A run folder's manifest, or null when it has none. */
export const manifestIn = (dir: string): RunManifest | null => {
  const file = path.join(dir, RUN_FILE.manifest);
  return isThere(file) ? readRunManifest(file) : null;
};

/**
 * Whether `file` is a regular file (through a link) no larger than an input may be: a manifest's
 * corpus.dir is anyone's, and its budget manifest a FIFO or a link to /dev/zero would block or
 * never end a read made for a label.
 */
function isRegular(file: string): boolean {
  try {
    const s = fs.statSync(file);
    return s.isFile() && s.size <= MAX_TEXT_BYTES;
  } catch {
    return false;
  }
}

/** What `generate` records of how it made a corpus, as far as a label needs it. */
interface Generated {
  readonly candidates?: unknown;
  readonly profile?: unknown;
  readonly tight?: unknown;
}

/**
 * What a run of a generated corpus was made from, for a survey's headings: `200 candidates`
 * (with the profile when not the default); otherwise the corpus's name.
 */
export function runLabel(dir: string): string {
  const m = manifestIn(dir);
  const corpusManifest = m === null ? null : path.join(m.corpus.dir, CORPUS_MANIFEST);
  if (corpusManifest !== null && isRegular(corpusManifest)) {
    const read = readJsonFile(corpusManifest);
    const g: Generated | null = isPlainObject(read) && isPlainObject(read.generator) ? read.generator : null;
    if (typeof g?.candidates === 'number') {
      const profile = typeof g.profile === 'string' && g.profile !== 'mixed' ? ` (${g.profile})` : '';
      const tight = g.tight === 'at-least-cost' ? ', tight at the least legal cost' : '';
      return `${count(g.candidates, 'candidate')}${profile}${tight}`;
    }
  }
  return m?.corpus.name ?? path.basename(path.resolve(dir));
}
