/**
 * The lint of input records: every problem of a file at once, missing told from invalid, the
 * allowed values listed; warnings for what the readers accept but was probably not meant, which
 * stop only under `strict`; and the one line a command stops with.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../../../src/compiler/index.js';
import { orderRoles, toCandidates } from '../../../src/harness/corpus/index.js';
import { Findings, type Lint, settle, WARNINGS_TOLD } from '../../../src/harness/corpus/lint.js';
import { lintManifest } from '../../../src/harness/corpus/lint-files.js';
import { lintCandidates } from '../../../src/harness/corpus/lint-records.js';
import { lintPolicy } from '../../../src/harness/corpus/lint-request-policy.js';
import { InputError } from '../../../src/harness/errors.js';
import { CORPUS_DIR } from '../../helpers/corpus.js';

type Json = Record<string, unknown>;
const pool = (): Json[] =>
  (
    JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'heterogeneous-basic.candidates.json'), 'utf8')) as {
      candidates: Json[];
    }
  ).candidates;

/** The lines a lint of `raw` finds, as the CLI prints them after `ctxbench: `. */
function linted(raw: unknown, corpus = false): string[] {
  const out = new Findings('pool.json');
  lintCandidates(raw, out, { corpus });
  return out.list.map((f) => `${f.severity}: ${f.record}: ${f.text}`);
}

describe('a pool with several problems', () => {
  const bad = pool();
  delete bad[0]?.content_identity;
  Object.assign(bad[1] as Json, { content_identity: 7 });
  Object.assign(bad[2] as Json, { requirement: null });
  delete bad[3]?.requirement;
  Object.assign(bad[4] as Json, { scope_eligible: 'yes', depends_on: 'instr-1' });
  bad.push({ ...(bad[6] as Json), depends_on: ['ghost'] });

  it('reports every one at once, missing told from invalid, the allowed values listed', () => {
    expect(linted({ candidates: bad }).filter((l) => l.startsWith('error'))).toEqual([
      'error: candidates[0] "instr-1": missing content_identity',
      'error: candidates[1] "taskreq-1": invalid content_identity: 7 (need a non-empty string)',
      'error: candidates[2] "rule-req": unsupported requirement: null (need MANDATORY, REQUIRED, PREFERRED or DISCRETIONARY)',
      'error: candidates[3] "mem-pref": missing requirement (need MANDATORY, REQUIRED, PREFERRED or DISCRETIONARY)',
      'error: candidates[4] "tool-disc": invalid scope_eligible: "yes" (need true or false)',
      'error: candidates[4] "tool-disc": invalid depends_on: "instr-1" (need a list of strings)',
      'error: candidates[10] "scope-bad": duplicate candidate_id (also candidates[6] "scope-bad")',
      'error: candidates[10] "scope-bad": unknown dependency "ghost" in depends_on (no candidate has this id)',
    ]);
  });

  it('a command stops with the first and the count of the others, on one line', () => {
    let error: unknown;
    try {
      toCandidates('pool.json', { candidates: bad });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).line).toBe(
      'pool.json: candidates[0] "instr-1": missing content_identity (and 7 more problems: ctxbench check pool.json)',
    );
  });

  it('says "problem" for one more, and quotes a path the shell would split', () => {
    const two = pool().slice(0, 2);
    delete two[0]?.kind;
    delete two[1]?.kind;
    expect(() => toCandidates('my pool.json', two)).toThrow(
      expect.objectContaining({
        line: `my pool.json: candidates[0] "instr-1": missing kind (and 1 more problem: ctxbench check 'my pool.json')`,
      }),
    );
  });

  it('an all-or-none group whose members declare different classes, on its first member', () => {
    const group = pool().slice(1, 3);
    for (const c of group) Object.assign(c, { group_id: 'g', group_required: true });
    expect(linted(group)).toEqual([
      'error: candidates[0] "taskreq-1": required group "g" spans bands: MANDATORY,REQUIRED (every member of an all-or-none group declares one requirement)',
    ]);
  });

  it('a file that is not a pool', () => {
    expect(linted({ candidate: [] })).toEqual([
      'error: undefined: missing candidates (need {"candidates": [...]} or a list of candidates)',
    ]);
    expect(linted('x')[0]).toMatch(/^error: undefined: invalid candidates/);
  });
});

describe('warnings: read as written, told, and errors only under strict', () => {
  const warned = (change: (c: Json[]) => void, corpus = false) => {
    const c = pool();
    change(c);
    return linted(c, corpus);
  };

  it('an unknown field, with the field it probably meant', () => {
    expect(warned((c) => Object.assign(c[3] as Json, { dependsOn: ['instr-1'] }))).toEqual([
      'warning: candidates[3] "mem-pref": dependsOn: unknown field (did you mean depends_on?)',
    ]);
    expect(warned((c) => Object.assign(c[3] as Json, { zzz: 1 }))).toEqual([
      'warning: candidates[3] "mem-pref": zzz: unknown field',
    ]);
  });

  it('relevance outside [0, 1] and a fractional token count: warnings, errors in a corpus', () => {
    const change = (c: Json[]) => Object.assign(c[5] as Json, { relevance: 1.5, token_count: 44.5 });
    expect(warned(change)).toEqual([
      'warning: candidates[5] "anchor-disc": token_count: 44.5 is not a whole number of tokens',
      'warning: candidates[5] "anchor-disc": relevance: 1.5 is outside [0, 1]',
    ]);
    expect(warned(change, true)).toEqual([
      'error: candidates[5] "anchor-disc": invalid token_count: 44.5 (need an integer >= 0)',
      'error: candidates[5] "anchor-disc": invalid relevance: 1.5 (need a number in [0, 1])',
    ]);
  });

  it('what the reader coerces: a numeric string, Python truthiness, an unknown tier', () => {
    expect(
      warned((c) => Object.assign(c[5] as Json, { relevance: '0.5', group_required: 'false', tier: 'T9' })),
    ).toEqual([
      'warning: candidates[5] "anchor-disc": group_required: "false" is not true or false; read as true',
      'warning: candidates[5] "anchor-disc": relevance: "0.5" is not a number; read as 0.5',
      'warning: candidates[5] "anchor-disc": tier: "T9" is not a tier (head, R, T6, T5, T3, T4); the tier is derived instead',
    ]);
  });

  it('an order role the policy does not list', () => {
    const c = pool();
    Object.assign(c[4] as Json, { order_role: 'toolz' });
    expect(orderRoles(c, defaultPolicy(), 'pool.json').list.map((f) => f.text)).toEqual([
      'order_role: "toolz" is not among the policy\'s order_roles (instruction, task, state, evidence, support, tool); laid out last',
    ]);
  });

  it('a policy: a repair nobody spells, a threshold out of range, a misspelled key', () => {
    const out = new Findings('p.json');
    lintPolicy(
      { repair: 'drop-last', min_discretionary_relevance: 3, orderRoles: [] },
      { out, record: 'policy' },
    );
    expect(out.list.map((f) => f.text)).toEqual([
      'min_discretionary_relevance: 3 is outside [0, 1], where relevance lies',
      'repair: "drop-last" is neither "drop-last-discretionary" nor "none"; read as never repair',
      'orderRoles: unknown field (did you mean order_roles?)',
    ]);
  });

  it('settle tells warnings one line each, the rest counted, and stops on them only under strict', () => {
    const out = new Findings('pool.json');
    for (let k = 0; k < WARNINGS_TOLD + 3; k++) out.warning(`candidates[${k}]`, 'x', 'unknown field');
    const told: string[] = [];
    const lint: Lint = { strict: false, warn: (line) => told.push(line) };
    settle(out, lint);
    expect(told).toHaveLength(WARNINGS_TOLD + 1);
    expect(told[0]).toBe('warning: pool.json: candidates[0]: x: unknown field');
    expect(told.at(-1)).toBe('warning: pool.json: and 3 more warnings (ctxbench check pool.json)');
    expect(() => settle(out, { ...lint, strict: true })).toThrow(
      expect.objectContaining({
        line: 'pool.json: candidates[0]: x: unknown field (and 12 more problems: ctxbench check pool.json)',
      }),
    );
    expect(told).toHaveLength(WARNINGS_TOLD + 1);
  });
});

describe('the budget manifest', () => {
  const manifest = () =>
    JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'manifest.json'), 'utf8')) as {
      budgets: Json;
      expected: Json;
    };
  const cases = Object.keys(manifest().budgets);
  const lines = (raw: unknown) => {
    const out = new Findings('manifest.json');
    lintManifest(raw, out, cases);
    return out.list.map((f) => `${f.record}: ${f.text}`);
  };

  it('the reference manifest is clean', () => {
    expect(lines(manifest())).toEqual([]);
  });

  it('a case without expected outcomes is an error naming the case, not a bundle expected', () => {
    const m = manifest();
    delete m.expected['wrong-scope'];
    delete (m.expected['stale-cheap'] as Json).tight;
    expect(lines(m)).toEqual([
      'stale-cheap: missing expected.tight (need {"success": true or false, "reason": a refusal reason or null})',
      'wrong-scope: missing expected (need its outcome at each of {"tight", "medium", "roomy"}: {"success": true or false, "reason": a refusal reason or null})',
    ]);
    const { expected: _, ...none } = manifest();
    expect(lines(none)).toHaveLength(cases.length);
  });

  it('budgets: each level an integer, for each case and no other', () => {
    const m = manifest();
    m.budgets['wrong-scope'] = { tight: -1, medium: 2.5, huge: 3 };
    m.budgets.ghost = { tight: 1, medium: 2, roomy: 3 };
    expect(lines(m)).toEqual([
      'wrong-scope: invalid budgets.tight: -1 (need an integer >= 0)',
      'wrong-scope: invalid budgets.medium: 2.5 (need an integer >= 0)',
      'wrong-scope: missing budgets.roomy (need an integer >= 0)',
      'wrong-scope: budgets.huge: unknown field',
      'ghost: budgets name an unknown case',
    ]);
  });

  it('purpose: text for each case it names; not text is an error, an unknown case a warning', () => {
    const m = {
      ...manifest(),
      purpose: { 'wrong-scope': 'what it is for', 'stale-cheap': null, ghost: 'x' },
    };
    const out = new Findings('manifest.json');
    lintManifest(m, out, cases);
    expect(out.list.map((f) => `${f.severity} ${f.record}: ${f.text}`)).toEqual([
      'error stale-cheap: invalid purpose: null (need text)',
      'warning ghost: purpose.ghost: no such case; ignored',
    ]);
  });
});
