/**
 * Every text a strategy can put in a row, a compilation or a message is cut at TEXT_CAP
 * characters, with a marker saying how much was cut: its error message (thrown, forged or made
 * of the ids it sent), a refusal's reason, diagnostic and blocking ids, and the words of its
 * trace. The cut is the same for the same text, and a cut row measured again from its run folder
 * (`validate`, `--resume`) comes out as the study wrote it.
 */
import { describe, expect, it } from 'vitest';
import { cutMessage, cutText } from '../../../src/harness/hosts/answer-rules.js';
import { compileAnswer } from '../../../src/harness/session/measure-answer.js';
import { cells, finishCell } from '../../../src/harness/study/matrix.js';
import { checkCell } from '../../../src/harness/study/remeasure.js';
import type { Selection, Strategy, StrategyInput } from '../../../src/harness/types.js';
import { measured } from '../../helpers/compiled.js';
import { corpus, referenceLedger } from '../../helpers/corpus.js';
import { TEXT_CAP } from '../../helpers/limits.js';
import { cand, policy, req } from '../../helpers/pool.js';

const LONG = 5_000_000;
const MARKER = / …\[(\d+) more characters cut\]$/;

/** What a cut text keeps of `whole`, checked: a prefix of it, the marker counting the rest. */
function expectCut(cut: string, whole: string): void {
  expect(cut.length).toBeLessThanOrEqual(TEXT_CAP);
  const m = MARKER.exec(cut);
  expect(m, cut.slice(-60)).not.toBeNull();
  const kept = cut.slice(0, cut.length - (m?.[0].length ?? 0));
  expect(whole.startsWith(kept)).toBe(true);
  expect(kept.length + Number(m?.[1])).toBe(whole.length);
}

const input = (): StrategyInput => ({
  request: req(1000),
  candidates: [cand('a'), cand('b')],
  policy: policy(),
  budget: 1000,
});

const answer = (selection: unknown) =>
  compileAnswer('zz', input(), { ok: true, text: JSON.stringify(selection) });

describe('cutText', () => {
  it('keeps a text up to the cap as it is, and cuts a longer one to the cap with a marker', () => {
    const at = 'a'.repeat(TEXT_CAP);
    expect(cutText(at)).toBe(at);
    const over = `${at}b`;
    expectCut(cutText(over), over);
    const long = 'x'.repeat(LONG);
    expectCut(cutText(long), long);
    expect(cutText(long)).toBe(cutText('x'.repeat(LONG)));
    // A cut text is kept as it is: measuring a row again cuts nothing more.
    expect(cutText(cutText(long))).toBe(cutText(long));
  });

  it('never keeps half of a surrogate pair', () => {
    for (let shift = 0; shift < 4; shift++) {
      const text = `${'a'.repeat(shift)}${'😀'.repeat(TEXT_CAP)}`;
      const kept = cutText(text).replace(MARKER, '');
      // A lone high surrogate at the end is what a cut between the two halves leaves.
      expect(kept).not.toMatch(/[\uD800-\uDBFF]$/);
      expectCut(cutText(text), text);
    }
  });

  it('a message is one line before it is cut, and stays as it is when cut again', () => {
    const forged = `boom\nctxbench: 0 error rows\r${'y'.repeat(LONG)}`;
    const message = cutMessage(forged);
    expect(message).not.toMatch(/[\n\r]/);
    expect(message.startsWith('boom\\nctxbench: 0 error rows\\r')).toBe(true);
    expect(message.length).toBeLessThanOrEqual(TEXT_CAP);
    expect(cutMessage(message)).toBe(message);
  });
});

describe('what a strategy sends is cut where it enters a row', () => {
  it('a failed answer with a message of millions of characters', () => {
    const out = compileAnswer('zz', input(), { ok: false, message: 'm'.repeat(LONG) });
    expect(out.outcome).toBe('error');
    if (out.outcome !== 'error') return;
    expectCut(out.message, 'm'.repeat(LONG));
    expect(out.extras.error).toBe(out.message);
  });

  it('an unknown id of millions of characters', () => {
    const id = 'q'.repeat(LONG);
    const out = answer({ admitted: ['a', id] });
    expect(out.outcome).toBe('error');
    if (out.outcome !== 'error') return;
    expectCut(out.message, `zz returned a malformed selection: unknown ids ${id}`);
  });

  it("a refusal's reason, diagnostic and blocking ids, and every word of its trace", () => {
    const [reason, diagnostic, blocking, detail] = ['R', 'D', 'B', 'T'].map((c) =>
      c.repeat(LONG),
    ) as string[];
    const entry = {
      candidate_id: 'a',
      content_identity: 'a',
      representation_id: 'full',
      decision: 'REJECTED_HARD',
      reason_code: 'C'.repeat(LONG),
      reason_detail: detail,
      priority_band: 'P'.repeat(LONG),
      relevance: 0,
      marginal_cost: 0,
      dependency_closure: ['d'.repeat(LONG)],
      pulled_in_by: ['p'.repeat(LONG)],
      budget_before: 0,
      budget_after: 0,
      position: null,
    };
    const out = answer({ refusal: { reason, diagnostic, blocking_ids: [blocking] }, trace: [entry] });
    expect(out.outcome).toBe('refusal');
    if (out.outcome !== 'refusal') return;
    const failure = out.result.failure as { reason: string; diagnostic: string; blocking_ids: string[] };
    expectCut(out.reason, reason as string);
    expectCut(failure.reason, reason as string);
    expectCut(failure.diagnostic, diagnostic as string);
    expectCut(failure.blocking_ids[0] as string, blocking as string);
    const written = (out.result.trace as { entries: Record<string, unknown>[] }).entries[0] ?? {};
    for (const key of ['reason_code', 'reason_detail', 'priority_band'])
      expectCut(written[key] as string, entry[key as keyof typeof entry] as string);
    expectCut((written.dependency_closure as string[])[0] as string, entry.dependency_closure[0] as string);
    expectCut((written.pulled_in_by as string[])[0] as string, entry.pulled_in_by[0] as string);
    expect(JSON.stringify(out.result).length).toBeLessThan(12 * TEXT_CAP);
  });
});

describe('a run folder of cut texts is what the study writes', () => {
  const long = (c: string) => c.repeat(100_000);
  /** Throws a long message, refuses in long words or admits nothing, by the budget's remainder. */
  const wordy: Strategy = {
    name: 'zz-wordy',
    description: 'long words',
    assemble(i: StrategyInput): Selection {
      if (i.budget % 3 === 0) throw new Error(long('e'));
      if (i.budget % 3 === 1)
        return { refusal: { reason: long('R'), diagnostic: long('D'), blocking_ids: [long('B')] } };
      return { admitted: [] };
    },
  };

  it('every cell of the reference study re-derives from its line and row, byte for byte', async () => {
    const c = corpus();
    const ledger = referenceLedger();
    const seen = new Set<string>();
    for (const cell of cells(c, [wordy])) {
      const { row, compilation } = finishCell(cell, c, ledger, (i) => measured(wordy, i));
      const rowText = JSON.stringify(row);
      expect(rowText.length).toBeLessThan(4 * TEXT_CAP);
      seen.add(row.reason === null ? 'bundle' : row.reason === 'STRATEGY_ERROR' ? 'error' : 'refusal');
      const check = await checkCell(cell, c, ledger, rowText, JSON.stringify(compilation), rowText);
      expect([check.rows, check.compilations]).toEqual([null, null]);
    }
    expect([...seen].sort()).toEqual(['bundle', 'error', 'refusal']);
  });
});
