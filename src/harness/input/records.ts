/**
 * The records a command reads, located: a malformed record stops with the file, the record and
 * the field named (docs/compiler.md §2 gives the rules the readers apply).
 */
import {
  type CompilerPolicy,
  type ContextCandidate,
  type ContextRequest,
  candidateToJSON,
  RecordError,
  readCandidate,
  readPolicy,
  readRequest,
} from '../../compiler/index.js';
import type { Annotations } from '../types.js';
import { InputError, recordName } from './errors.js';
import { readJsonFile } from './files.js';

/** Run a record reader; a RecordError becomes an InputError that names file and record. */
export function locate<T>(file: string, record: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof RecordError) throw new InputError(file, e.message, record);
    throw e;
  }
}

export const toRequest = (file: string, raw: unknown): ContextRequest =>
  locate(file, 'request', () => readRequest(raw));

export const toPolicy = (file: string, raw: unknown): CompilerPolicy =>
  locate(file, 'policy', () => readPolicy(raw));

export interface CandidateRules {
  /**
   * Corpus files only: integer token counts, relevance in [0, 1], and no evaluator keys, so a
   * ledger label can never ride along inside a candidate and reach a strategy.
   */
  readonly corpus?: boolean | undefined;
}

const EVALUATOR_KEY = (k: string) => k === 'eval_class' || k.startsWith('oracle_');

/** The record keys the compiler reads; any other key of a candidate is an annotation. */
const CANDIDATE_KEYS = new Set(
  Object.keys(
    candidateToJSON(
      readCandidate({
        candidate_id: '',
        content_identity: '',
        representation_id: '',
        form_rank: 0,
        min_rank: 0,
        source_kind: '',
        source_ref: '',
        kind: '',
        content: '',
        token_count: 0,
        requirement: 'DISCRETIONARY',
        order_role: '',
        scope_eligible: true,
        freshness_eligible: true,
        authority_eligible: true,
      }),
    ),
  ),
);

export interface LoadedCandidates {
  readonly candidates: ContextCandidate[];
  readonly annotations: Annotations;
}

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/** Candidates as `{"candidates": [...]}` or a bare list; each record read leniently. */
export function toCandidates(file: string, raw: unknown, rules: CandidateRules = {}): LoadedCandidates {
  const list = Array.isArray(raw)
    ? raw
    : typeof raw === 'object' && raw !== null && 'candidates' in raw
      ? raw.candidates
      : null;
  if (!Array.isArray(list)) throw new InputError(file, 'need {"candidates": [...]} or a list of candidates');
  const annotations = new Map<string, Record<string, unknown>>();
  let plainKeys: readonly string[] = [];
  const candidates = list.map((entry, k) => {
    const where = recordName('candidates', k, entry);
    const c = locate(file, where, () => readCandidate(entry));
    if (rules.corpus) {
      const leak = Object.keys(entry as object).filter(EVALUATOR_KEY);
      if (leak.length > 0) throw new InputError(file, `evaluator keys ${leak.sort().join(',')}`, where);
      if (!Number.isInteger(c.token_count) || c.token_count < 0) {
        throw new InputError(file, 'invalid token_count (need an integer >= 0)', where);
      }
      if (!(c.relevance >= 0 && c.relevance <= 1))
        throw new InputError(file, 'relevance out of range [0, 1]', where);
    }
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

export const loadRequest = (file: string): ContextRequest => toRequest(file, readJsonFile(file));
export const loadPolicy = (file: string): CompilerPolicy => toPolicy(file, readJsonFile(file));
export const loadCandidates = (file: string, rules: CandidateRules = {}): LoadedCandidates =>
  toCandidates(file, readJsonFile(file), rules);
