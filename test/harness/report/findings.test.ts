import { describe, expect, it } from 'vitest';
import { renderFindings } from '../../../src/harness/report/findings.js';
import { cand, each, findingsRun, pool, study, sum } from '../../helpers/corpus-v2.js';

describe('renderFindings on the corpus-v2 run', () => {
  it('a placeholder naming nothing in the run is an error, not a blank', async () => {
    const run = findingsRun(await study);
    expect(renderFindings('{authority-tempted/tight/topk.authority_violations}', run)).toMatch(/^\d+$/);
    for (const bad of [
      '{authority-tempted/tight/nobody.must_recall}',
      '{authority-tempted/tight/topk.no_such_metric}',
      '{no-case/*/*.refused}',
      '{{purpose no-case}}',
      '{{decision authority-tempted tight compiler no-candidate}}',
      '{{unknown}}',
      '{authority-tempted/*/topk.admitted}',
      '{*/*/compiler.must_recall}',
      '{authority-tempted/tight/ topk.must_recall}',
      '{{outcomes authority-tempted must_recall,}}',
      '{{outcomes authority-tempted admitted}}',
      '{{refusal authority-tempted tight compiler}}',
      '{{candidate authority-tempted inject-note no_field}}',
    ])
      expect(() => renderFindings(bad, run), bad).toThrow(/findings: line 1: /);
    expect(() => renderFindings('ok\n\n{{unknown}}', run)).toThrow(/line 3/);
  });

  it('braces that are not placeholders stay, and a filled-in text is not read again', async () => {
    const base = findingsRun(await study);
    const json = '`{"success": true}` and {return}';
    expect(renderFindings(json, base)).toBe(json);
    const purposes = new Map([['authority-tempted', 'says {authority-tempted/tight/topk.must_recall}']]);
    expect(renderFindings('{{purpose authority-tempted}}', { ...base, purposes })).toBe(
      'says {authority-tempted/tight/topk.must_recall}',
    );
  });

  it('a candidate cost is the declared tokens of it and all it depends on, each once', async () => {
    const run = findingsRun(await study);
    const ref = cand('relevance-buys-dearer', 'incident-ref');
    const deps = pool('relevance-buys-dearer').filter((c) => ref.depends_on.includes(c.candidate_id));
    expect(renderFindings('{{candidate relevance-buys-dearer incident-ref cost}}', run)).toBe(
      String(ref.token_count + deps.reduce((s, c) => s + c.token_count, 0)),
    );
  });

  it('a sum over budgets adds the rows, and a boolean counts its true rows', async () => {
    const run = findingsRun(await study);
    const topk = await each('authority-tempted', 'topk');
    expect(renderFindings('{authority-tempted/*/topk.authority_violations}', run)).toBe(
      String(sum(topk, (r) => r.authority_violations)),
    );
    expect(renderFindings('{*/*/compiler.refused}', run)).toBe(
      String((await study).filter((r) => r.strategy === 'compiler' && !r.success).length),
    );
  });
});
