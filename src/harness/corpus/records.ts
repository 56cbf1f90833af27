/**
 * The records a command reads, located: a malformed record stops with the file, the record and
 * the field named, and how many more problems the file has (docs/compiler.md §2 gives the rules
 * the compiler's readers apply, docs/formats.md the harness's on top).
 */
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  RecordError,
  readCandidate,
  readPolicy,
  readRequest,
} from '../../compiler/index.js';
// Registers the real tokenizers: a policy read here may name one and be compiled under at once.
import './real-tokens.js';
import path from 'node:path';
import { InputError, recordName } from '../errors.js';
import type { Annotations } from '../types.js';
import { BlobStore, namesBlobs, resolveBlobs } from './blobs.js';
import { readJsonFile } from './input-files.js';
import { Findings, type Lint, settle } from './lint.js';
import {
  CANDIDATE_KEYS,
  candidateList,
  type CandidateRules as LintRules,
  lintCandidates,
  sameKeys,
} from './lint-records.js';
import { lintPolicy, lintRequest } from './lint-request-policy.js';

/** Run a record reader; a RecordError becomes an InputError that names file and record. */
export function locate<T>(file: string, record: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof RecordError) throw new InputError(file, e.message, record);
    throw e;
  }
}

/** The request record: every problem found first, the first one stopping (`lint.ts`). */
export function toRequest(file: string, raw: unknown, lint?: Lint): ContextRequest {
  const findings = new Findings(file);
  lintRequest(raw, { out: findings, record: 'request' });
  settle(findings, lint);
  return locate(file, 'request', () => readRequest(raw));
}

export function toPolicy(file: string, raw: unknown, lint?: Lint): CompilerPolicy {
  const findings = new Findings(file);
  lintPolicy(raw, { out: findings, record: 'policy' });
  settle(findings, lint);
  return locate(file, 'policy', () => readPolicy(raw));
}

export interface CandidateRules extends LintRules {
  /** How warnings are treated; by default they go nowhere. */
  readonly lint?: Lint | undefined;
  /** The blobs of the file's folder, shared by the cases of a corpus (blobs.ts); opened when absent. */
  readonly blobs?: BlobStore | undefined;
}

/**
 * A candidates file's document with its blobs resolved (blobs.ts): the first record whose blob is
 * missing or corrupt stops, named with its blob.
 */
export function withBlobs(file: string, raw: unknown, store?: BlobStore): unknown {
  if (!namesBlobs(raw)) return raw;
  const resolved = resolveBlobs(raw, store ?? new BlobStore(path.dirname(file)));
  const first = resolved.problems[0];
  if (first !== undefined) throw new InputError(file, first.message, first.record);
  return resolved.raw;
}

export interface LoadedCandidates {
  readonly candidates: ContextCandidate[];
  readonly annotations: Annotations;
}

/**
 * Candidates as `{"candidates": [...]}` or a bare list. Every problem of every record is found
 * before the first stops (`lint-records.ts`); each record is then read by the compiler's reader,
 * which applies the defaults.
 */
export function toCandidates(file: string, raw: unknown, rules: CandidateRules = {}): LoadedCandidates {
  const findings = new Findings(file);
  lintCandidates(raw, findings, rules);
  settle(findings, rules.lint);
  const list = candidateList(raw) as unknown[];
  const annotations = new Map<string, Record<string, unknown>>();
  let plainKeys: readonly string[] = [];
  const candidates = list.map((entry, k) => {
    const c = locate(file, recordName('candidates', k, entry), () => readCandidate(entry));
    const keys = Object.keys(entry as object);
    // Records of one file nearly always share their keys: check a new key list only once.
    if (!sameKeys(keys, plainKeys)) {
      const extra = keys.filter((key) => !CANDIDATE_KEYS.has(key));
      if (extra.length === 0) plainKeys = keys;
      else
        annotations.set(
          c.candidate_id,
          Object.fromEntries(extra.map((k) => [k, (entry as Record<string, unknown>)[k]])),
        );
    }
    return c;
  });
  return { candidates, annotations };
}

export const loadRequest = (file: string, lint?: Lint): ContextRequest =>
  toRequest(file, readJsonFile(file), lint);
export const loadPolicy = (file: string, lint?: Lint): CompilerPolicy =>
  toPolicy(file, readJsonFile(file), lint);
export const loadCandidates = (file: string, rules: CandidateRules = {}): LoadedCandidates =>
  toCandidates(file, withBlobs(file, readJsonFile(file), rules.blobs), rules);
