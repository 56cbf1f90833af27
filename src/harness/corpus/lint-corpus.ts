/**
 * `ctxbench check`'s walk: every file of a corpus folder (cases, policy, manifest, the ledger
 * beside it), or one file of any kind, checked whole. Unlike a command, which stops at the first
 * problem, the walk never stops: a file that cannot be read or parsed is one problem among the
 * others, and the files that depend on it are checked as far as they can be without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  checkCompilerInputs,
  RecordError,
  readCandidate,
  readPolicy,
  readRequest,
} from '../../compiler/index.js';
import { InputError } from '../errors.js';
import { fromRoot } from '../paths.js';
import { BlobStore, namesBlobs, resolveBlobs } from './blobs.js';
import { located, orderRoles } from './compiler-checks.js';
import { CANDIDATES_SUFFIX, CORPUS_MANIFEST, caseNames, policyFileOf, REQUEST_SUFFIX } from './folder.js';
import { readJsonFile } from './input-files.js';
import { Findings } from './lint.js';
import { lintManifest, lintTruth } from './lint-files.js';
import { type CandidateRules, candidateList, lintCandidates } from './lint-records.js';
import { lintPolicy, lintRequest } from './lint-request-policy.js';

export const TRUTH_SUFFIX = '.truth.json';

/** The content identities of a pool. */
export const identitiesOf = (
  candidates: readonly Pick<ContextCandidate, 'content_identity'>[],
): Set<string> => new Set(candidates.map((c) => c.content_identity));

/** What a walk found: the findings of every file it read, in the order it read them. */
export interface Walk {
  readonly files: Findings[];
  /** The cases of a corpus folder; undefined for one file. */
  readonly cases: number | undefined;
}

/** A file's JSON, or a problem of that file and undefined. */
export function readDoc(file: string, out: Findings): unknown {
  try {
    return readJsonFile(file);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    out.error(e.record, undefined, e.message);
    return undefined;
  }
}

/** A file's JSON as `walkFile` already parsed it, else read by `readDoc`. */
export interface Parsed {
  readonly raw: unknown;
}
const docOf = (file: string, out: Findings, parsed: Parsed | undefined): unknown =>
  parsed === undefined ? readDoc(file, out) : parsed.raw;

/** A reader run where the lint found nothing: it should not throw, but if it does, say so. */
function reading<T>(out: Findings, record: string | undefined, read: () => T): T | undefined {
  if (out.errors > 0) return undefined;
  try {
    return read();
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    out.error(record, undefined, e.message);
    return undefined;
  }
}

export function lintRequestFile(
  file: string,
  parsed?: Parsed,
): { findings: Findings; request: ContextRequest | undefined } {
  const findings = new Findings(file);
  const raw = docOf(file, findings, parsed);
  if (raw !== undefined) lintRequest(raw, { out: findings, record: 'request' });
  return { findings, request: reading(findings, 'request', () => readRequest(raw)) };
}

export function lintPolicyFile(
  file: string,
  parsed?: Parsed,
): { findings: Findings; policy: CompilerPolicy | undefined } {
  const findings = new Findings(file);
  const raw = docOf(file, findings, parsed);
  if (raw !== undefined) lintPolicy(raw, { out: findings, record: 'policy' });
  return { findings, policy: reading(findings, 'policy', () => readPolicy(raw)) };
}

/**
 * A pool's records, checked. `blobs`: where its `content_sha256` records are resolved (a file's
 * own folder's store); records given in memory (a batch line, an MCP call) name no blob.
 */
export function lintCandidatesFile(
  file: string,
  rules: CandidateRules,
  parsed?: Parsed,
  blobs?: BlobStore,
): { findings: Findings; records: readonly unknown[]; candidates: ContextCandidate[] | undefined } {
  const findings = new Findings(file);
  let raw = docOf(file, findings, parsed);
  if (blobs !== undefined && namesBlobs(raw)) {
    const resolved = resolveBlobs(raw, blobs);
    for (const p of resolved.problems) findings.error(p.record, p.field, p.message);
    raw = resolved.raw;
  }
  if (raw !== undefined) lintCandidates(raw, findings, rules);
  const list = candidateList(raw);
  const records: readonly unknown[] = Array.isArray(list) ? list : [];
  return {
    findings,
    records,
    candidates: reading(findings, undefined, () => records.map((c) => readCandidate(c))),
  };
}

/**
 * What only the three inputs together show: the compiler's own checks across them (a policy
 * version the request does not ask for, docs/compiler.md §4).
 */
export function acrossFiles(
  request: ContextRequest,
  candidates: readonly ContextCandidate[],
  policy: CompilerPolicy,
  files: { request: string; candidates: string; policy: string },
): Findings {
  try {
    located(files, () => checkCompilerInputs(request, candidates, policy));
    return new Findings(files.candidates);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const f = new Findings(e.file);
    f.error(e.record, undefined, e.message);
    return f;
  }
}

/** The ledger a corpus folder is scored against: its own `ledger/`, else the package's. */
export function ledgerDirOf(dir: string): string {
  const inside = path.join(dir, 'ledger');
  return fs.existsSync(inside) ? inside : fromRoot('ledger', path.basename(path.resolve(dir)));
}

/**
 * Every truth file of a ledger folder against the corpus's cases: one per case, none for a
 * case the corpus lacks, every identity one of the case's (when its candidates could be read).
 * `docs`, when given, collects each case's parsed document.
 */
export function lintLedger(
  dir: string,
  identities: ReadonlyMap<string, ReadonlySet<string> | undefined>,
  docs?: Map<string, unknown>,
): Findings[] {
  const top = new Findings(dir);
  if (!fs.existsSync(dir)) {
    top.error(undefined, undefined, 'ledger folder not found');
    return [top];
  }
  const found = [top];
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(TRUTH_SUFFIX));
  for (const f of files.sort()) {
    const file = path.join(dir, f);
    const name = f.slice(0, -TRUTH_SUFFIX.length);
    const findings = new Findings(file);
    found.push(findings);
    if (!identities.has(name)) {
      findings.error(undefined, undefined, 'truth file for a case the corpus does not have');
      continue;
    }
    const raw = readDoc(file, findings);
    if (raw !== undefined) lintTruth(raw, findings, identities.get(name));
    docs?.set(name, raw);
  }
  for (const name of identities.keys())
    if (!files.includes(`${name}${TRUTH_SUFFIX}`)) {
      const file = path.join(dir, `${name}${TRUTH_SUFFIX}`);
      const findings = new Findings(file);
      findings.error(undefined, undefined, `case ${name} has no truth file`);
      found.push(findings);
    }
  return found;
}

/** A corpus folder, every file of it; `policyFile` replaces the corpus's own, as `study --policy` does. */
export function walkCorpus(dir: string, policyFile?: string): Walk {
  const top = new Findings(dir);
  const files = [top];
  const names = caseNames(dir);
  if (names.length === 0) top.error(undefined, undefined, `no *${CANDIDATES_SUFFIX} files`);
  const manifest = new Findings(path.join(dir, CORPUS_MANIFEST));
  files.push(manifest);
  if (!fs.existsSync(manifest.file)) manifest.error(undefined, undefined, 'no budget manifest');
  else {
    const raw = readDoc(manifest.file, manifest);
    if (raw !== undefined) lintManifest(raw, manifest, names);
  }
  let policy: CompilerPolicy | undefined;
  let policyPath: string | undefined;
  try {
    policyPath = policyFile ?? policyFileOf(dir);
    const p = lintPolicyFile(policyPath);
    files.push(p.findings);
    policy = p.policy;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    top.error(undefined, undefined, e.message);
  }
  const identities = new Map<string, ReadonlySet<string> | undefined>();
  const blobs = new BlobStore(dir);
  for (const name of names) {
    const requestFile = path.join(dir, `${name}${REQUEST_SUFFIX}`);
    const candidatesFile = path.join(dir, `${name}${CANDIDATES_SUFFIX}`);
    let request: ContextRequest | undefined;
    if (!fs.existsSync(requestFile)) {
      const missing = new Findings(requestFile);
      missing.error(undefined, undefined, `case ${name} has no request file`);
      files.push(missing);
    } else {
      const r = lintRequestFile(requestFile);
      files.push(r.findings);
      request = r.request;
    }
    const c = lintCandidatesFile(candidatesFile, { corpus: true }, undefined, blobs);
    files.push(c.findings);
    identities.set(name, c.candidates && identitiesOf(c.candidates));
    if (policy) files.push(orderRoles(c.records, policy, candidatesFile));
    if (request && c.candidates && policy && policyPath) {
      // As `study --policy` runs it: the requests follow a replacement policy's version.
      const asRun = policyFile ? { ...request, policy_version: policy.policy_version } : request;
      const where = { request: requestFile, candidates: candidatesFile, policy: policyPath };
      files.push(acrossFiles(asRun, c.candidates, policy, where));
    }
  }
  files.push(...lintLedger(ledgerDirOf(dir), identities));
  return { files, cases: names.length };
}
