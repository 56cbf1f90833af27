/**
 * `compare`'s text for people: the summary line, the corpus and policy when they differ, every
 * changed compilation, and the headline table per strategy (for programs, three numbers a figure).
 */
import { count, DIGITS, fixed, int, signed } from '../format.js';
import { type Figure, figuresOf } from '../metrics/index.js';
import { type Cell, isDataFormat, type Table, type TableFormat } from '../report/index.js';
import {
  anythingChanged,
  type Change,
  type Comparison,
  type Side,
  type StrategyDelta,
  type Value,
} from './runs.js';
import { testsNote, testsTable } from './tests-table.js';

const list = (xs: readonly string[]) => xs.join(', ');

/** What a side holds alone, as parts of the summary line. */
function onlyParts(name: 'A' | 'B', s: Side): string[] {
  const parts: string[] = [];
  if (s.only.strategies.length > 0) parts.push(`strategies only in ${name}: ${list(s.only.strategies)}`);
  if (s.only.cases.length > 0) parts.push(`cases only in ${name}: ${list(s.only.cases)}`);
  if (s.only.compilations.length > 0)
    parts.push(`${count(s.only.compilations.length, 'other compilation')} only in ${name} (listed below)`);
  return parts;
}

const corpusText = (s: Side) =>
  `corpus ${s.corpus.name}${s.corpus.digest === null ? '' : ` (digest ${s.corpus.digest.slice(0, 12)})`}, ${count(s.corpus.cases, 'case')}`;

/** A value of a changed field; `digits` are the places of both sides' numbers, so that they line up. */
function valueText(field: string, v: Value, digits: number): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return field === 'bundle_hash' ? v.slice(0, 12) : v;
  if (typeof v === 'number') return fixed(v, digits);
  if (typeof v === 'boolean') return String(v);
  return `[${v.join(' ')}]`;
}

/** Counts as counts; a field with a fraction on either side is a score on both (`1.0000 → 0.6000`). */
const digitsOf = (...values: Value[]) =>
  values.some((v) => typeof v === 'number' && !Number.isInteger(v)) ? DIGITS.score : DIGITS.count;

function changeText(c: Change): string {
  switch (c.kind) {
    case 'outcome':
      return `outcome ${c.a} → ${c.b}`;
    case 'admitted': {
      const moved = [...c.removed.map((id) => `-${id}`), ...c.added.map((id) => `+${id}`)];
      return moved.length === 0 ? 'admitted reordered' : `admitted ${moved.join(' ')}`;
    }
    case 'value':
      return `${c.field} ${valueText(c.field, c.a, digitsOf(c.a, c.b))} → ${valueText(c.field, c.b, digitsOf(c.a, c.b))}`;
    case 'extras':
      return `extras differ at ${c.at}`;
  }
}

/** One headline cell for people: the figure when it held, else `A → B (delta)`. */
function cell(d: StrategyDelta, f: Figure): Cell {
  const digits = DIGITS[f.kind];
  const [a, b] = [d.a[f.name] ?? null, d.b[f.name] ?? null];
  const [x, y] = [fixed(a, digits), fixed(b, digits)];
  return x === y ? a : `${x} → ${y} (${signed(d.delta[f.name] ?? null, digits)})`;
}

/**
 * Each strategy's figures of the catalogue's compare table, over the compilations both runs hold.
 * For people (text, md) a figure that moved reads `A → B (delta)`; for programs (csv, json) every
 * figure is three numbers, `<figure> before`, `<figure> after` and `<figure> delta`.
 */
export function deltaTable(c: Comparison, format: TableFormat = 'text'): Table {
  const figures = figuresOf('compare');
  const counts = ['compilations', 'changed', 'extras only'];
  const countsOf = (d: StrategyDelta) => [d.compilations, d.changed, d.extras_only];
  if (!isDataFormat(format))
    return {
      headers: ['strategy', ...counts.slice(0, 2), ...figures.map((f) => f.label)],
      rows: c.headline.map((d) => [
        d.strategy,
        ...countsOf(d).slice(0, 2),
        ...figures.map((f) => cell(d, f)),
      ]),
      kinds: [undefined, 'count', 'count', ...figures.map((f) => f.kind)],
    };
  const sides = ['before', 'after', 'delta'] as const;
  return {
    headers: ['strategy', ...counts, ...figures.flatMap((f) => sides.map((side) => `${f.label} ${side}`))],
    rows: c.headline.map((d) => [
      d.strategy,
      ...countsOf(d),
      ...figures.flatMap((f) => [d.a[f.name] ?? null, d.b[f.name] ?? null, d.delta[f.name] ?? null]),
    ]),
  };
}

/** The summary line, the corpus and policy in a line each when they differ, the changes, the headline's heading. */
export function comparisonText(c: Comparison): string {
  const { shared, changed, extras_only } = c.compilations;
  const head =
    shared === 0
      ? 'compare: the runs hold no compilation in common'
      : !anythingChanged(c)
        ? `compare: nothing changed: 0 of ${count(shared, 'compilation')}`
        : `compare: ${int(changed)} of ${count(shared, 'compilation')} changed`;
  const beside =
    extras_only === 0
      ? []
      : [
          `${int(extras_only)} more ${extras_only === 1 ? 'differs' : 'differ'} in extras or objective only (listed below)`,
        ];
  const out = [[head, ...beside, ...onlyParts('A', c.a), ...onlyParts('B', c.b)].join('; ')];
  out.push(`A: ${c.a.run}: ${corpusText(c.a)}, ${count(c.a.compilations, 'compilation')}`);
  out.push(`B: ${c.b.run}: ${corpusText(c.b)}, ${count(c.b.compilations, 'compilation')}`);
  if (!c.same_corpus)
    out.push(
      `different corpora: A is a run of ${corpusText(c.a)}, B of ${corpusText(c.b)}; only the compilations both hold are compared`,
    );
  if (c.same_policy === false)
    out.push(
      `different policies: the manifests of A and B differ in ${c.policy_fields.length === 0 ? 'the policy' : list(c.policy_fields)}`,
    );
  for (const [name, s] of [
    ['A', c.a],
    ['B', c.b],
  ] as const)
    if (s.only.compilations.length > 0)
      out.push('', `only in ${name}:`, ...s.only.compilations.map((id) => `  ${id}`));
  if (c.changes.length > 0) {
    out.push('', 'changed compilations (A → B):');
    for (const x of c.changes)
      out.push(`${x.case}/${x.budget}/${x.strategy}: ${x.changes.map(changeText).join('; ')}`);
  }
  if (c.extras_only.length > 0) {
    out.push('', 'same bundle and scores, extras or objective changed (not counted as changed):');
    for (const x of c.extras_only)
      out.push(`${x.case}/${x.budget}/${x.strategy}: ${x.changes.map(changeText).join('; ')}`);
  }
  if (c.headline.length > 0)
    out.push('', `headline per strategy over the ${count(shared, 'compilation')} both hold (A → B):`);
  return `${out.join('\n')}\n`;
}

/** A part of what `compare` prints: lines for people, or a table in the format asked for. */
export type Printed = { readonly note: string } | { readonly table: Table };

/**
 * What `compare` prints but its JSON document, in order. For people (text, md) the text, then the
 * headline and the paired tests when any strategy is compared; for programs (csv, json) the text
 * and the one table `table` names, printed even when it is empty.
 */
export function comparisonParts(c: Comparison, format: TableFormat, table: 'headline' | 'tests'): Printed[] {
  const parts: Printed[] = [{ note: comparisonText(c) }];
  const tests = (): Printed[] => [{ note: testsNote(c) }, { table: testsTable(c, format) }];
  if (isDataFormat(format)) parts.push(...(table === 'tests' ? tests() : [{ table: deltaTable(c, format) }]));
  else if (c.headline.length > 0) parts.push({ table: deltaTable(c, format) }, ...tests());
  return parts;
}
