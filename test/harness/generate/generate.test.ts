import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { checkCompilerInputs, defaultPolicy, gate } from '../../../src/compiler/index.js';
import { requestAt } from '../../../src/harness/corpus/index.js';
import { generateCase } from '../../../src/harness/generate/index.js';
import { loadExact } from '../../../src/harness/kit/index.js';
import { cli } from '../../helpers/cli.js';
import { corpusFolder } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/temp.js';

const { solveExact } = await loadExact();

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../../src/harness/hosts/hosts.js', () => import('../../helpers/in-thread-hosts.js'));

const tmp = tempDir('generate');

const bytes = (dir: string) =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [
        f,
        fs.statSync(path.join(dir, f)).isFile() ? fs.readFileSync(path.join(dir, f), 'utf8') : '',
      ]),
  );

describe('generate: same seed, same bytes', () => {
  it('writes request, candidates and policy, prints the seed, and repeats byte for byte', async () => {
    const a = await cli('generate', '--seed', '7', '--candidates', '300', '--out', path.join(tmp, 'a'));
    await cli('generate', '--seed', '7', '--candidates', '300', '--out', path.join(tmp, 'b'));
    await cli('generate', '--seed', '8', '--candidates', '300', '--out', path.join(tmp, 'c'));
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^seed 7: 300 candidates/);
    expect(Object.keys(bytes(path.join(tmp, 'a')))).toEqual([
      'candidates.json',
      'policy.json',
      'request.json',
    ]);
    expect(bytes(path.join(tmp, 'b'))).toEqual(bytes(path.join(tmp, 'a')));
    expect(bytes(path.join(tmp, 'c'))['candidates.json']).not.toBe(
      bytes(path.join(tmp, 'a'))['candidates.json'],
    );
    const list = JSON.parse(bytes(path.join(tmp, 'a'))['candidates.json'] as string).candidates;
    expect(list).toHaveLength(300);
  });

  it('refuses a non-empty --out without --force', async () => {
    expect(
      (await cli('generate', '--seed', '7', '--candidates', '10', '--out', path.join(tmp, 'a'))).code,
    ).toBe(2);
  });
});

describe('the shape of a generated pool', () => {
  const g = generateCase('shape', 3000);
  const n = g.candidates.length;
  const share = (pred: (c: (typeof g.candidates)[number]) => boolean) => g.candidates.filter(pred).length / n;

  it('is valid compiler input with the declared shape', () => {
    expect(n).toBe(3000);
    expect(() => checkCompilerInputs(g.request, g.candidates, defaultPolicy())).not.toThrow();
    // Few MANDATORY and REQUIRED, mostly PREFERRED and DISCRETIONARY.
    expect(share((c) => c.requirement === 'MANDATORY' || c.requirement === 'REQUIRED')).toBeLessThan(0.12);
    expect(share((c) => c.requirement === 'DISCRETIONARY')).toBeGreaterThan(0.5);
    // About one in ten fails each gate (a bit less overall: must content fails rarely).
    for (const code of ['scope_ineligible', 'freshness_ineligible', 'authority_ineligible']) {
      expect(share((c) => gate(c).code === code)).toBeGreaterThan(0.05);
      expect(share((c) => gate(c).code === code)).toBeLessThan(0.15);
    }
    expect(share((c) => gate(c).code === 'illegal_representation')).toBeGreaterThan(0.02);
  });

  it('has contents in one to four forms, shared tools, a cycle and groups of two or three', () => {
    const forms = new Map<string, number>();
    for (const c of g.candidates) forms.set(c.content_identity, (forms.get(c.content_identity) ?? 0) + 1);
    expect(Math.max(...forms.values())).toBe(4);
    expect(Math.min(...forms.values())).toBe(1);
    const needed = new Map<string, number>();
    for (const c of g.candidates) for (const d of c.depends_on) needed.set(d, (needed.get(d) ?? 0) + 1);
    expect([...needed.values()].some((k) => k > 20)).toBe(true);
    const byId = new Map(g.candidates.map((c) => [c.candidate_id, c]));
    expect(
      g.candidates.some((c) => c.depends_on.some((d) => byId.get(d)?.depends_on.includes(c.candidate_id))),
    ).toBe(true);
    const groups = new Map<string, Set<string>>();
    for (const c of g.candidates)
      if (c.group_id && c.group_required)
        groups.set(c.group_id, (groups.get(c.group_id) ?? new Set()).add(c.candidate_id));
    expect(groups.size).toBeGreaterThan(5);
    for (const m of groups.values()) expect(m.size === 2 || m.size === 3 || m.size === 1).toBe(true);
    expect([...groups.values()].filter((m) => m.size >= 2).length).toBeGreaterThan(groups.size / 2);
    const relevance = g.candidates.map((c) => c.relevance);
    expect(Math.min(...relevance)).toBeLessThan(0.05);
    expect(Math.max(...relevance)).toBeGreaterThan(0.95);
  });

  it('labels the ledger from how each content was made', () => {
    const classes = new Set(Object.values(g.ledger.identity_truth).map((t) => t.eval_class));
    expect([...classes].sort()).toEqual(['distractor', 'harmful', 'must', 'optional', 'should']);
    for (const c of g.candidates) {
      const t = g.ledger.identity_truth[c.content_identity]?.eval_class;
      if (c.requirement === 'MANDATORY' || c.requirement === 'REQUIRED') expect(t).toBe('must');
    }
  });
});

describe('generate --cases: a corpus that study runs like the reference one', () => {
  it('writes cases, manifest, policy and ledger; the expected outcomes are what exact certifies', async () => {
    const dir = path.join(tmp, 'corpus');
    const r = await cli('generate', '--seed', 'c1', '--candidates', '40', '--cases', '4', '--out', dir);
    expect(r.code).toBe(0);
    const { corpus, ledger } = corpusFolder(dir);
    expect(corpus.cases.map((c) => c.name)).toEqual(['gen-c1-0', 'gen-c1-1', 'gen-c1-2', 'gen-c1-3']);
    expect(ledger().size).toBe(4);
    for (const kase of corpus.cases) {
      for (const b of ['tight', 'medium', 'roomy'] as const) {
        const request = requestAt(kase, b);
        const sel = solveExact({
          request,
          candidates: kase.candidates,
          policy: corpus.policy,
          budget: request.usable_token_budget,
        });
        expect(kase.expected[b].success).toBe(!('refusal' in sel));
      }
    }
    const out = path.join(tmp, 'run');
    expect((await cli('study', '--corpus', dir, '--strategies', 'compiler,exact', '--out', out)).code).toBe(
      0,
    );
    const rows = fs
      .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(24);
    expect(rows.filter((x) => x.strategy === 'exact').every((x) => x.status_correct)).toBe(true);
  });
});
