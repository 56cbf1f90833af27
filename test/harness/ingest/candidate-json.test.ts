import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextCandidate,
  candidateToJSON,
  readCandidate,
  SCHEMA,
} from '../../../src/compiler/index.js';
import { CandidateWriter } from '../../../src/harness/ingest/candidate-json.js';

const SEED = 20_261_202;

// Strings that JSON must escape or that are easy to get wrong by hand: quotes, backslashes,
// control characters, line separators, lone surrogates, astral characters.
const PIECES = [
  'a',
  '"',
  '\\',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\ud800',
  '\udc00',
  '😀',
  'é',
  '</',
];
const text = fc.oneof(
  fc.string(),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((p) => p.join('')),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 0.1 + 0.2, 1e21, 1e-7, Number.MAX_SAFE_INTEGER),
);

const candidate: fc.Arbitrary<ContextCandidate> = fc.record({
  schema_version: text,
  candidate_id: fc.constantFrom('a#full', 'a#outline', 'b#full'),
  content_identity: text,
  representation_id: text,
  form_rank: number,
  min_rank: number,
  source_kind: text,
  source_ref: text,
  kind: text,
  content: text,
  token_count: number,
  token_source: text,
  requirement: fc.constantFrom('MANDATORY', 'REQUIRED', 'PREFERRED', 'DISCRETIONARY'),
  order_role: text,
  scope_eligible: fc.boolean(),
  scope_reason: text,
  freshness_eligible: fc.boolean(),
  freshness_reason: text,
  authority_eligible: fc.boolean(),
  authority_reason: text,
  depends_on: fc.array(text, { maxLength: 3 }),
  group_id: fc.option(text, { nil: null }),
  group_required: fc.boolean(),
  coverage_keys: fc.array(text, { maxLength: 3 }),
  relevance: number,
  is_default_form: fc.boolean(),
});

/**
 * The record `candidateToJSON` writes, less each field at the value a reader gives an absent one,
 * as JSON: what the writer must write.
 */
function expected(c: ContextCandidate): string {
  const json = candidateToJSON(c) as Record<string, unknown>;
  const defaults: Record<string, unknown> = {
    schema_version: SCHEMA.candidate,
    depends_on: [],
    group_id: null,
    group_required: false,
    coverage_keys: [],
    is_default_form: false,
  };
  for (const [k, v] of Object.entries(defaults))
    if (JSON.stringify(json[k]) === JSON.stringify(v)) delete json[k];
  return JSON.stringify(json);
}

describe(`CandidateWriter (fast-check seed ${SEED})`, () => {
  it('writes candidateToJSON(c), less the fields at their defaults, for every candidate of a sequence, one writer for all', () => {
    // Few ids, so that the writer meets an id again with the same content and with another.
    fc.assert(
      fc.property(fc.array(candidate, { minLength: 1, maxLength: 8 }), (cs) => {
        const w = new CandidateWriter();
        for (const c of cs) expect(w.line(c)).toBe(expected(c));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('writes each version of a candidate that changes one field at a time, any field', () => {
    // One id throughout, so that every line but the first meets a kept opening: each step changes
    // a field (or none), and the line must follow.
    const keys = Object.keys(
      candidateToJSON(fc.sample(candidate, { seed: SEED, numRuns: 1 })[0] as ContextCandidate),
    );
    const step = fc.tuple(fc.constantFrom(...keys, 'none'), candidate);
    fc.assert(
      fc.property(candidate, fc.array(step, { maxLength: 12 }), (first, steps) => {
        const w = new CandidateWriter();
        let c: ContextCandidate = { ...first, candidate_id: 'f#full' };
        expect(w.line(c)).toBe(expected(c));
        for (const [key, other] of steps) {
          if (key !== 'none' && key !== 'candidate_id')
            c = { ...c, [key]: (other as unknown as Record<string, unknown>)[key] } as ContextCandidate;
          expect(w.line(c)).toBe(expected(c));
        }
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('serves a changed content under a known id its new text, and the old one when it returns', () => {
    const base: ContextCandidate = fc.sample(candidate, { seed: SEED, numRuns: 1 })[0] as ContextCandidate;
    const w = new CandidateWriter();
    const one = { ...base, candidate_id: 'x#full', content: 'first "text"' };
    const two = { ...one, content: 'second\ntext' };
    expect(w.line(one)).toContain('"content":"first \\"text\\""');
    expect(w.line(two)).toContain('"content":"second\\ntext"');
    expect(w.line(one)).toContain('"content":"first \\"text\\""');
    // Equal text built anew (not the same string object) is the same content.
    expect(w.line({ ...one, content: ['first ', '"text"'].join('') })).toBe(expected(one));
  });

  it('leaves out only what a reader fills back: a candidate read from its line is the candidate', () => {
    const plain: ContextCandidate = {
      ...(fc.sample(candidate, { seed: SEED, numRuns: 1 })[0] as ContextCandidate),
      schema_version: SCHEMA.candidate,
      requirement: 'DISCRETIONARY',
      depends_on: [],
      group_id: null,
      group_required: false,
      coverage_keys: [],
      relevance: 0.25,
      is_default_form: false,
      form_rank: 3,
      min_rank: 0,
      token_count: 12,
    };
    const line = new CandidateWriter().line(plain);
    for (const key of [
      'schema_version',
      'depends_on',
      'group_id',
      'group_required',
      'coverage_keys',
      'is_default_form',
    ])
      expect(line).not.toContain(`"${key}"`);
    expect(readCandidate(JSON.parse(line))).toEqual(plain);
    expect(
      readCandidate(JSON.parse(new CandidateWriter().line({ ...plain, is_default_form: true }))),
    ).toEqual({
      ...plain,
      is_default_form: true,
    });
  });

  it('names a content the store keeps by its digest, where the content would be', () => {
    const base = fc.sample(candidate, { seed: SEED, numRuns: 1 })[0] as ContextCandidate;
    const w = new CandidateWriter((text) => (text.length > 3 ? 'd'.repeat(64) : null));
    const long = JSON.parse(w.line({ ...base, candidate_id: 'a#full', content: 'long text' }));
    expect([long.content, long.content_sha256]).toEqual([undefined, 'd'.repeat(64)]);
    expect(Object.keys(long).indexOf('content_sha256')).toBe(
      Object.keys(JSON.parse(expected(base))).indexOf('content'),
    );
    expect(JSON.parse(w.line({ ...base, candidate_id: 'b#full', content: 'abc' })).content).toBe('abc');
  });
});
