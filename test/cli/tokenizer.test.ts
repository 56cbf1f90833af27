/**
 * `--tokenizer` on compile, validate and trace (docs/compiler.md §17.7; study's in
 * tokenizer-study.test.ts): the overhead of a bundle counted here with gpt-tokenizer,
 * independently of the code; the default setting the reference's output to the byte; a bad name
 * one line naming what was wrong, exit 2.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFlags, cli, corpusCopy, inputFlags } from '../helpers/cli.js';
import { CORPUS_DIR, corpus } from '../helpers/corpus.js';
import { byId, COUNT, realCost } from '../helpers/real-cost.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('tokenizer');
const CASE = 'heterogeneous-basic';
const request = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, `${CASE}.request.json`), 'utf8'));
const writePolicy = (name: string, data: unknown) => {
  const file = path.join(tmp, `${name}.policy.json`);
  fs.writeFileSync(file, JSON.stringify(data));
  return file;
};

describe('compile --tokenizer', () => {
  it.each(['o200k', 'cl100k'] as const)(
    '%s prices each item and the bundle with the real counts',
    async (t) => {
      const r = await cli('compile', ...caseFlags(CASE), '--tokenizer', t);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.validation).toEqual({ valid: true, problems: [] });
      const ids: string[] = out.bundle.items.map((i: { id: string }) => i.id);
      for (const item of out.bundle.items) {
        const c = byId.get(`${CASE}/${item.id}`);
        expect(item.token_count).toBe(
          (c?.token_count ?? Number.NaN) + COUNT[t](`${c?.source_kind} ${c?.kind}`),
        );
      }
      expect(out.result.bundle_tokens).toBe(realCost(CASE, ids, request, t));
      // The estimate charges another overhead: the test is not passing by coincidence.
      const reference = JSON.parse((await cli('compile', ...caseFlags(CASE))).stdout);
      expect(reference.result.bundle_tokens).not.toBe(out.result.bundle_tokens);
    },
  );

  it('the default setting is the reference output to the byte, for every case and budget', async () => {
    for (const kase of corpus().cases)
      for (const budget of Object.values(kase.budgets)) {
        const flags = [...caseFlags(kase.name), '--budget', String(budget)];
        const none = await cli('compile', ...flags);
        const estimate = await cli('compile', ...flags, '--tokenizer', 'estimate');
        expect(none.code).toBe(0);
        expect(estimate.stdout, `${kase.name}/${budget}`).toBe(none.stdout);
      }
  });

  it('a policy file may name the tokenizer; --tokenizer estimate takes the reference back', async () => {
    const file = writePolicy('cl100k', { overhead_tokenizer: 'cl100k' });
    const byFile = await cli('compile', ...inputFlags(...requestAndCandidates(), file));
    const byFlag = await cli('compile', ...caseFlags(CASE), '--tokenizer', 'cl100k');
    expect(byFile.code, byFile.stderr).toBe(0);
    expect(byFile.stdout).toBe(byFlag.stdout);
    const back = await cli(
      'compile',
      ...inputFlags(...requestAndCandidates(), file),
      '--tokenizer',
      'estimate',
    );
    expect(back.stdout).toBe((await cli('compile', ...caseFlags(CASE))).stdout);
  });

  it('a strategy in its own process prices with the same tokenizer as the ruler', async () => {
    for (const strategy of ['exact', 'dump', 'compiler-v2']) {
      const r = await cli(
        'compile',
        ...caseFlags(CASE),
        '--strategy',
        strategy,
        '--budget',
        '500',
        '--tokenizer',
        'o200k',
      );
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.validation, strategy).toEqual({ valid: true, problems: [] });
      if (out.bundle === null) continue;
      const ids: string[] = out.bundle.items.map((i: { id: string }) => i.id);
      expect(out.result.bundle_tokens, strategy).toBe(realCost(CASE, ids, request, 'o200k'));
      expect(out.result.bundle_tokens).toBeLessThanOrEqual(500);
    }
  });
});

function requestAndCandidates(): [string, string] {
  return [path.join(CORPUS_DIR, `${CASE}.request.json`), path.join(CORPUS_DIR, `${CASE}.candidates.json`)];
}

describe('validate --tokenizer', () => {
  it('takes a compilation made under o200k as valid only under o200k', async () => {
    const compiled = path.join(tmp, 'o200k.json');
    fs.writeFileSync(compiled, (await cli('compile', ...caseFlags(CASE), '--tokenizer', 'o200k')).stdout);
    const under = await cli(
      'validate',
      '--compilation',
      compiled,
      ...caseFlags(CASE),
      '--tokenizer',
      'o200k',
    );
    expect([under.code, under.stdout]).toEqual([0, 'valid\n']);
    const without = await cli('validate', '--compilation', compiled, ...caseFlags(CASE));
    expect(without.code).toBe(1);
    expect(without.stdout).toMatch(/^INVALID tokens: bundle_tokens \d+ is not the rendered cost \d+$/m);
  });
});

describe('a name nobody knows', () => {
  it('--tokenizer: exit 2, one line naming the option', async () => {
    for (const command of [
      ['compile', ...caseFlags(CASE)],
      ['trace', CASE, '--budget', 'tight'],
      ['study', '--out', path.join(tmp, 'never')],
    ]) {
      const r = await cli(...command, '--tokenizer', 'p50k');
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `ctxbench: --tokenizer must be estimate, o200k, cl100k, not "p50k" (see ctxbench ${command[0]} --help)\n`,
      );
    }
    expect(fs.existsSync(path.join(tmp, 'never'))).toBe(false);
  });

  it('in a policy file: exit 2, one line naming the file and the field', async () => {
    const file = writePolicy('p50k', { overhead_tokenizer: 'p50k' });
    const r = await cli('compile', ...inputFlags(...requestAndCandidates(), file));
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toEqual([
      `ctxbench: ${file}: policy: unsupported overhead_tokenizer: "p50k" (need estimate, o200k or cl100k)`,
      '',
    ]);
  });
});

describe('check', () => {
  it('takes a corpus whose policy names a real tokenizer as it is: nothing to register to lint', async () => {
    const dir = corpusCopy(tmp, 'o200k-corpus', (d) => {
      const file = path.join(d, 'compiler-policy-v1.json');
      fs.writeFileSync(
        file,
        JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), overhead_tokenizer: 'o200k' }),
      );
    });
    const r = await cli('check', dir);
    expect([r.code, r.stdout.trim().split('\n').at(-1)]).toEqual([
      0,
      'check: 14 cases, 0 problems, 0 warnings',
    ]);
  });
});

describe('trace --tokenizer', () => {
  it('shows the real overhead; the default is the reference trace', async () => {
    const args = ['trace', CASE, '--budget', 'tight', '--json'];
    const none = await cli(...args);
    expect((await cli(...args, '--tokenizer', 'estimate')).stdout).toBe(none.stdout);
    const o200k = await cli(...args, '--tokenizer', 'o200k');
    expect(o200k.code, o200k.stderr).toBe(0);
    expect(o200k.stdout).not.toBe(none.stdout);
  });
});
