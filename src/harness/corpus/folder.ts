/**
 * A corpus folder: cases, their budget manifest and one policy, every input checked before
 * anything runs. Truth files are never read here: the ledger is loaded only by the scorer and
 * the oracle (`ledger.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ContextCandidate, ContextRequest, FailureReason } from '../../compiler/index.js';
import { InputError } from '../errors.js';
import type { BudgetName, Corpus, CorpusCase, Expectation } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { BLOB_INDEX, BlobStore } from './blobs.js';
import { checkInputs } from './compiler-checks.js';
import { HeldCases } from './held-cases.js';
import { readJsonFile } from './input-files.js';
import { Findings, type Lint, settle } from './lint.js';
import { lintManifest } from './lint-files.js';
import { loadCandidates, loadPolicy, loadRequest } from './records.js';

export const CANDIDATES_SUFFIX = '.candidates.json';
export const REQUEST_SUFFIX = '.request.json';
/** A corpus's budget manifest: another file than a run folder's manifest, of the same name. */
export const CORPUS_MANIFEST = 'manifest.json';

/** The case names of a corpus folder: the stems of its candidates files, sorted. */
export const caseNames = (dir: string): string[] =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(CANDIDATES_SUFFIX))
    .map((f) => f.slice(0, -CANDIDATES_SUFFIX.length))
    .sort();

/** The request a case runs with at one budget: the id suffixed, the budget replaced. */
export function requestAt(c: CorpusCase, budget: BudgetName | number): ContextRequest {
  const tokens = typeof budget === 'number' ? budget : c.budgets[budget];
  return { ...c.request, request_id: `${c.request.request_id}-${budget}`, usable_token_budget: tokens };
}

/** The corpus's policy: the one `*policy*.json` that is not a case's file nor the manifest. */
export function policyFileOf(dir: string): string {
  const casesFile = (f: string) => f.endsWith(CANDIDATES_SUFFIX) || f.endsWith(REQUEST_SUFFIX);
  const found = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f.includes('policy') && !casesFile(f) && f !== CORPUS_MANIFEST);
  if (found.length !== 1) {
    throw new InputError(dir, `need exactly one policy file (*policy*.json), found ${found.length}`);
  }
  return path.join(dir, found[0] as string);
}

/**
 * The manifest's budgets and expected outcomes per case, and its purposes. Every problem is
 * found first and the first one stops (a case without budgets or its expected outcomes among
 * them), so what is read here has the shapes the lint asks for.
 */
function readManifest(file: string, cases: readonly string[], lint: Lint | undefined) {
  if (!fs.existsSync(file)) throw new InputError(file, 'no budget manifest');
  const raw = readJsonFile(file) as {
    budgets: Record<string, Record<BudgetName, number>>;
    expected: Record<string, Record<BudgetName, { success: boolean; reason?: unknown }>>;
    purpose?: Record<string, string>;
    ingest?: unknown;
  };
  const findings = new Findings(file);
  lintManifest(raw, findings, cases);
  settle(findings, lint);
  // Maps, not objects: a case may be called `__proto__`.
  const budgets = new Map(Object.entries(raw.budgets));
  const expected = new Map(Object.entries(raw.expected));
  const out = new Map<string, Pick<CorpusCase, 'budgets' | 'expected'>>();
  for (const name of cases) {
    const b = budgets.get(name) as Record<BudgetName, number>;
    const x = expected.get(name) as Record<BudgetName, { success: boolean; reason?: unknown }>;
    const e: Partial<Record<BudgetName, Expectation>> = {};
    const n: Partial<Record<BudgetName, number>> = {};
    for (const level of BUDGETS) {
      n[level] = b[level];
      e[level] = {
        success: x[level].success,
        reason: typeof x[level].reason === 'string' ? (x[level].reason as FailureReason) : null,
      };
    }
    out.set(name, {
      budgets: n as Record<BudgetName, number>,
      expected: e as Record<BudgetName, Expectation>,
    });
  }
  return {
    cases: out,
    purposes: new Map(Object.entries(raw.purpose ?? {})),
    ingested: raw.ingest !== undefined,
  };
}

/**
 * Every strategy gets the same candidate objects: frozen, so a plug-in that writes to its input
 * throws (and becomes an error row) instead of changing what the strategies after it see.
 */
function freezeCandidates(candidates: ContextCandidate[]): readonly ContextCandidate[] {
  for (const c of candidates) {
    Object.freeze(c.depends_on);
    Object.freeze(c.coverage_keys);
    Object.freeze(c);
  }
  return Object.freeze(candidates);
}

/**
 * A corpus folder: `<case>.candidates.json` with `<case>.request.json` for every case, a budget
 * manifest `manifest.json` (three budgets and the expected outcome per case) and one policy.
 * Truth files are never listed here: the ledger is loaded only by the scorer and the oracle.
 */
export function loadCorpus(dir: string, policyOverride?: string | undefined, lint?: Lint): Corpus {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new InputError(dir, 'corpus folder not found');
  const names = caseNames(dir);
  if (names.length === 0) throw new InputError(dir, `no *${CANDIDATES_SUFFIX} files`);
  const manifest = readManifest(path.join(dir, CORPUS_MANIFEST), names, lint);
  const policyFile = policyOverride ?? policyFileOf(dir);
  const policy = loadPolicy(policyFile, lint);
  // One store for every case: a version many cases hold is read, checked and kept once.
  const blobs = new BlobStore(dir);
  // An ingested corpus's cases are held a few at a time (held-cases.ts).
  const held = fs.existsSync(path.join(dir, BLOB_INDEX)) ? new HeldCases() : undefined;
  const cases = names.map((name): CorpusCase => {
    const requestFile = path.join(dir, `${name}${REQUEST_SUFFIX}`);
    const candidatesFile = path.join(dir, `${name}${CANDIDATES_SUFFIX}`);
    if (!fs.existsSync(requestFile)) throw new InputError(requestFile, `case ${name} has no request file`);
    const base = loadRequest(requestFile, lint);
    // A replacement policy is a policy comparison: the requests follow its version.
    const request = policyOverride ? { ...base, policy_version: policy.policy_version } : base;
    const loaded = loadCandidates(candidatesFile, { corpus: true, lint, blobs });
    const files = { request: requestFile, candidates: candidatesFile, policy: policyFile };
    checkInputs(request, loaded.candidates, policy, files, lint);
    const kase = {
      name,
      request,
      candidates: freezeCandidates(loaded.candidates),
      annotations: loaded.annotations,
      ...(manifest.cases.get(name) as Pick<CorpusCase, 'budgets' | 'expected'>),
    };
    // Read again as it was checked; its warnings were said the first time.
    const again = () => freezeCandidates(loadCandidates(candidatesFile, { corpus: true, blobs }).candidates);
    return held === undefined ? kase : held.hold(kase, again);
  });
  return {
    dir,
    name: path.basename(path.resolve(dir)),
    policy,
    policyFile,
    cases,
    purposes: manifest.purposes,
    ingested: manifest.ingested,
  };
}
