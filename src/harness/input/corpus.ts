/**
 * A corpus folder: cases, their budget manifest and one policy, every input checked before
 * anything runs. Truth files are never read here: the ledger is loaded only by the scorer and
 * the oracle (`ledger.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  type ContextCandidate,
  type ContextRequest,
  type FailureReason,
  isPlainObject,
} from '../../compiler/index.js';
import type { BudgetName, Corpus, CorpusCase, Expectation } from '../types.js';
import { BUDGETS } from '../vocabulary.js';
import { checkInputs } from './checks.js';
import { InputError } from './errors.js';
import { readJsonFile } from './files.js';
import { Findings, type Lint, settle } from './lint.js';
import { lintManifest } from './lint-files.js';
import { loadCandidates, loadPolicy, loadRequest } from './records.js';

export const CANDIDATES_SUFFIX = '.candidates.json';
export const REQUEST_SUFFIX = '.request.json';

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
    .filter((f) => f.endsWith('.json') && f.includes('policy') && !casesFile(f) && f !== 'manifest.json');
  if (found.length !== 1) {
    throw new InputError(dir, `need exactly one policy file (*policy*.json), found ${found.length}`);
  }
  return path.join(dir, found[0] as string);
}

function readManifest(file: string, cases: readonly string[], lint: Lint | undefined) {
  if (!fs.existsSync(file)) throw new InputError(file, 'no budget manifest');
  const raw = readJsonFile(file);
  // Every problem first (a case without its expected outcomes among them); the checks below
  // are what remains of the reader's own, for the shapes the lint lets through.
  const findings = new Findings(file);
  lintManifest(raw, findings, cases);
  settle(findings, lint);
  if (!isPlainObject(raw) || !isPlainObject(raw.budgets))
    throw new InputError(file, 'need an object with "budgets"');
  if (raw.expected !== undefined && !isPlainObject(raw.expected))
    throw new InputError(file, 'invalid expected');
  // Maps, not objects: a case may be called `__proto__`.
  const budgets = new Map(Object.entries(raw.budgets));
  const expected = new Map(Object.entries(raw.expected ?? {}));
  for (const name of budgets.keys()) {
    if (!cases.includes(name)) throw new InputError(file, `budgets name an unknown case`, name);
  }
  for (const name of cases) {
    if (!isPlainObject(budgets.get(name))) throw new InputError(file, 'no budgets for this case', name);
  }
  const out = new Map<string, Pick<CorpusCase, 'budgets' | 'expected'>>();
  for (const name of cases) {
    const b: Partial<Record<BudgetName, number>> = {};
    const e: Partial<Record<BudgetName, Expectation>> = {};
    for (const level of BUDGETS) {
      const n = (budgets.get(name) as Record<string, unknown>)[level];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
        throw new InputError(file, `invalid budgets.${level}`, name);
      }
      b[level] = n;
      const mine = expected.get(name);
      const x = (isPlainObject(mine) && Object.hasOwn(mine, level) ? mine[level] : undefined) as
        | { success?: unknown; reason?: unknown }
        | undefined;
      e[level] = {
        success: x?.success === undefined ? true : Boolean(x.success),
        reason: typeof x?.reason === 'string' ? (x.reason as FailureReason) : null,
      };
    }
    out.set(name, {
      budgets: b as Record<BudgetName, number>,
      expected: e as Record<BudgetName, Expectation>,
    });
  }
  return out;
}

/**
 * Every strategy gets the same candidate objects: frozen, so a plug-in that writes to its input
 * throws (and becomes an error row) instead of changing what the strategies after it see.
 */
function deepFreeze(candidates: ContextCandidate[]): readonly ContextCandidate[] {
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
  const manifest = readManifest(path.join(dir, 'manifest.json'), names, lint);
  const policyFile = policyOverride ?? policyFileOf(dir);
  const policy = loadPolicy(policyFile, lint);
  const cases = names.map((name): CorpusCase => {
    const requestFile = path.join(dir, `${name}${REQUEST_SUFFIX}`);
    const candidatesFile = path.join(dir, `${name}${CANDIDATES_SUFFIX}`);
    if (!fs.existsSync(requestFile)) throw new InputError(requestFile, `case ${name} has no request file`);
    const base = loadRequest(requestFile, lint);
    // A replacement policy is a policy comparison: the requests follow its version.
    const request = policyOverride ? { ...base, policy_version: policy.policy_version } : base;
    const loaded = loadCandidates(candidatesFile, { corpus: true, lint });
    const files = { request: requestFile, candidates: candidatesFile, policy: policyFile };
    checkInputs(request, loaded.candidates, policy, files, lint);
    return {
      name,
      request,
      candidates: deepFreeze(loaded.candidates),
      annotations: loaded.annotations,
      ...(manifest.get(name) as Pick<CorpusCase, 'budgets' | 'expected'>),
    };
  });
  return { dir, name: path.basename(path.resolve(dir)), policy, policyFile, cases };
}

/**
 * What each case is for: the manifest's optional `purpose` (case name to a sentence), which
 * `ctxbench findings` quotes. A purpose that is not a string is an error, not a blank.
 */
export function casePurposes(dir: string): Map<string, string> {
  const file = path.join(dir, 'manifest.json');
  const raw = readJsonFile(file) as { purpose?: unknown } | null;
  const purposes = new Map<string, string>();
  if (raw?.purpose === undefined) return purposes;
  if (!isPlainObject(raw.purpose))
    throw new InputError(file, 'invalid purpose: need an object of case names to text');
  for (const [name, text] of Object.entries(raw.purpose)) {
    if (typeof text !== 'string') throw new InputError(file, 'invalid purpose: need text', name);
    purposes.set(name, text);
  }
  return purposes;
}
