/**
 * The shipped JSON Schemas against the readers: every file of the reference corpus and its
 * ledger validates, every key a reader knows is a property of its schema, and on records
 * mutated field by field (and two fields at a time) the schema accepts exactly what the lint
 * finds nothing in (no error, no warning: what `--strict` accepts). Where the lint finds no
 * error, the compiler's reader accepts; where it rejects, the lint says `missing` for an absent
 * field and `invalid` or `unsupported` for a present one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  candidateToJSON,
  defaultPolicy,
  policyToJSON,
  readCandidate,
  readPolicy,
  readRequest,
  requestToJSON,
} from '../../../src/compiler/index.js';
import { Findings } from '../../../src/harness/corpus/index.js';
import { lintManifest, lintTruth } from '../../../src/harness/corpus/lint-files.js';
import { ANNOTATION_KEYS, CANDIDATE_KEYS, lintCandidate } from '../../../src/harness/corpus/lint-records.js';
import {
  lintPolicy,
  lintRequest,
  POLICY_KEYS,
  REQUEST_KEYS,
} from '../../../src/harness/corpus/lint-request-policy.js';
import { lintBatchLine } from '../../../src/harness/corpus/lint-target.js';
import { generateCase } from '../../../src/harness/generate/index.js';
import { BUDGETS, EVAL_CLASSES } from '../../../src/harness/vocabulary.js';
import { lcg, oneFieldAway } from '../../helpers/break-it.js';
import { CORPUS_DIR, ROOT } from '../../helpers/corpus.js';
import { SchemaSet } from '../../helpers/json-schema.js';

const schemas = new SchemaSet(path.join(ROOT, 'schemas'));
const LEDGER_DIR = path.join(ROOT, 'ledger/compiler-v1');
const read = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));
type Json = Record<string, unknown>;
const props = (name: string, ...pointer: string[]): string[] => {
  let node = schemas.schema(name) as Json;
  for (const p of pointer) node = node[p] as Json;
  return Object.keys(node.properties as Json).sort();
};

describe('the schemas ship and describe the reference data', () => {
  it('one schema per record, each a draft 2020-12 document the validator understands', () => {
    expect(schemas.names).toEqual([
      'batch-line.schema.json',
      'candidates.schema.json',
      'manifest.schema.json',
      'policy.schema.json',
      'request.schema.json',
      'truth.schema.json',
    ]);
    for (const n of schemas.names)
      expect((schemas.schema(n) as Json).$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const pkg = read(path.join(ROOT, 'package.json')) as { files: string[] };
    expect(pkg.files).toContain('schemas');
  });

  it('every file of the reference corpus and ledger validates against its schema', () => {
    const files = fs.readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.json'));
    const kind = (f: string) =>
      f.endsWith('.candidates.json')
        ? 'candidates'
        : f.endsWith('.request.json')
          ? 'request'
          : f === 'manifest.json'
            ? 'manifest'
            : 'policy';
    for (const f of files)
      expect(schemas.errors(`${kind(f)}.schema.json`, read(path.join(CORPUS_DIR, f))), f).toEqual([]);
    const truths = fs.readdirSync(LEDGER_DIR);
    expect(files.length + truths.length).toBe(14 * 3 + 2);
    for (const f of truths)
      expect(schemas.errors('truth.schema.json', read(path.join(LEDGER_DIR, f))), f).toEqual([]);
  });

  it("the writers' output validates: generated pools of both profiles, the default policy, a batch line", () => {
    for (const profile of ['mixed', 'agent'] as const) {
      const g = generateCase(`schema-${profile}`, 40, 'schema', profile);
      const pool = { candidates: g.candidates.map((c) => candidateToJSON(c)) };
      expect(schemas.errors('candidates.schema.json', pool), profile).toEqual([]);
      expect(schemas.errors('request.schema.json', requestToJSON(g.request)), profile).toEqual([]);
    }
    expect(schemas.errors('policy.schema.json', policyToJSON(defaultPolicy()))).toEqual([]);
    const line = {
      request: read(path.join(CORPUS_DIR, 'wrong-scope.request.json')),
      candidates: read(path.join(CORPUS_DIR, 'wrong-scope.candidates.json')),
      policy: read(path.join(CORPUS_DIR, 'compiler-policy-v1.json')),
      ledger: read(path.join(LEDGER_DIR, 'wrong-scope.truth.json')),
    };
    expect(schemas.errors('batch-line.schema.json', line)).toEqual([]);
    expect(schemas.valid('batch-line.schema.json', { ...line, policy: [] })).toBe(false);
  });

  it('each key a reader knows is a property of its schema, and no other', () => {
    const candidate = props('candidates.schema.json', '$defs', 'candidate');
    expect(candidate).toEqual([...CANDIDATE_KEYS, ...ANNOTATION_KEYS].sort());
    expect(props('request.schema.json')).toEqual([...REQUEST_KEYS].sort());
    expect(props('policy.schema.json')).toEqual([...POLICY_KEYS].sort());
    expect(props('manifest.schema.json', '$defs', 'budgets')).toEqual([...BUDGETS].sort());
    expect(props('truth.schema.json', '$defs', 'truth')).toEqual(['eval_class', 'min_representation']);
    const evalClass = (schemas.schema('truth.schema.json') as Json).$defs as Json;
    expect(((evalClass.truth as Json).properties as Json).eval_class).toMatchObject({
      enum: [...EVAL_CLASSES],
    });
  });
});

interface Kind {
  readonly schema: string;
  readonly base: Json;
  readonly keys: readonly string[];
  readonly lint: (raw: unknown, out: Findings) => void;
  /** The compiler's reader of the record, where there is one. */
  readonly reader?: (raw: unknown) => unknown;
}

const candidatesOf = (file: string) => (read(file) as { candidates: Json[] }).candidates;
const refCandidate = candidatesOf(path.join(CORPUS_DIR, 'conflict-trap.candidates.json'))[0] as Json;
const KINDS: Record<string, Kind> = {
  candidate: {
    schema: 'candidates.schema.json',
    base: refCandidate,
    keys: [...CANDIDATE_KEYS, ...ANNOTATION_KEYS],
    lint: (raw, out) => lintCandidate(raw, { out, record: 'c' }),
    reader: readCandidate,
  },
  request: {
    schema: 'request.schema.json',
    base: read(path.join(CORPUS_DIR, 'wrong-scope.request.json')) as Json,
    keys: [...REQUEST_KEYS],
    lint: (raw, out) => lintRequest(raw, { out, record: 'request' }),
    reader: readRequest,
  },
  policy: {
    schema: 'policy.schema.json',
    base: read(path.join(CORPUS_DIR, 'compiler-policy-v1.json')) as Json,
    keys: [...POLICY_KEYS],
    lint: (raw, out) => lintPolicy(raw, { out, record: 'policy' }),
    reader: readPolicy,
  },
  truth: {
    schema: 'truth.schema.json',
    base: read(path.join(LEDGER_DIR, 'dependency-trap.truth.json')) as Json,
    keys: ['identity_truth', 'expected', '$schema', 'must_not_in_pool'],
    lint: (raw, out) => lintTruth(raw, out),
  },
};

/** A record as a file of its kind: a candidate inside a pool. */
const asFile = (kind: string, record: Json): unknown =>
  kind === 'candidate' ? { candidates: [record] } : record;

describe('schema and lint accept and reject alike', () => {
  it.each(Object.keys(KINDS))(
    '%s: each field deleted, retyped, pushed out of range; unknown keys',
    (name) => {
      const kind = KINDS[name] as Kind;
      let rejected = 0;
      let all = 0;
      for (const { what, record, deleted } of oneFieldAway(kind.base, kind.keys)) {
        const out = new Findings('f');
        kind.lint(record, out);
        const valid = schemas.valid(kind.schema, asFile(name, record));
        expect(valid, `${name} ${what}: ${out.list.map((f) => f.text).join(' | ')}`).toBe(
          out.list.length === 0,
        );
        all++;
        if (out.errors > 0) rejected++;
        if (kind.reader === undefined) continue;
        // The lint finds an error exactly where the compiler's reader throws (or where the
        // harness is stricter: ids must not be empty).
        let threw = false;
        try {
          kind.reader(record);
        } catch {
          threw = true;
        }
        if (threw) expect(out.errors, `${name} ${what}`).toBeGreaterThan(0);
        const first = out.list.find((f) => f.severity === 'error');
        if (threw && deleted !== undefined)
          expect(first?.text, what).toMatch(new RegExp(`^missing ${deleted}\\b`));
        if (threw && deleted === undefined) expect(first?.text, what).toMatch(/^(invalid|unsupported) /);
      }
      expect(rejected).toBeGreaterThan(10);
      expect(all).toBeGreaterThan(50);
    },
  );

  it.each(['candidate', 'policy'])('%s: two fields changed at once', (name) => {
    const kind = KINDS[name] as Kind;
    const singles = [...oneFieldAway(kind.base, kind.keys)];
    const pick = lcg(name.length);
    for (let n = 0; n < 3000; n++) {
      const a = singles[(pick.next().value as number) % singles.length] as { what: string; record: Json };
      const b = singles[(pick.next().value as number) % singles.length] as { what: string; record: Json };
      const record: Json = { ...a.record };
      for (const key of Object.keys(kind.base)) if (!Object.hasOwn(b.record, key)) delete record[key];
      for (const [key, v] of Object.entries(b.record)) if (b.record[key] !== kind.base[key]) record[key] = v;
      const out = new Findings('f');
      kind.lint(record, out);
      expect(schemas.valid(kind.schema, asFile(name, record)), `${a.what} + ${b.what}`).toBe(
        out.list.length === 0,
      );
    }
  });

  it('manifest: each budget and outcome of a case mutated', () => {
    const base = read(path.join(CORPUS_DIR, 'manifest.json')) as { budgets: Json; expected: Json };
    const budgets = base.budgets['wrong-scope'] as Json;
    const expected = base.expected['wrong-scope'] as Json;
    const tight = expected.tight as Json;
    const variants: Json[] = [
      ...[...oneFieldAway(budgets, BUDGETS)].map((m) => ({
        ...base,
        budgets: { ...base.budgets, 'wrong-scope': m.record },
      })),
      ...[...oneFieldAway(expected, BUDGETS)].map((m) => ({
        ...base,
        expected: { ...base.expected, 'wrong-scope': m.record },
      })),
      ...[...oneFieldAway(tight, ['success', 'reason'])].map((m) => ({
        ...base,
        expected: { ...base.expected, 'wrong-scope': { ...expected, tight: m.record } },
      })),
      { budgets: base.budgets },
      { budgets: base.budgets, expected: null },
      { expected: base.expected },
    ];
    for (const v of variants) {
      const out = new Findings('manifest.json');
      lintManifest(v, out);
      expect(schemas.valid('manifest.schema.json', v), JSON.stringify(out.list.map((f) => f.text))).toBe(
        out.list.length === 0,
      );
    }
    expect(variants.length).toBeGreaterThan(150);
  });

  it('batch line: each input deleted or retyped, unknown keys', () => {
    // No ledger in the base: its identities must be the pool's, which no schema can say.
    const line: Json = {
      request: read(path.join(CORPUS_DIR, 'wrong-scope.request.json')),
      candidates: read(path.join(CORPUS_DIR, 'wrong-scope.candidates.json')),
      policy: read(path.join(CORPUS_DIR, 'compiler-policy-v1.json')),
    };
    for (const { what, record } of oneFieldAway(line, ['request', 'candidates', 'policy', 'ledger'])) {
      const found = lintBatchLine(record, 'batch.jsonl:1').flatMap((f) => f.list);
      expect(schemas.valid('batch-line.schema.json', record), `${what}: ${found.map((f) => f.text)}`).toBe(
        found.length === 0,
      );
    }
  });
});
