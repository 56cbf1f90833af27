import { describe, expect, it } from 'vitest';
import { generateCase } from '../../src/harness/generate/index.js';
import type { Admission, StrategyInput } from '../../src/harness/types.js';
import { BUDGETS } from '../../src/harness/vocabulary.js';
import aider, { identWeight } from '../../strategies/aider-repomap.js';
import { asBundle, measured } from '../helpers/compiled.js';
import { inputAt } from '../helpers/generated.js';
import { cand, strategyInputAt as input, rendered } from '../helpers/pool.js';
import { referenceInputs } from '../helpers/reference-inputs.js';

const admission = (i: StrategyInput) => aider.assemble(i) as Admission;
/** The file of the best-ranked definition, as Aider's `ranked_tags[0]` names it. */
const topFile = (i: StrategyInput) =>
  String((admission(i).extras?.ranked as string[] | undefined)?.[0]).split('#')[0];

/** A file that defines `ident` (a coverage key stands for a definition), its text only its name. */
const def = (id: string, ident: string) => cand(id, { coverage_keys: [ident], content: id });
/** A file whose text references the given identifiers, once each. */
const user = (id: string, ...idents: string[]) => cand(id, { content: idents.join(' ') });
const task = (text: string) =>
  cand('the-task', { order_role: 'task', requirement: 'MANDATORY', content: text });

describe("aider-repomap: Aider's search accepts a map within 15% of the budget", () => {
  // Each file only names itself, so both rank alike and Aider's tie-break ((rank, (file, ident))
  // descending) puts b first. Aider's first probe is min(budget // 25, number of tags) = 2 here:
  // both files.
  const pool = [cand('a', { token_count: 300 }), cand('b', { token_count: 300 })];
  const both = rendered(300, 300);

  it('keeps a map up to 15% over the budget, and the harness measures the overshoot', () => {
    const budget = Math.ceil(both / 1.14);
    const out = asBundle(measured(aider, input(budget, pool)));
    expect(out.admitted).toEqual(['a', 'b']);
    expect(out.renderedTokens).toBe(both);
    expect(out.renderedTokens).toBeGreaterThan(budget);
  });

  it('rejects a map more than 15% over and searches down to one that fits', () => {
    const budget = Math.floor(both / 1.16);
    expect(rendered(300)).toBeLessThanOrEqual(budget);
    const out = asBundle(measured(aider, input(budget, pool)));
    expect(out.admitted).toEqual(['b']);
    expect(out.renderedTokens).toBe(rendered(300));
  });
});

describe("aider-repomap: Aider's identifier weights decide the ranking", () => {
  // Each pool is a tie without the weight under test: Aider breaks ties by (file, ident)
  // descending, so the later name would rank first; the weight must turn that round.
  it('x10 for an identifier the message mentions', () => {
    const pool = [def('def-a', 'helper'), def('def-z', 'widget'), user('caller', 'helper', 'widget')];
    expect(topFile(input(10_000, pool))).toBe('def-z');
    expect(topFile(input(10_000, [...pool, task('fix the helper please')]))).toBe('def-a');
  });

  it('x10 for a snake, kebab or camel identifier of 8 characters or more, not a shorter one', () => {
    const long = [
      def('def-a', 'parse_config'),
      def('def-z', 'widget'),
      user('caller', 'parse_config', 'widget'),
    ];
    expect(topFile(input(10_000, long))).toBe('def-a');
    const camel = [def('def-a', 'parseConf'), def('def-z', 'widget'), user('caller', 'parseConf', 'widget')];
    expect(topFile(input(10_000, camel))).toBe('def-a');
    const short = [def('def-a', 'ab_cd'), def('def-z', 'widget'), user('caller', 'ab_cd', 'widget')];
    expect(topFile(input(10_000, short))).toBe('def-z');
  });

  it('x0.1 for a name starting with an underscore', () => {
    const pool = [def('def-a', 'gadget'), def('def-z', '_wid'), user('caller', 'gadget', '_wid')];
    expect(topFile(input(10_000, pool))).toBe('def-a');
  });

  it('x0.1 for a name defined in more than five places, not in five', () => {
    const many = (n: number) => [
      def('def-a', 'single'),
      ...Array.from({ length: n }, (_, k) => def(`z-${k + 1}`, 'common')),
      user('caller', 'single', 'common'),
    ];
    expect(topFile(input(10_000, many(5)))).toBe('z-5');
    expect(topFile(input(10_000, many(6)))).toBe('def-a');
  });

  it('x50 for references from a file the request names (a chat file)', () => {
    // Two callers, each personalised once (the chat file by being in the chat, the other by the
    // message naming it): only the x50 tells them apart.
    const pool = [
      def('def-a', 'helper'),
      def('def-z', 'widget'),
      user('in-chat', 'helper'),
      user('other-file', 'widget'),
      task('look at other-file'),
    ];
    expect(topFile(input(10_000, pool))).toBe('def-z');
    const i = input(10_000, pool, ['in-chat']);
    expect(topFile(i)).toBe('def-a');
    // The chat file and the message are sent whole, after the map.
    expect(admission(i).admitted.slice(-2)).toEqual(['in-chat', 'the-task']);
  });

  it("mul itself, case by case, as repomap.py's get_ranked_tags computes it", () => {
    const none = new Set<string>();
    expect(identWeight('helper', none, 1)).toBe(1);
    expect(identWeight('helper', new Set(['helper']), 1)).toBe(10);
    expect(identWeight('parse-config', none, 1)).toBe(10);
    expect(identWeight('_private_name', none, 1)).toBeCloseTo(1);
    expect(identWeight('helper', none, 6)).toBeCloseTo(0.1);
    expect(identWeight('helper', none, 5)).toBe(1);
    expect(identWeight('12345678', none, 1)).toBe(1);
  });
});

describe('aider-repomap: shows definitions and lays out as Aider does', () => {
  it("an outline form's declarations are definitions, as Aider's tree-sitter tags are", () => {
    // Two files, each a full text and an outline; one outline declares parseWidget, which the
    // caller references twice. The declaring file must rank first whichever of the two it is:
    // read without the declarations, neither is referenced and the tie-break always picks b.
    const file = (id: string, declares: string) => [
      cand(`${id}-full`, { content_identity: id, content: `${id} body`, token_count: 50 }),
      cand(`${id}-outline`, {
        content_identity: id,
        representation_id: 'outline',
        form_rank: 2,
        is_default_form: false,
        content: `File: ${id} (outline)\n3: export function ${declares}(text: string): Widget`,
      }),
    ];
    const caller = user('caller', 'parseWidget', 'parseWidget');
    expect(topFile(input(10_000, [...file('a', 'parseWidget'), ...file('b', 'other'), caller]))).toBe('a');
    expect(topFile(input(10_000, [...file('a', 'other'), ...file('b', 'parseWidget'), caller]))).toBe('b');
  });

  it('takes the outline, anchor or summary form where a content has one', () => {
    const pool = [
      cand('inc-full', { content_identity: 'inc', token_count: 900 }),
      cand('inc-anchor', {
        content_identity: 'inc',
        representation_id: 'anchor',
        form_rank: 1,
        is_default_form: false,
      }),
    ];
    expect(admission(input(10_000, pool)).admitted).toEqual(['inc-anchor']);
  });

  it('lays the map out by file name, as to_tree sorts it, whatever the rank', () => {
    const pool = [def('def-a', 'helper'), def('def-z', 'widget'), user('caller', 'widget')];
    const a = admission(input(10_000, pool));
    expect(topFile(input(10_000, pool))).toBe('def-z');
    expect(a.layout).toBe('own');
    expect(a.admitted).toEqual(['caller', 'def-a', 'def-z']);
  });
});

describe('aider-repomap: deterministic', () => {
  it('same pool in any order, same bytes', () => {
    const pool = [
      def('def-a', 'helper'),
      def('def-z', 'widget'),
      user('caller', 'helper', 'widget', 'widget'),
    ];
    const once = JSON.stringify(aider.assemble(input(60, pool)));
    expect(JSON.stringify(aider.assemble(input(60, pool)))).toBe(once);
    expect(JSON.stringify(aider.assemble(input(60, [...pool].reverse())))).toBe(once);
  });
});

describe('aider-repomap: every reference case and budget runs', () => {
  const cells = referenceInputs(0).map(({ label, input }) => ({ name: label, i: input }));

  it('a bundle in every cell, never over by 15% or more, the same on a second run', () => {
    let over = 0;
    for (const { name, i } of cells) {
      const out = asBundle(measured(aider, i));
      expect((out.renderedTokens - i.budget) / i.budget, name).toBeLessThan(0.15);
      if (out.renderedTokens > i.budget) over += 1;
      expect(JSON.stringify(aider.assemble(i)), name).toBe(JSON.stringify(aider.assemble(i)));
    }
    // Not clamped: Aider's tolerance shows on the reference corpora.
    expect(over).toBeGreaterThan(0);
  });

  it('a generated 200-candidate agent pool, every budget', () => {
    const g = generateCase('aider-repomap-1', 200, 'agent-200', 'agent');
    for (const b of BUDGETS) {
      const out = measured(aider, inputAt(g, b));
      expect(out.outcome, b).toBe('bundle');
    }
  });
});

describe('aider-repomap: texts built to make its expressions backtrack', () => {
  // A keyword before a long run of spaces and no name, in an outline; a task word of a long run of
  // the punctuation Aider strips. The old expressions took time quadratic in the run: hours here.
  // A regression does not make this test slow: it never ends.
  it('reads an outline and a task of millions of spaces and commas in one pass', () => {
    const run = 2_000_000;
    const outline = cand('a.ts#outline', {
      representation_id: 'outline',
      content: `File: a.ts (outline)\n1: function${' '.repeat(run)}!\n2: function helper()`,
    });
    const out = admission(input(10_000, [outline, task(`fix ${','.repeat(run)}x helper${'.'.repeat(run)}`)]));
    expect(out.admitted).toContain('a.ts#outline');
  });
});
