/**
 * The pool `pack` hands a strategy: each candidate's text the pool's own, whatever the format, its
 * price its printed item; a poorer form that costs what the full text costs is no candidate.
 */
import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContextCandidate } from '../../../src/compiler/index.js';
import { PricedPool } from '../../../src/harness/pack/pack-formats.js';
import { packPool } from '../../../src/harness/pack/pack-pool.js';
import { tempDir } from '../../helpers/temp.js';

const dir = path.join(tempDir('priced-pool'), 'tree');
let pool: readonly ContextCandidate[];

beforeAll(async () => {
  fs.mkdirSync(dir);
  // Each has an outline: `tie.py`'s is priced below as dear as its full text, `long.py`'s is cheaper.
  fs.writeFileSync(path.join(dir, 'tie.py'), 'def retry(n):\n    return n - 1\n');
  fs.writeFileSync(
    path.join(dir, 'long.py'),
    `def retry(n):\n${Array.from({ length: 30 }, (_, k) => `    n = n + ${k}\n`).join('')}    return n\n`,
  );
  pool = (await packPool(dir, { task: 'make retry count down', budget: 1000, maxBytes: 100_000 })).candidates;
});

const ids = (cs: readonly ContextCandidate[]) => cs.map((c) => c.candidate_id);

describe('PricedPool', () => {
  it('keeps the pool’s text in every format and prices each candidate as its printed item', () => {
    for (const format of ['md', 'xml', 'json'] as const) {
      const priced = new PricedPool(pool, format, countTokens);
      for (const c of priced.candidates) {
        const source = pool.find((p) => p.candidate_id === c.candidate_id) as ContextCandidate;
        expect(c.content).toBe(source.content);
        expect(c.relevance).toBe(source.relevance);
        // The wrapper costs something in every format.
        expect(c.token_count, `${format} ${c.candidate_id}`).toBeGreaterThan(source.token_count);
      }
    }
  });

  it('offers no outline that costs as much as the full text: the tie goes to the fuller form', () => {
    expect(ids(pool)).toEqual(expect.arrayContaining(['tie.py#outline', 'long.py#outline']));
    // tie.py's outline and full text, as Markdown prints them, cost the same.
    const tied = (text: string): number =>
      /^## tie\.py \((full|outline), /.test(text) ? 50 : countTokens(text);
    const priced = new PricedPool(pool, 'md', tied);
    const price = (id: string) => priced.candidates.find((c) => c.candidate_id === id)?.token_count;
    expect(ids(priced.candidates)).not.toContain('tie.py#outline');
    expect(ids(priced.candidates)).toContain('tie.py#full');
    // A cheaper outline stays a candidate, and so does every path line.
    expect(ids(priced.candidates)).toEqual(expect.arrayContaining(['long.py#outline', 'tie.py#reference']));
    expect(price('long.py#outline')).toBeLessThan(price('long.py#full') as number);
  });
});
