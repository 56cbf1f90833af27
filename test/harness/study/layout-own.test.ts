/**
 * `layout: "own"` (issue 20): a strategy that lays out its bundle in its own order gets that
 * order, rendered, priced and hashed by the same code as every other selection, and recorded so
 * that `validate` can tell an own layout from a forged one. Absent or "policy" changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildBundle,
  type ContextCandidate,
  hashBundle,
  orderByRole,
  renderBundleText,
} from '../../../src/compiler/index.js';
import { checkCompilation } from '../../../src/harness/audit/index.js';
import { loadStrategies } from '../../../src/harness/hosts/index.js';
import { selectionTrace } from '../../../src/harness/kit/index.js';
import { compilationJSON } from '../../../src/harness/session/compile-one.js';
import { cells, finishCell } from '../../../src/harness/study/matrix.js';
import { checkCell } from '../../../src/harness/study/remeasure.js';
import type {
  Compiled,
  CompiledBundle,
  Selection,
  Strategy,
  StrategyInput,
} from '../../../src/harness/types.js';
import { cli, inputFlags } from '../../helpers/cli.js';
import { measured } from '../../helpers/compiled.js';
import { at, CORPUS_DIR, corpus, referenceLedger } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/temp.js';

const CASE = 'heterogeneous-basic';
let compiler: Strategy;
beforeAll(async () => {
  compiler = (await loadStrategies(['compiler']))[0] as Strategy;
});

const input = (): StrategyInput => {
  const i = at(CASE, 'roomy');
  return { ...i, budget: i.request.usable_token_budget };
};

/**
 * The compiler's admitted set (a legal one), answered another way: the ids edited, the fields
 * given added, and no trace, so that the harness writes it (the compiler's is in policy order).
 */
const reshaped = (
  name: string,
  edit: (ids: string[]) => string[],
  more: Record<string, unknown> = {},
): Strategy => ({
  name,
  description: `the compiler's set, ${name}`,
  assemble: (i) => {
    const s = compiler.assemble(i);
    if (!('admitted' in s)) return { refusal: s.refusal };
    return { admitted: edit([...s.admitted]), ...more } as Selection;
  },
});
const asIs = reshaped('as-is', (ids) => ids);
const reversed = reshaped('reversed', (ids) => ids.reverse(), { layout: 'own' });

const bundleOf = (out: Compiled): CompiledBundle => {
  if (out.outcome !== 'bundle') throw new Error(`expected a bundle, got ${JSON.stringify(out)}`);
  return out;
};

describe('a selection laid out in its own order', () => {
  it('is rendered, priced and hashed in the order admitted', () => {
    const base = bundleOf(measured(asIs, input()));
    const own = bundleOf(measured(reversed, input()));
    const want = [...base.admitted].reverse();
    // The case must make the orders differ, or the test proves nothing.
    expect(want.length).toBeGreaterThan(2);
    expect(want).not.toEqual(base.admitted);
    expect(own.admitted).toEqual(want);
    expect(own.bundle.items.map((i) => [i.id, i.position])).toEqual(want.map((id, k) => [id, k]));
    const byId = new Map(input().candidates.map((c) => [c.candidate_id, c]));
    const live = want.map((id) => byId.get(id) as ContextCandidate);
    const built = buildBundle(live, input().request, input().policy);
    expect(own.record.bundle_hash).toBe(hashBundle(built));
    expect(own.record.bundle_hash).not.toBe(base.record.bundle_hash);
    expect(own.renderedText).toBe(renderBundleText(built, input().policy.frame));
    const first = own.renderedText.indexOf((byId.get(want[0] as string) as ContextCandidate).content);
    const last = own.renderedText.indexOf((byId.get(want.at(-1) as string) as ContextCandidate).content);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(last);
    // The same items cost the same whatever their order.
    expect(own.renderedTokens).toBe(base.renderedTokens);
    expect(own.layout).toBe('own');
  });

  it('has a trace whose admissions are at their bundle positions, spending in bundle order', () => {
    const own = bundleOf(measured(reversed, input()));
    const entries = own.record.trace.entries.filter((e) => e.decision === 'ADMITTED');
    const position = new Map(own.admitted.map((id, k) => [id, k]));
    for (const e of entries) expect(e.position).toBe(position.get(e.candidate_id));
    const byPosition = [...entries].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    byPosition.slice(1).forEach((e, k) => {
      expect(e.budget_before).toBe(byPosition[k]?.budget_after);
    });
  });

  it('written by the strategy with the kit, gives the trace the harness writes', () => {
    const withTrace: Strategy = {
      name: 'reversed',
      description: 'reversed, its own trace',
      assemble: (i) => {
        const s = reversed.assemble(i) as { admitted: string[] };
        return { ...s, trace: selectionTrace(i, s.admitted, 'reversed', new Map(), 'own') };
      },
    };
    expect(JSON.stringify(measured(withTrace, input()))).toBe(JSON.stringify(measured(reversed, input())));
  });

  it('passes validate with its layout recorded, and fails the order rule without it', () => {
    const own = bundleOf(measured(reversed, input()));
    const doc = { bundle: own.bundle, result: own.record, rendered_text: own.renderedText };
    expect(checkCompilation({ ...doc, layout: 'own' }, input())).toEqual([]);
    const rules = checkCompilation(doc, input()).map((p) => p.rule);
    expect(rules).toContain('order');
    // An own layout that happens to be the policy's is still valid.
    const base = bundleOf(measured(asIs, input()));
    const plain = { bundle: base.bundle, result: base.record, rendered_text: base.renderedText };
    expect(checkCompilation({ ...plain, layout: 'own' }, input())).toEqual([]);
  });
});

describe('absent or "policy"', () => {
  it('lays out by the policy exactly as before, whatever the order admitted', () => {
    const base = JSON.stringify(measured(asIs, input()));
    const policyWord = reshaped('as-is', (ids) => ids.reverse(), { layout: 'policy' });
    const absent = reshaped('as-is', (ids) => ids.reverse());
    expect(JSON.stringify(measured(policyWord, input()))).toBe(base);
    expect(JSON.stringify(measured(absent, input()))).toBe(base);
    const out = bundleOf(measured(absent, input()));
    expect(out.layout).toBeUndefined();
    expect(out.admitted).toEqual(
      orderByRole(out.live, input().policy.order_roles).map((c) => c.candidate_id),
    );
  });
});

describe('a layout that breaks the contract is an error row', () => {
  const make = (assemble: Strategy['assemble']): Strategy => ({ name: 'x', description: 't', assemble });
  it.each([
    [
      'an unknown layout',
      () => ({ admitted: [], layout: 'sideways' as never }),
      'layout "sideways" is neither',
    ],
    ['a layout that is not text', () => ({ admitted: [], layout: 3 as never }), 'layout number is neither'],
    [
      'a layout on a refusal',
      () => ({ refusal: { reason: 'R' }, layout: 'own' }) as never,
      'layout on a refusal',
    ],
    [
      'own with a duplicate id',
      (i: StrategyInput) => ({
        admitted: [i.candidates[0]?.candidate_id, i.candidates[0]?.candidate_id] as string[],
        layout: 'own' as const,
      }),
      'duplicate ids',
    ],
    ['own with an unknown id', () => ({ admitted: ['ghost'], layout: 'own' as const }), 'unknown ids ghost'],
  ])('%s', (_what, assemble, message) => {
    const out = measured(make(assemble), input());
    expect(out.outcome).toBe('error');
    expect(out.outcome === 'error' && out.message).toContain(message);
  });
});

describe('recorded so that a run folder and validate can tell', () => {
  it('every cell of the reference study laid out its own way re-derives; without its layout it does not', async () => {
    const c = corpus();
    const ledger = referenceLedger();
    let told = 0;
    for (const cell of cells(c, [reversed])) {
      const { row, compilation } = finishCell(cell, c, ledger, (i) => measured(reversed, i));
      const rowText = JSON.stringify(row);
      const check = await checkCell(cell, c, ledger, rowText, JSON.stringify(compilation), rowText);
      expect([check.rows, check.compilations]).toEqual([null, null]);
      if (compilation.bundle === null) {
        expect(compilation.layout).toBeUndefined();
        continue;
      }
      expect(compilation.layout).toBe('own');
      const { layout: _, ...bare } = compilation;
      const items = (compilation.bundle as { items: unknown[] }).items;
      const inPolicyOrder =
        JSON.stringify(row.admitted) === JSON.stringify(orderOf(cell.kase.candidates, row.admitted));
      if (items.length < 2 || inPolicyOrder) continue;
      told++;
      expect(
        (await checkCell(cell, c, ledger, rowText, JSON.stringify(bare), rowText)).compilations,
      ).not.toBeNull();
    }
    expect(told).toBeGreaterThan(10);
  });

  it('a line whose layout the study would not write is not what the study writes', async () => {
    const c = corpus();
    const ledger = referenceLedger();
    const all = cells(c, [asIs]);
    const cell = all.find((k) => k.kase.name === CASE && k.budget === 'roomy');
    const refused = all
      .map((k) => ({ k, out: finishCell(k, c, ledger, (i) => measured(asIs, i)) }))
      .find(({ out }) => out.compilation.bundle === null);
    if (cell === undefined || refused === undefined) throw new Error('no cell');
    const { row, compilation } = finishCell(cell, c, ledger, (i) => measured(asIs, i));
    const rowText = JSON.stringify(row);
    const check = async (line: unknown, r = rowText, k = cell) =>
      (await checkCell(k, c, ledger, r, JSON.stringify(line), r)).compilations;
    expect(await check(compilation)).toBeNull();
    // "policy" is the default and never written; "own" on a refusal is a malformed selection.
    expect(await check({ ...compilation, layout: 'policy' })).toMatch(/^layout differs/);
    const refusedRow = JSON.stringify(refused.out.row);
    expect(await check(refused.out.compilation, refusedRow, refused.k)).toBeNull();
    expect(await check({ ...refused.out.compilation, layout: 'own' }, refusedRow, refused.k)).not.toBeNull();
  });

  it('validate --compilation reads the layout compile writes', async () => {
    const tmp = tempDir('layout-own');
    const own = bundleOf(measured(reversed, input()));
    const doc = await compilationJSON(own.bundle, own.record, input(), own.extras, own.layout);
    expect(doc.validation).toEqual({ valid: true, problems: [] });
    // The request as the study runs it at this budget, so that the compilation is of these inputs.
    const request = path.join(tmp, 'request.json');
    fs.writeFileSync(request, JSON.stringify(input().request));
    const flags = inputFlags(request, path.join(CORPUS_DIR, `${CASE}.candidates.json`));
    let written = 0;
    const validate = (d: unknown) => {
      const file = path.join(tmp, `c${++written}.json`);
      fs.writeFileSync(file, JSON.stringify(d));
      return cli('validate', '--compilation', file, ...flags);
    };
    expect(await validate(doc)).toMatchObject({ code: 0, stdout: 'valid\n' });
    const { layout: _, ...bare } = doc;
    const without = (await compilationJSON(own.bundle, own.record, input(), own.extras)).validation;
    expect(without.valid).toBe(false);
    const r = await validate({ ...bare, validation: without });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^INVALID order: /m);
    const bad = await validate({ ...doc, layout: 'mine' });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('layout must be "own"');
  });
});

const orderOf = (candidates: readonly ContextCandidate[], ids: readonly string[]) => {
  const byId = new Map(candidates.map((c) => [c.candidate_id, c]));
  return orderByRole(
    ids.map((id) => byId.get(id) as ContextCandidate),
    corpus().policy.order_roles,
  ).map((c) => c.candidate_id);
};
