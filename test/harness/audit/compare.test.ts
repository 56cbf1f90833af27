import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anythingChanged, changesOf, compareRuns } from '../../../src/harness/compare/runs.js';
import { InputError } from '../../../src/harness/errors.js';
import { type RunFolder, readRunFolder, sameCorpus } from '../../../src/harness/runfolder/index.js';
import type { Row } from '../../../src/harness/types.js';
import { row } from '../../helpers/rows.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('compare-unit');

const audit = {
  legal: true,
  missing_required: [],
  objective: { preferred: 1, discretionary: 0, rendered_cost: 10 },
};

/** A run folder in memory; the digest stands for the corpus. */
const folder = (dir: string, rows: readonly Row[], digest: string | null = 'd1'): RunFolder => ({
  dir,
  rows,
  manifest: null,
  corpus: { name: 'c', digest, cases: [...new Set(rows.map((r) => r.case))].sort() },
  policy: null,
  compilations: path.join(dir, 'compilations.jsonl'),
});

/** Every cell of `cases` x tight/roomy x `strategies`, each row told apart by its tokens. */
const grid = (cases: readonly string[], strategies: readonly string[]): Row[] =>
  cases.flatMap((c) =>
    (['tight', 'roomy'] as const).flatMap((budget) =>
      strategies.map((strategy) => row({ case: c, budget, strategy, rendered_tokens: 10, audit })),
    ),
  );

describe('changesOf: what differs between two rows of one compilation', () => {
  it('finds nothing in equal rows', () => {
    expect(changesOf(row({ audit }), row({ audit }))).toEqual([]);
  });

  it('names a changed outcome, and the refusal code', () => {
    const a = row();
    const b = row({ success: false, reason: 'BUDGET_EXCEEDED' });
    expect(changesOf(a, b)).toEqual([{ kind: 'outcome', a: 'bundle', b: 'refusal BUDGET_EXCEEDED' }]);
    expect(changesOf(b, row({ success: false, reason: 'STRATEGY_ERROR' }))[0]).toEqual({
      kind: 'outcome',
      a: 'refusal BUDGET_EXCEEDED',
      b: 'error',
    });
  });

  it('gives the admitted ids removed and added, sorted, and sees a change of order alone', () => {
    const [c] = changesOf(row({ admitted: ['z', 'b', 'a'] }), row({ admitted: ['a', 'y', 'c', 'x'] }));
    expect(c).toMatchObject({ kind: 'admitted', removed: ['b', 'z'], added: ['c', 'x', 'y'] });
    expect(changesOf(row({ admitted: ['a', 'b'] }), row({ admitted: ['b', 'a'] }))).toEqual([
      { kind: 'admitted', a: ['a', 'b'], b: ['b', 'a'], removed: [], added: [] },
    ]);
  });

  it('names each metric, token count, hash and audit figure that changed, old and new', () => {
    const a = row({ must_recall: 1, distractor_admission: 0, bundle_hash: 'h1', audit });
    const b = row({
      must_recall: 0.5,
      distractor_admission: 2,
      bundle_hash: 'h2',
      audit: { ...audit, legal: false, missing_required: ['m'] },
    });
    expect(changesOf(a, b)).toEqual([
      { kind: 'value', field: 'bundle_hash', a: 'h1', b: 'h2' },
      { kind: 'value', field: 'must_recall', a: 1, b: 0.5 },
      { kind: 'value', field: 'distractor_admission', a: 0, b: 2 },
      { kind: 'value', field: 'audit.legal', a: true, b: false },
      { kind: 'value', field: 'audit.missing_required', a: [], b: ['m'] },
    ]);
  });

  it('says where the extras first differ', () => {
    expect(changesOf(row({ extras: { engine: 'bnb' } }), row({ extras: { engine: 'ilp' } }))).toEqual([
      { kind: 'extras', at: 'extras.engine ("bnb" vs "ilp")' },
    ]);
  });
});

describe('compareRuns', () => {
  it('a run against itself: nothing changed', () => {
    const rows = grid(['c1', 'c2'], ['s1', 's2']);
    const c = compareRuns(folder('a', rows), folder('b', rows));
    expect(c.compilations).toEqual({ shared: 8, changed: 0, extras_only: 0 });
    expect(c.changes).toEqual([]);
    expect(anythingChanged(c)).toBe(false);
    for (const d of c.headline) expect(Object.values(d.delta).every((x) => x === 0)).toBe(true);
  });

  it('lists one-sided strategies and cases once, and only the other missing compilations one by one', () => {
    const a = grid(['c1', 'c2'], ['s1', 's2', 'only-a']);
    // B lacks strategy only-a and case c2 wholly, has case c3 and strategy only-b, and lacks one cell.
    const b = grid(['c1', 'c3'], ['s1', 's2', 'only-b']).filter(
      (r) => !(r.case === 'c1' && r.budget === 'roomy' && r.strategy === 's2'),
    );
    const c = compareRuns(folder('a', a), folder('b', b));
    expect(c.a.only).toEqual({ strategies: ['only-a'], cases: ['c2'], compilations: ['c1/roomy/s2'] });
    expect(c.b.only).toEqual({ strategies: ['only-b'], cases: ['c3'], compilations: [] });
    expect(c.compilations).toEqual({ shared: 3, changed: 0, extras_only: 0 });
    expect(c.headline.map((d) => [d.strategy, d.compilations])).toEqual([
      ['s1', 2],
      ['s2', 1],
    ]);
    expect(anythingChanged(c)).toBe(true);
  });

  it('reports the changed compilations in A’s order, and headline deltas over shared compilations only', () => {
    const a = grid(['c1', 'c2'], ['s1', 's2']);
    const b = grid(['c1', 'c2', 'c9'], ['s1', 's2']).map((r) => {
      if (r.case === 'c2' && r.budget === 'tight' && r.strategy === 's2')
        return { ...r, success: false, reason: 'NO_LEGAL', status_correct: false, rendered_tokens: 0 };
      if (r.case === 'c1' && r.budget === 'roomy' && r.strategy === 's1')
        return { ...r, rendered_tokens: 25 };
      // A case B alone holds: its rows must not move the headline.
      if (r.case === 'c9') return { ...r, rendered_tokens: 1000, harmful_admission: 5 };
      return r;
    });
    const c = compareRuns(folder('a', a), folder('b', b));
    expect(c.changes.map((x) => `${x.case}/${x.budget}/${x.strategy}`)).toEqual([
      'c1/roomy/s1',
      'c2/tight/s2',
    ]);
    expect(c.changes[0]?.changes).toEqual([{ kind: 'value', field: 'rendered_tokens', a: 10, b: 25 }]);
    const s1 = c.headline.find((d) => d.strategy === 's1');
    const s2 = c.headline.find((d) => d.strategy === 's2');
    expect(s1?.delta).toMatchObject({ rendered_tokens: 15, harmful: 0, correct: 0, refusals: 0 });
    expect(s2?.a).toMatchObject({ correct: 4, refusals: 0, rendered_tokens: 40 });
    expect(s2?.b).toMatchObject({ correct: 3, refusals: 1, rendered_tokens: 30 });
    expect(s2?.changed).toBe(1);
    expect(c.b.only.cases).toEqual(['c9']);
  });

  it('a compilation whose bundle and scores held is listed apart when only extras or the objective moved', () => {
    const a = grid(['c1'], ['s1']);
    const b = a.map((r) =>
      r.budget === 'tight'
        ? {
            ...r,
            extras: { nodes: 7 },
            audit: { ...audit, objective: { ...audit.objective, discretionary: 3 } },
          }
        : r,
    );
    const c = compareRuns(folder('a', a), folder('b', b));
    expect(c.compilations).toEqual({ shared: 2, changed: 0, extras_only: 1 });
    expect(c.changes).toEqual([]);
    expect(c.extras_only.map((x) => x.budget)).toEqual(['tight']);
    expect(c.headline[0]).toMatchObject({ changed: 0, extras_only: 1 });
    expect(anythingChanged(c)).toBe(false);
    // With anything else moved as well, it is a change like any other.
    const moved = b.map((r) => (r.budget === 'tight' ? { ...r, rendered_tokens: 11 } : r));
    expect(compareRuns(folder('a', a), folder('b', moved)).compilations).toEqual({
      shared: 2,
      changed: 1,
      extras_only: 0,
    });
  });

  it('no float noise: sums in another order are no change, and deltas are rounded to their places', () => {
    const a = grid(['c1'], ['s1']).map((r) => ({ ...r, precision: 0.3, must_recall: 0.1 }));
    const b = a.map((r) => ({ ...r, precision: 0.1 + 0.2 }));
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(compareRuns(folder('a', a), folder('b', b)).compilations.changed).toBe(0);
    // 0.3 - 0.1 is 0.19999999999999998 in floating point; the delta is the figure people read.
    const up = a.map((r) => ({ ...r, must_recall: 0.3 }));
    const [d] = compareRuns(folder('a', a), folder('b', up)).headline;
    expect(d?.delta.must_recall_feasible).toBe(0.2);
  });

  it('names the policy fields that differ, and none when a manifest is missing', () => {
    const rows = grid(['c1'], ['s1']);
    const policy = (p: object): RunFolder => ({ ...folder('x', rows), policy: JSON.stringify(p) });
    const c = compareRuns(
      policy({ a: 1, frame: { v: 1 }, order_roles: ['x'] }),
      policy({ a: 1, frame: { v: 2 }, order_roles: ['x'], extra: true }),
    );
    expect([c.same_policy, c.policy_fields]).toEqual([false, ['extra', 'frame']]);
    expect(compareRuns(folder('a', rows), policy({ a: 1 })).policy_fields).toEqual([]);
  });

  it('tells corpora apart by digest, and without manifests by cases and budget tokens', () => {
    const rows = grid(['c1'], ['s1']);
    expect(sameCorpus({ digest: 'x', cells: rows }, { digest: 'y', cells: rows })).toBe(false);
    expect(sameCorpus({ digest: 'x', cells: rows }, { digest: 'x', cells: [] })).toBe(true);
    const more = rows.map((r) => ({ ...r, budget_tokens: r.budget_tokens + 1 }));
    expect(sameCorpus({ digest: null, cells: rows }, { digest: 'x', cells: rows })).toBe(true);
    expect(sameCorpus({ digest: null, cells: rows }, { digest: null, cells: more })).toBe(false);
    expect(compareRuns(folder('a', rows, 'x'), folder('b', rows, 'y')).same_corpus).toBe(false);
  });
});

describe('readRunFolder: bad input stops with one line naming the file', () => {
  const write = (name: string, lines: readonly unknown[], manifest?: unknown) => {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'rows.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    if (manifest !== undefined) fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    return dir;
  };
  const failure = (dir: string): string => {
    try {
      readRunFolder(dir);
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      return (e as InputError).line;
    }
    throw new Error('no error');
  };

  /** A manifest as a run writes it, of corpus compiler-v1. */
  const manifest = {
    ctxbench: '0.1.0',
    node: 'v22.0.0',
    created_at: '2026-01-01T00:00:00.000Z',
    command: ['ctxbench', 'study'],
    corpus: { name: 'compiler-v1', dir: 'corpus/compiler-v1', digest: 'abc', cases: 1 },
    policy: { p: 1 },
    strategies: [{ name: 's1', readsLedger: false }],
    rows: 2,
  };

  it('reads the manifest’s corpus, or falls back on the folder’s name', () => {
    const rows = grid(['c1'], ['s1']);
    const withManifest = readRunFolder(write('ok', rows, manifest));
    expect(withManifest.corpus).toEqual({ name: 'compiler-v1', digest: 'abc', cases: ['c1'] });
    expect(withManifest.policy).toBe('{"p":1}');
    expect(withManifest.manifest).toEqual(manifest);
    expect(withManifest.compilations).toBe(path.join(tmp, 'ok', 'compilations.jsonl'));
    const bare = readRunFolder(write('bare', rows));
    expect(bare.corpus).toEqual({ name: 'bare', digest: null, cases: ['c1'] });
    expect([bare.policy, bare.manifest]).toEqual([null, null]);
  });

  it('a manifest that is not one a run writes: its file and first wrong field, no guess', () => {
    const rows = grid(['c1'], ['s1']);
    const { ctxbench: _, ...unversioned } = manifest;
    expect(failure(write('no-version', rows, unversioned))).toMatch(
      /no-version[/\\]manifest\.json: invalid ctxbench: not a run folder's manifest/,
    );
    const digestless = { ...manifest, corpus: { ...manifest.corpus, digest: 7 } };
    expect(failure(write('bad-digest', rows, digestless))).toMatch(
      /bad-digest[/\\]manifest\.json: invalid corpus\.digest/,
    );
    expect(failure(write('null', rows, null))).toMatch(
      /null[/\\]manifest\.json: not a run folder's manifest/,
    );
  });

  it('a missing folder, a file, a folder without rows', () => {
    expect(failure(path.join(tmp, 'nowhere'))).toBe(`${path.join(tmp, 'nowhere')}: no such folder`);
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, '');
    expect(failure(file)).toMatch(/a-file: not a folder/);
    fs.mkdirSync(path.join(tmp, 'empty'));
    expect(failure(path.join(tmp, 'empty'))).toMatch(
      /empty[/\\]rows\.jsonl: no rows\.jsonl: not a run folder/,
    );
  });

  it('a figure of the wrong type, a budget that is none, a compilation twice: file, row and field', () => {
    const rows = grid(['c1'], ['s1']);
    const bad = (k: number, over: Record<string, unknown>) =>
      rows.map((r, j) => (j === k ? { ...r, ...over } : r));
    expect(failure(write('metric', bad(1, { must_recall: '1' })))).toMatch(
      /metric[/\\]rows\.jsonl: row 2: invalid must_recall$/,
    );
    expect(failure(write('budget', bad(0, { budget: 'huge' })))).toMatch(
      /rows\.jsonl: row 1: invalid budget$/,
    );
    expect(failure(write('hash', bad(1, { bundle_hash: 7 })))).toMatch(/row 2: invalid bundle_hash$/);
    expect(failure(write('twice', [...rows, rows[0]]))).toMatch(
      /rows\.jsonl: row 3: c1\/tight\/s1 appears twice$/,
    );
  });

  it('a line that is not JSON, named by its line', () => {
    const dir = write('syntax', grid(['c1'], ['s1']));
    fs.appendFileSync(path.join(dir, 'rows.jsonl'), '{"case": \n');
    expect(failure(dir)).toMatch(/syntax[/\\]rows\.jsonl: line 3: /);
  });
});
