import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContextCandidate, candidateToJSON } from '../../../src/compiler/index.js';
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

describe(`CandidateWriter (fast-check seed ${SEED})`, () => {
  it('writes JSON.stringify(candidateToJSON(c)) for every candidate of a sequence, one writer for all', () => {
    // Few ids, so that the writer meets an id again with the same content and with another.
    fc.assert(
      fc.property(fc.array(candidate, { minLength: 1, maxLength: 8 }), (cs) => {
        const w = new CandidateWriter();
        for (const c of cs) expect(w.line(c)).toBe(JSON.stringify(candidateToJSON(c)));
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
        expect(w.line(c)).toBe(JSON.stringify(candidateToJSON(c)));
        for (const [key, other] of steps) {
          if (key !== 'none' && key !== 'candidate_id')
            c = { ...c, [key]: (other as unknown as Record<string, unknown>)[key] } as ContextCandidate;
          expect(w.line(c)).toBe(JSON.stringify(candidateToJSON(c)));
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
    expect(w.line({ ...one, content: ['first ', '"text"'].join('') })).toBe(
      JSON.stringify(candidateToJSON(one)),
    );
  });
});
