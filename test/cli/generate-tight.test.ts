/**
 * `generate --tight-at-least-cost`: each tight budget exactly at the least legal cost `exact`
 * proves, so a legal bundle just fits; the other budgets as without it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../../src/compiler/index.js';
import { requestAt } from '../../src/harness/corpus/index.js';
import { loadExact } from '../../src/harness/kit/index.js';
import { cli } from '../helpers/cli.js';
import { corpusFolder } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('generate-tight');
const { leastLegalCost, DEFAULT_ILP_LIMITS } = await loadExact();

interface Manifest {
  readonly budgets: Record<string, Record<string, number>>;
  readonly expected: Record<string, Record<string, { success: boolean }>>;
  readonly generator: Record<string, unknown>;
}
const manifestOf = (dir: string): Manifest =>
  JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

describe('generate --tight-at-least-cost', () => {
  it('puts each tight budget at the least legal cost, expected to succeed there, the rest unchanged', async () => {
    const at = path.join(tmp, 'at');
    const below = path.join(tmp, 'below');
    const args = ['--seed', 'tight', '--candidates', '40', '--cases', '3'];
    expect((await cli('generate', ...args, '--out', at, '--tight-at-least-cost')).code).toBe(0);
    expect((await cli('generate', ...args, '--out', below)).code).toBe(0);
    const [m, plain] = [manifestOf(at), manifestOf(below)];
    expect(m.generator.tight).toBe('at-least-cost');
    expect(plain.generator.tight).toBeUndefined();
    const { corpus } = corpusFolder(at);
    for (const kase of corpus.cases) {
      const request = requestAt(kase, 'tight');
      const need = leastLegalCost(
        { request, candidates: kase.candidates, policy: defaultPolicy(), budget: 0 },
        DEFAULT_ILP_LIMITS,
      );
      expect(need.proven).toBe(true);
      expect(m.budgets[kase.name]?.tight, kase.name).toBe(need.cost);
      expect(m.expected[kase.name]?.tight?.success, kase.name).toBe(true);
      expect(plain.budgets[kase.name]?.tight, kase.name).toBe(Math.floor(need.cost * 0.9));
      expect(plain.expected[kase.name]?.tight?.success, kase.name).toBe(false);
      for (const b of ['medium', 'roomy'])
        expect(m.budgets[kase.name]?.[b], `${kase.name} ${b}`).toBe(plain.budgets[kase.name]?.[b]);
    }
  });

  it('needs --cases', async () => {
    const r = await cli(
      'generate',
      '--seed',
      's',
      '--candidates',
      '20',
      '--out',
      path.join(tmp, 'one'),
      '--tight-at-least-cost',
    );
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      'ctxbench: --tight-at-least-cost needs --cases: a single case has one budget (see ctxbench generate --help)',
    );
  });
});
