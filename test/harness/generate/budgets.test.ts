/**
 * Budgets a generated pool is given, certified by `exact` (through the integer program, so even
 * large pools are proven): at tight no legal bundle fits, at medium and roomy one does; and the
 * agent profile has the shape its help describes.
 */
import { describe, expect, it } from 'vitest';
import { checkCompilerInputs, defaultPolicy, gate } from '../../../src/compiler/index.js';
import { generateCase } from '../../../src/harness/generate/index.js';
import { loadExact } from '../../../src/harness/kit/index.js';
import { BUDGETS, PROFILES } from '../../../src/harness/vocabulary.js';
import { runs } from '../../helpers/arbitrary.js';
import { inputAt } from '../../helpers/generated.js';

const { solveExact } = await loadExact();

describe.each(PROFILES)('the %s profile', (profile) => {
  it.each([40, 200, runs(400, 1000)])(
    'at %i candidates: tight refuses for the budget, medium and roomy admit',
    (size) => {
      for (let k = 0; k < runs(2, 6); k++) {
        const g = generateCase(`budgets-${profile}-${size}/${k}`, size, 'b', profile);
        expect(g.budgets.tight).toBeLessThan(g.budgets.medium);
        expect(g.budgets.medium).toBeLessThanOrEqual(g.budgets.roomy);
        for (const level of BUDGETS) {
          const out = solveExact(inputAt(g, level));
          expect(out.extras?.proven_optimal ?? true, `${size}/${k}/${level}`).toBe(true);
          if (level === 'tight')
            expect('refusal' in out && out.refusal.reason, `${size}/${k}`).toBe('INSUFFICIENT_BUDGET');
          else expect('admitted' in out, `${size}/${k}/${level}`).toBe(true);
        }
      }
    },
  );
});

describe('the agent profile', () => {
  const g = generateCase('agent-shape', 300, 'a', 'agent');
  const byId = new Map(g.candidates.map((c) => [c.candidate_id, c]));

  it('is valid compiler input of the size asked, and repeats byte for byte', () => {
    expect(g.candidates).toHaveLength(300);
    expect(() => checkCompilerInputs(g.request, g.candidates, defaultPolicy())).not.toThrow();
    expect(JSON.stringify(generateCase('agent-shape', 300, 'a', 'agent'))).toBe(JSON.stringify(g));
  });

  it('has the instructions and the task as MANDATORY content, and tools', () => {
    for (const id of ['instr-system', 'instr-conventions', 'task'])
      expect(byId.get(id)?.requirement, id).toBe('MANDATORY');
    expect(g.candidates.filter((c) => c.order_role === 'tool').length).toBeGreaterThanOrEqual(2);
  });

  it('has files in full, summary and reference forms, references needing the read-file tool', () => {
    const refs = g.candidates.filter((c) => c.representation_id === 'reference');
    expect(refs.length).toBeGreaterThan(20);
    for (const r of refs) expect(r.depends_on).toEqual(['tool-read-file']);
    const task = g.candidates.filter((c) => c.requirement === 'REQUIRED');
    expect(new Set(task.map((c) => c.content_identity)).size).toBeGreaterThanOrEqual(1);
    expect(task.every((c) => g.ledger.identity_truth[c.content_identity]?.eval_class === 'must')).toBe(true);
  });

  it('has stale memories and untrusted web snippets, judged distractor and harmful', () => {
    const web = g.candidates.filter((c) => c.kind === 'web');
    const untrusted = web.filter((c) => gate(c).code === 'authority_ineligible');
    expect(untrusted.length).toBeGreaterThan(0);
    for (const c of untrusted)
      expect(g.ledger.identity_truth[c.content_identity]?.eval_class).toBe('harmful');
    const stale = g.candidates.filter((c) => c.kind === 'memory' && gate(c).code === 'freshness_ineligible');
    expect(stale.length).toBeGreaterThan(0);
    for (const c of stale) expect(g.ledger.identity_truth[c.content_identity]?.eval_class).toBe('distractor');
  });
});
