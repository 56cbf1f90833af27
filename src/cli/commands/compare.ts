import {
  anythingChanged,
  type Change,
  type Comparison,
  compareRuns,
  HEADLINE,
  type Side,
  type StrategyDelta,
  type Value,
} from '../../harness/checks/compare.js';
import { readRunFolder } from '../../harness/checks/read-run.js';
import { fixed, int, signed } from '../../harness/report/format.js';
import { textTable } from '../../harness/report/table.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/** Compare two run folders compilation by compilation, and each strategy's headline figures. */
export const compare = defineCommand({
  examples: [
    ['$0 compare runs/before runs/after', 'what changed between two runs'],
    ['$0 compare runs/before runs/after --json --fail-on-change', 'as JSON; exit 1 if anything changed'],
  ],
  options: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'run folder A (before)' })
      .positional('b', { type: 'string', demandOption: true, describe: 'run folder B (after)' })
      .option('json', { type: 'boolean', default: false, describe: 'one JSON document instead of tables' })
      .option('fail-on-change', {
        type: 'boolean',
        default: false,
        describe: 'exit 1 when a compilation changed or is held by one run only',
      })
      .example('$0 compare runs/before runs/after --fail-on-change', ''),
  run: (a, { io }) => {
    const c = compareRuns(readRunFolder(a.a as string), readRunFolder(a.b as string));
    io.out(a.json ? `${JSON.stringify(c, null, 2)}\n` : comparisonText(c));
    return a.failOnChange && anythingChanged(c) ? EXIT.checkFailed : EXIT.ok;
  },
});

const list = (xs: readonly string[]) => xs.join(', ');

/** What a side holds alone, as parts of the summary line. */
function onlyParts(name: 'A' | 'B', s: Side): string[] {
  const parts: string[] = [];
  if (s.only.strategies.length > 0) parts.push(`strategies only in ${name}: ${list(s.only.strategies)}`);
  if (s.only.cases.length > 0) parts.push(`cases only in ${name}: ${list(s.only.cases)}`);
  if (s.only.compilations.length > 0)
    parts.push(`${s.only.compilations.length} other compilations only in ${name} (listed below)`);
  return parts;
}

const corpusText = (s: Side) =>
  `corpus ${s.corpus.name}${s.corpus.digest === null ? '' : ` (digest ${s.corpus.digest.slice(0, 12)})`}, ${int(s.corpus.cases)} cases`;

function valueText(field: string, v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return field === 'bundle_hash' ? v.slice(0, 12) : v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(4)));
  if (typeof v === 'boolean') return String(v);
  return `[${v.join(' ')}]`;
}

function changeText(c: Change): string {
  switch (c.kind) {
    case 'outcome':
      return `outcome ${c.a} → ${c.b}`;
    case 'admitted': {
      const moved = [...c.removed.map((id) => `-${id}`), ...c.added.map((id) => `+${id}`)];
      return moved.length === 0 ? 'admitted reordered' : `admitted ${moved.join(' ')}`;
    }
    case 'value':
      return `${c.field} ${valueText(c.field, c.a)} → ${valueText(c.field, c.b)}`;
    case 'extras':
      return `extras differ at ${c.at}`;
  }
}

const DIGITS: Readonly<Record<(typeof HEADLINE)[number], number>> = {
  correct: 0,
  refusals: 0,
  errors: 0,
  illegal: 0,
  violations: 0,
  distractor: 0,
  harmful: 0,
  must_recall: 3,
  rendered_tokens: 0,
};

const figure = (n: number | null, digits: number) =>
  n === null ? '-' : digits === 0 ? int(n) : fixed(n, digits);

/** One headline cell: the figure when it held, else `A → B (delta)`. */
function cell(d: StrategyDelta, k: (typeof HEADLINE)[number]): string {
  const x = d.a[k];
  const y = d.b[k];
  const digits = DIGITS[k];
  if (figure(x, digits) === figure(y, digits)) return figure(x, digits);
  return `${figure(x, digits)} → ${figure(y, digits)} (${signed(d.delta[k], digits)})`;
}

/** The summary line, the corpus and policy in a line each when they differ, the changes, the headline. */
export function comparisonText(c: Comparison): string {
  const { shared, changed } = c.compilations;
  const head =
    shared === 0
      ? 'compare: the runs hold no compilation in common'
      : !anythingChanged(c)
        ? `compare: nothing changed: 0 of ${int(shared)} compilations`
        : `compare: ${int(changed)} of ${int(shared)} compilations changed`;
  const out = [[head, ...onlyParts('A', c.a), ...onlyParts('B', c.b)].join('; ')];
  out.push(`A: ${c.a.run}: ${corpusText(c.a)}, ${int(c.a.compilations)} compilations`);
  out.push(`B: ${c.b.run}: ${corpusText(c.b)}, ${int(c.b.compilations)} compilations`);
  if (!c.same_corpus)
    out.push(
      `different corpora: A is a run of ${corpusText(c.a)}, B of ${corpusText(c.b)}; only the compilations both hold are compared`,
    );
  if (c.same_policy === false)
    out.push('different policies: the manifests of A and B record different policies');
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
  if (c.headline.length > 0) {
    out.push('', `headline per strategy over the ${int(shared)} compilations both hold (A → B):`);
    const headers = ['strategy', 'compilations', 'changed', ...HEADLINE.map((k) => k.replace('_', ' '))];
    const rows = c.headline.map((d) => [
      d.strategy,
      int(d.compilations),
      int(d.changed),
      ...HEADLINE.map((k) => cell(d, k)),
    ]);
    out.push(textTable(headers, rows, ['left', ...headers.slice(1).map(() => 'right' as const)]).trimEnd());
  }
  return `${out.join('\n')}\n`;
}
