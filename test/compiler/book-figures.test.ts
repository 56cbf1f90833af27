import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, inputFlags } from '../helpers/cli.js';
import { CORPUS_DIR } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('figures');

type Entry = { candidate_id: string; decision: string; budget_before: number; budget_after: number };

/** The book's figures, as `ctxbench compile` prints them for a case at a budget. */
async function compile(name: string, budget: number) {
  const request = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, `${name}.request.json`), 'utf8'));
  const file = path.join(tmp, `${name}-${budget}.json`);
  fs.writeFileSync(file, JSON.stringify({ ...request, usable_token_budget: budget }));
  const { code, stdout } = await cli(
    'compile',
    ...inputFlags(file, path.join(CORPUS_DIR, `${name}.candidates.json`)),
  );
  expect(code).toBe(0);
  const out = JSON.parse(stdout);
  const entries = out.result.trace.entries as Entry[];
  const spent = (id: string) => {
    const e = entries.find((x) => x.candidate_id === id)!;
    return e.budget_before - e.budget_after;
  };
  return { out, entries, spent, admitted: (out.bundle?.layout_trace ?? []) as string[] };
}

describe('the figures the book quotes come out of compile', () => {
  it('the reference costs 670 with its resolver (dependency-trap, tight)', async () => {
    const { spent, admitted } = await compile('dependency-trap', 900);
    expect(spent('ref-cheap')).toBe(670);
    expect(admitted).toContain('resolver-tool');
  });

  it('two references sharing a resolver cost 345 together (shared-dependency)', async () => {
    const { spent } = await compile('shared-dependency', 900);
    expect(spent('ref-a') + spent('ref-b')).toBe(345);
  });

  it('265 tokens spent of a 3,000 budget (budget-slack, roomy)', async () => {
    const { out } = await compile('budget-slack', 3000);
    expect(out.result.bundle_tokens).toBe(265);
  });

  it('the render overrun repaired down to 111 (rendered-overflow, tight)', async () => {
    const { out, entries } = await compile('rendered-overflow', 250);
    expect(out.result.bundle_tokens).toBe(111);
    expect(entries.find((e) => e.candidate_id === 'disc-a')).toMatchObject({ decision: 'REJECTED_BUDGET' });
  });

  it('the mandatory overflow is refused naming mand-b with 2,000 used', async () => {
    const { out } = await compile('mandatory-overflow', 4000);
    expect(out.bundle).toBeNull();
    expect(out.result.failure).toMatchObject({
      reason: 'INSUFFICIENT_BUDGET',
      blocking_ids: ['mand-b'],
      budget_used: 2000,
    });
  });

  it.each([550, 2000])('the anchor is chosen at %i (representation-alternatives)', async (budget) => {
    const { admitted } = await compile('representation-alternatives', budget);
    expect(admitted).toContain('inc-anchor');
  });
});
