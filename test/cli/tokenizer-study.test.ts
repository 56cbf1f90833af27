/**
 * `study --tokenizer o200k` (docs/compiler.md §17.7): every strategy runs, the manifest records
 * the setting, and every bundle is priced with the declared counts and the real overhead,
 * counted here independently of the code. Strategies answer in this thread: that a strategy's
 * own process prices with the policy's tokenizer is tokenizer.test.ts's, on `compile --strategy`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { requestAt } from '../../src/harness/corpus/index.js';
import type { Row } from '../../src/harness/types.js';
import { cli } from '../helpers/cli.js';
import { corpus } from '../helpers/corpus.js';
import { realCost } from '../helpers/real-cost.js';
import { tempDir } from '../helpers/temp.js';

vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('tokenizer-study');

describe('study --tokenizer o200k', () => {
  const out = path.join(tmp, 'run');
  let rows: Row[] = [];
  let code = -1;
  let stderr = '';
  beforeAll(async () => {
    const r = await cli('study', '--tokenizer', 'o200k', '--out', out, '--jobs', '2', '--quiet');
    code = r.code;
    stderr = r.stderr;
    rows = fs
      .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
  });

  it('runs every strategy without an error row', () => {
    expect(code, stderr).toBe(0);
    expect(new Set(rows.map((r) => r.strategy)).size).toBeGreaterThan(6);
    expect(rows.filter((r) => r.reason === 'STRATEGY_ERROR')).toEqual([]);
  });

  it('records the setting in the manifest, so the run says how it was priced', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.policy.overhead_tokenizer).toBe('o200k');
  });

  it('prices every bundle of every strategy with the declared counts and the real overhead', () => {
    const bundles = rows.filter((r) => r.success);
    expect(bundles.length).toBeGreaterThan(300);
    const cases = new Map(corpus().cases.map((k) => [k.name, k]));
    for (const r of bundles) {
      const kase = cases.get(r.case);
      if (kase === undefined) throw new Error(`no case ${r.case}`);
      expect(r.rendered_tokens, `${r.case}/${r.budget}/${r.strategy}`).toBe(
        realCost(r.case, r.admitted, requestAt(kase, r.budget), 'o200k'),
      );
    }
  });
});
