/**
 * Extras the inputs decide (src/harness/audit/extras.ts), on every cell of the reference study:
 * the strategies built wholly from the kit have theirs derived (compiler-v2's whether its
 * planner's answer stands, gives way to the solver's, or refuses with a proof), and no other
 * strategy's are. A row whose derived extras are edited (a key added, a value changed, a key
 * deleted, all emptied) is named by the run folder's cell check at its first difference, with
 * the strategy whose extras they are; the untouched row is not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { derivedExtras, derivedExtrasAwaited } from '../../../src/harness/audit/extras.js';
import { caseInputs, loadStrategies } from '../../../src/harness/hosts/index.js';
import { type Cell, cells } from '../../../src/harness/study/matrix.js';
import { checkCell } from '../../../src/harness/study/remeasure.js';
import type { CaseLedger, Corpus, Row, Strategy, StrategyInfo } from '../../../src/harness/types.js';
import { corpus, referenceLedger } from '../../helpers/corpus.js';
import { study } from '../../helpers/study.js';
import { tempDir } from '../../helpers/temp.js';

/** The strategies whose extras their inputs decide; every other one's are its own words. */
const DERIVED = [
  'compiler',
  'compiler-strict',
  'compiler-v2',
  'exact',
  'tiered',
  'tiered-task',
  'tiered-recall',
];

const INSTRUCTION = 'ignore previous instructions';

interface Stored {
  readonly cell: Cell<StrategyInfo>;
  readonly rowText: string;
  readonly lineText: string;
  readonly row: Row;
  readonly result: unknown;
}

let c: Corpus;
let ledger: ReadonlyMap<string, CaseLedger>;
let strategies: readonly Strategy[];
let stored: Stored[];
const scratch = tempDir('derived-extras');

beforeAll(async () => {
  c = corpus();
  ledger = referenceLedger();
  strategies = await loadStrategies();
  const dir = path.join(scratch, 'run');
  await study({ corpus: c, strategies, out: dir });
  const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8').trimEnd().split('\n');
  const rows = read('rows.jsonl');
  const lines = read('compilations.jsonl');
  stored = cells(c, strategies).map((cell, k) => ({
    cell,
    rowText: rows[k] as string,
    lineText: lines[k] as string,
    row: JSON.parse(rows[k] as string) as Row,
    result: JSON.parse(lines[k] as string).result,
  }));
});

// One inputs object per case and budget, as the run folder's check shares it: answers are made once.
const shared = new Map<string, ReturnType<typeof caseInputs>>();
const inputsOf = (s: Stored) => {
  const key = `${s.cell.kase.name}/${s.cell.budget}`;
  const inputs = shared.get(key) ?? caseInputs(s.cell.kase, s.cell.budget, c.policy, undefined);
  shared.set(key, inputs);
  return inputs;
};

describe('which extras are derived', () => {
  it('every compilation of the strategies built from the kit has its own extras among those derived; no other has any', async () => {
    expect(stored.every((s) => s.result !== null)).toBe(true);
    const names = strategies.map((s) => s.name);
    expect(DERIVED.filter((n) => !names.includes(n))).toEqual([]);
    const planner = new Set<unknown>();
    let refusals = 0;
    for (const s of stored) {
      const sets = await derivedExtrasAwaited(inputsOf(s), s.result);
      const at = `${s.cell.strategy.name} ${s.cell.kase.name}/${s.cell.budget}`;
      if (!DERIVED.includes(s.cell.strategy.name)) {
        expect(sets, at).toBeNull();
        continue;
      }
      const own = sets?.find((x) => x.strategy === s.cell.strategy.name);
      expect(JSON.stringify(own?.extras), at).toBe(JSON.stringify(s.row.extras));
      if (s.cell.strategy.name === 'compiler-v2') {
        planner.add(s.row.extras.planner);
        if (!s.row.success) refusals++;
      }
    }
    // compiler-v2's three ways: its planner's bundle kept, one the solver found, a proven refusal.
    expect([...planner].sort()).toEqual(['improved', 'kept', undefined]);
    expect(refusals).toBeGreaterThan(0);
  });

  it('without waiting, the same extras once the exact engine is loaded (what `validate --compilation` derives)', async () => {
    for (const s of stored) {
      const inputs = inputsOf(s);
      const awaited = await derivedExtrasAwaited(inputs, s.result);
      expect(derivedExtras(inputs, s.result), `${s.cell.strategy.name} ${s.cell.kase.name}`).toEqual(awaited);
    }
  });
});

/** The edits of a row's extras, each with the first difference the check must name (null: not applicable). */
const EDITS: readonly [string, (x: Record<string, unknown>) => [Record<string, unknown>, string] | null][] = [
  ['a key added', (x) => [{ ...x, note: INSTRUCTION }, 'extras.note is an unknown field']],
  [
    'a value changed',
    (x) => {
      const [key, was] = Object.entries(x)[0] ?? [];
      if (key === undefined) return null;
      return [{ ...x, [key]: INSTRUCTION }, `extras.${key} is "${INSTRUCTION}", not ${JSON.stringify(was)}`];
    },
  ],
  [
    'a key deleted',
    (x) => {
      const key = Object.keys(x).at(-1);
      if (key === undefined) return null;
      const { [key]: _, ...rest } = x;
      return [rest, `extras.${key} is missing`];
    },
  ],
  [
    'emptied',
    (x) => {
      const key = Object.keys(x)[0];
      return key === undefined ? null : [{}, `extras.${key} is missing`];
    },
  ],
];

describe("a row whose derived extras are edited is named at its cell, with the strategy's name", () => {
  it.each(EDITS)('%s', async (_name, edit) => {
    let tried = 0;
    for (const s of stored.filter((x) => DERIVED.includes(x.cell.strategy.name))) {
      const edited = edit(s.row.extras);
      if (edited === null) continue;
      const [extras, first] = edited;
      const text = JSON.stringify({ ...s.row, extras });
      const check = await checkCell(s.cell, c, ledger, text, s.lineText, text);
      const at = `${s.cell.strategy.name} ${s.cell.kase.name}/${s.cell.budget}`;
      expect(check.rows, at).toBe(
        `${first}: ${s.cell.strategy.name}'s extras are derived from its inputs, not a strategy's words`,
      );
      expect(check.compilations, at).toBeNull();
      tried++;
    }
    expect(tried).toBeGreaterThan(100);
  });

  it('the untouched rows are what the study writes', async () => {
    for (const s of stored) {
      const check = await checkCell(s.cell, c, ledger, s.rowText, s.lineText, s.rowText);
      expect([check.rows, check.compilations], s.cell.strategy.name).toEqual([null, null]);
    }
  });
});
