/**
 * The hidden ledger: per case, the class of every content identity (must, should, optional,
 * distractor, harmful) and its minimum sufficient form. Only the scorer and ledger-reading
 * strategies (the oracle) ever see it; no strategy module imports this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import type { CaseLedger, Corpus, EvalClass, IdentityTruth } from '../types.js';
import { EVAL_CLASSES } from '../vocabulary.js';
import { caseIdentities } from './held-cases.js';
import { readJsonFile } from './input-files.js';
import { Findings, type Lint, settle } from './lint.js';
import { ledgerDirOf, lintLedger, TRUTH_SUFFIX } from './lint-corpus.js';
import { lintTruth } from './lint-files.js';

/** `DIR/ledger/` when the corpus carries one, else `ledger/<corpus name>/` of this package. */
export const ledgerDirFor = (corpus: Corpus): string => ledgerDirOf(corpus.dir);

/** A truth file; with `lint`, every problem of it found first, the first one stopping. */
export function readTruth(file: string, identities: ReadonlySet<string>, lint?: Lint): CaseLedger {
  return truthFrom(file, readJsonFile(file), identities, lint);
}

/**
 * A truth document already parsed (a batch line's `ledger`, say); with `lint`, every problem
 * found first, the first one stopping, and `where` naming its record.
 */
export function truthFrom(
  file: string,
  doc: unknown,
  identities: ReadonlySet<string>,
  lint?: Lint,
  where?: string,
): CaseLedger {
  if (lint !== undefined) {
    const findings = new Findings(file);
    lintTruth(doc, findings, identities, where);
    settle(findings, lint);
  }
  const raw = doc as { expected?: unknown; identity_truth?: unknown };
  const table = raw?.identity_truth;
  if (typeof table !== 'object' || table === null) throw new InputError(file, 'invalid identity_truth');
  // No prototype: a content identity may be called `__proto__`.
  const truth: Record<string, IdentityTruth> = Object.create(null);
  for (const [identity, t] of Object.entries(table as Record<string, Record<string, unknown>>)) {
    if (!identities.has(identity))
      throw new InputError(file, 'no candidate has this content identity', identity);
    if (!(EVAL_CLASSES as readonly unknown[]).includes(t?.eval_class))
      throw new InputError(file, 'invalid eval_class', identity);
    if (typeof t?.min_representation !== 'string')
      throw new InputError(file, 'invalid min_representation', identity);
    truth[identity] = { eval_class: t.eval_class as EvalClass, min_representation: t.min_representation };
  }
  const e = (raw.expected ?? {}) as { success?: unknown; reason?: unknown };
  const absent = (raw as { must_not_in_pool?: unknown }).must_not_in_pool;
  return {
    expected: {
      success: e.success !== false,
      reason: typeof e.reason === 'string' ? (e.reason as never) : null,
    },
    identity_truth: truth,
    ...(typeof absent === 'object' && absent !== null
      ? { must_not_in_pool: Object.assign(Object.create(null), absent) as Record<string, string> }
      : {}),
  };
}

/**
 * Every case's truth file; one for an unknown case, or an unknown identity, stops the run. With
 * `lint`, the whole ledger is checked first (`lintLedger`) and each file read from what it parsed.
 */
export function loadLedger(dir: string, corpus: Corpus, lint?: Lint): ReadonlyMap<string, CaseLedger> {
  let docs: Map<string, unknown> | undefined;
  if (lint !== undefined) {
    docs = new Map();
    const identities = new Map(corpus.cases.map((c) => [c.name, caseIdentities(c)]));
    for (const findings of lintLedger(dir, identities, docs)) settle(findings, lint);
  }
  if (!fs.existsSync(dir)) throw new InputError(dir, 'ledger folder not found');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(TRUTH_SUFFIX));
  const cases = new Map(corpus.cases.map((c) => [c.name, c]));
  for (const f of files) {
    const name = f.slice(0, -TRUTH_SUFFIX.length);
    if (!cases.has(name))
      throw new InputError(path.join(dir, f), 'truth file for a case the corpus does not have');
  }
  const out = new Map<string, CaseLedger>();
  for (const c of corpus.cases) {
    const file = path.join(dir, `${c.name}${TRUTH_SUFFIX}`);
    if (!fs.existsSync(file)) throw new InputError(file, `case ${c.name} has no truth file`);
    const doc = docs === undefined ? readJsonFile(file) : docs.get(c.name);
    out.set(c.name, truthFrom(file, doc, caseIdentities(c)));
  }
  return out;
}

/** The class of an identity; an identity the ledger does not list counts as optional. */
export const classOf = (ledger: CaseLedger, identity: string): EvalClass =>
  ledger.identity_truth[identity]?.eval_class ?? 'optional';

export const identitiesOfClass = (ledger: CaseLedger, wanted: EvalClass): string[] =>
  Object.entries(ledger.identity_truth)
    .filter(([, t]) => t.eval_class === wanted)
    .map(([identity]) => identity)
    .sort();

/**
 * The case's must contents: the ledger's, then those no form of which the pool holds (a file the
 * fix creates, in `must_not_in_pool`), which no bundle can hold and every metric counts as missed.
 */
export const mustContents = (ledger: CaseLedger): string[] => [
  ...identitiesOfClass(ledger, 'must'),
  ...Object.keys(ledger.must_not_in_pool ?? {}).sort(),
];
