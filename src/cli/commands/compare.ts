import {
  anythingChanged,
  type Change,
  type Comparison,
  compareRuns,
  comparisonPage,
  DEFAULT_SEED,
  type Side,
  type StrategyDelta,
  strategiesPage,
  strategyPair,
  testsNote,
  testsTable,
  type Value,
} from '../../harness/compare/index.js';
import { UsageError } from '../../harness/errors.js';
import { count, DIGITS, fixed, int, signed } from '../../harness/format.js';
import { type Figure, figuresOf } from '../../harness/metrics/index.js';
import { guardOutput, writeFileAtomic } from '../../harness/output/index.js';
import { type Cell, isDataFormat, type Table, type TableFormat } from '../../harness/report/index.js';
import { RUN_FILE, type RunFolder, readRunFolder, runInputs } from '../../harness/runfolder/index.js';
import { defineCommand, formatOption, oneOutput, tableOutput } from '../command.js';
import { EXIT } from '../io.js';

/** Compare two run folders compilation by compilation, and each strategy's headline figures. */
export const compare = defineCommand({
  examples: [
    ['$0 compare runs/before runs/after', 'what changed between two runs'],
    ['$0 compare runs/before runs/after --json --fail-on-change', 'as JSON; exit 1 if anything changed'],
    [
      '$0 compare runs/before runs/after --format csv > headline.csv',
      'the headline per strategy alone as CSV (the changes go to stderr)',
    ],
    ['$0 compare runs/mine --strategies topk,compiler', 'two strategies of one run, cell by cell'],
    ['$0 compare runs/a runs/b --table tests --format csv', 'every paired test as CSV'],
    ['$0 compare runs/a runs/b --html both.html', 'also the report page of the two runs side by side'],
  ],
  options: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'run folder A (before)' })
      .positional('b', {
        type: 'string',
        describe: 'run folder B (after); left out with --strategies, which compares two strategies of run A',
      })
      .option('strategies', {
        type: 'string',
        describe: 'a,b: strategy a against strategy b in the one run given, paired by case and budget',
      })
      .option('seed', {
        type: 'string',
        default: DEFAULT_SEED,
        describe: 'seeds the bootstrap intervals: the same runs and seed give the same bytes',
      })
      .option('table', {
        choices: ['headline', 'tests'] as const,
        default: 'headline' as 'headline' | 'tests',
        describe:
          'which table --format csv or json prints: the headline per strategy, or every paired test (text and md print both)',
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'the whole comparison as one JSON document (--format json prints the headline table alone)',
      })
      .option('format', {
        ...formatOption,
        describe: `${formatOption.describe}; under csv and json each figure is three numbers, "<figure> before", "<figure> after" and "<figure> delta" (docs/compare.md)`,
      })
      .option('html', {
        type: 'string',
        describe: `also write ${RUN_FILE.html}'s page for the two sides, each strategy as '<name> (A)' and '<name> (B)' (with --strategies, the run's page of the two)`,
      })
      .option('fail-on-change', {
        type: 'boolean',
        default: false,
        describe:
          'exit 1 when a compilation changed or is held by one run only (one whose extras or objective alone moved has not changed)',
      }),
  run: async (a, { io }) => {
    oneOutput(a.json, a.format);
    if (a.html !== undefined) {
      const runs = [a.a as string, ...(a.b === undefined ? [] : [a.b])];
      const inputs = runs.flatMap(runInputs);
      guardOutput({ path: a.html, kind: 'file', option: '--html', inputs });
    }
    const sides = sidesOf(a.a as string, a.b, a.strategies);
    const c = compareRuns(...sides.runs, a.seed);
    if (a.html !== undefined) {
      writeFileAtomic(a.html, await sides.page());
      io.err(`compare: the page of both written to ${a.html}\n`);
    }
    if (a.json) io.out(`${JSON.stringify(c, null, 2)}\n`);
    else {
      const out = tableOutput(io, a.format);
      out.note(comparisonText(c));
      const tests = () => {
        out.note(testsNote(c));
        out.table(testsTable(c, a.format));
      };
      // A program reading a table gets it even when it is empty, and nothing else on stdout.
      if (isDataFormat(a.format)) {
        if (a.table === 'tests') tests();
        else out.table(deltaTable(c, a.format));
      } else if (c.headline.length > 0) {
        out.table(deltaTable(c, a.format));
        tests();
      }
    }
    return a.failOnChange && anythingChanged(c) ? EXIT.checkFailed : EXIT.ok;
  },
});

/** The two sides, two run folders or two strategies of one, and the report page of them. */
function sidesOf(
  a: string,
  b: string | undefined,
  strategies: string | undefined,
): { readonly runs: readonly [RunFolder, RunFolder]; readonly page: () => Promise<string> } {
  if (strategies === undefined) {
    if (b === undefined) throw new UsageError('name two run folders, or one with --strategies a,b');
    const runs = [readRunFolder(a), readRunFolder(b)] as const;
    return { runs, page: () => comparisonPage(...runs) };
  }
  if (b !== undefined)
    throw new UsageError('--strategies compares two strategies of one run: give one run folder');
  const names = strategies.split(',');
  const [x, y] = names;
  if (names.length !== 2 || x === undefined || y === undefined || x === '' || y === '' || x === y)
    throw new UsageError(`--strategies takes two different strategies, a,b, not "${strategies}"`);
  const run = readRunFolder(a);
  const held = new Set(run.rows.map((r) => r.strategy));
  const missing = names.filter((n) => !held.has(n));
  if (missing.length > 0)
    throw new UsageError(
      `${a} holds no rows of ${missing.join(', ')} (it holds ${[...held].join(', ') || 'no rows'})`,
    );
  return { runs: strategyPair(run, x, y), page: () => strategiesPage(run, x, y) };
}

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
