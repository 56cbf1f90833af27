import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { caseFlags, cli, corpusCopy } from '../helpers/cli.js';
import { CORPUS_DIR } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('bad');

const editJson = (file: string, change: (x: { candidates: unknown[] }) => unknown) =>
  fs.writeFileSync(file, JSON.stringify(change(JSON.parse(fs.readFileSync(file, 'utf8')))));

/** Exit 2, one line on stderr naming `names`, nothing at `out`. */
async function stops(args: string[], out: string, ...names: string[]) {
  const r = await cli(...args);
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  for (const n of names) expect(lines[0]).toContain(n);
  expect(fs.existsSync(out)).toBe(false);
}

describe('study stops before writing when the corpus is malformed', () => {
  it('a duplicate candidate id (the compiler’s own input check, for every strategy)', async () => {
    const dir = corpusCopy(tmp, 'dup', (d) =>
      editJson(path.join(d, 'wrong-scope.candidates.json'), (x) => ({
        candidates: [...x.candidates, x.candidates[0]],
      })),
    );
    const out = path.join(tmp, 'out-dup');
    await stops(
      ['study', '--corpus', dir, '--strategies', 'dump', '--out', out],
      out,
      'wrong-scope.candidates.json',
      'candidates[4] "instr-1": duplicate candidate_id (also candidates[0] "instr-1")',
    );
  });

  it('a manifest that is not an object', async () => {
    const dir = corpusCopy(tmp, 'null-manifest', (d) =>
      fs.writeFileSync(path.join(d, 'manifest.json'), 'null'),
    );
    const out = path.join(tmp, 'out-null');
    await stops(['study', '--corpus', dir, '--out', out], out, 'manifest.json');
  });

  it('an empty strategy list', async () => {
    const out = path.join(tmp, 'out-empty');
    // An empty value is stopped for every option, this one included (src/cli/command.ts).
    await stops(['study', '--strategies', '', '--out', out], out, '--strategies is given an empty value');
    await stops(['study', '--strategies', ' , ', '--out', out], out, 'name at least one strategy');
  });
});

describe('--force replaces only ctxbench output', () => {
  it('refuses to empty a folder that is not a run folder', async () => {
    const mine = path.join(tmp, 'precious');
    fs.mkdirSync(mine);
    fs.writeFileSync(path.join(mine, 'keep.txt'), 'mine');
    const r = await cli('study', '--strategies', 'dump', '--out', mine, '--force');
    expect(r.code).toBe(2);
    expect(fs.readFileSync(path.join(mine, 'keep.txt'), 'utf8')).toBe('mine');
  });
});

describe('a policy comparison across policy versions', () => {
  it('runs the corpus under another policy, the requests following its version', async () => {
    const p = path.join(tmp, 'v2.json');
    const policy = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'compiler-policy-v1.json'), 'utf8'));
    fs.writeFileSync(
      p,
      JSON.stringify({ ...policy, policy_version: 'compiler-policy-v2', min_discretionary_relevance: 0.1 }),
    );
    const out = path.join(tmp, 'v2-run');
    expect((await cli('study', '--strategies', 'compiler', '--policy', p, '--out', out)).code).toBe(0);
    const rows = fs
      .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.filter((r) => r.reason === 'STRATEGY_ERROR')).toEqual([]);
    // At 0.1 the distractors of budget-slack earn their place: a different outcome, not an error.
    expect(rows.find((r) => r.case === 'budget-slack' && r.budget === 'roomy').admitted).toContain(
      'distract-d2',
    );
  });
});

describe('reading back: report, verify, conformance, validate', () => {
  it('report and verify reject rows that are not rows, naming file, line and field', async () => {
    const dir = path.join(tmp, 'fake-run');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'rows.jsonl'), '{}\n');
    for (const cmd of ['report', 'verify']) {
      const r = await cli(cmd, dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/rows\.jsonl: line 1: invalid case/);
    }
  });

  it('conformance without a golden folder stops with exit 2', async () => {
    const r = await cli('conformance', '--golden', path.join(tmp, 'nowhere'));
    expect([r.code, r.stderr.trim().split('\n').length]).toEqual([2, 1]);
  });

  it('validate accepts a refusal reason outside the compiler’s six', async () => {
    const compiled = JSON.parse((await cli('compile', ...caseFlags('wrong-scope'))).stdout);
    const refusal = {
      bundle: null,
      result: {
        ...compiled.result,
        success: false,
        bundle_id: null,
        bundle_tokens: null,
        bundle_hash: null,
        failure: {
          request_id: compiled.result.request_id,
          policy_version: 'compiler-policy-v1',
          reason: 'SEARCH_LIMIT',
          blocking_ids: [],
          budget_used: 0,
          budget_total: 900,
          diagnostic: '',
        },
      },
    };
    const file = path.join(tmp, 'search-limit.json');
    fs.writeFileSync(file, JSON.stringify(refusal));
    const r = await cli('validate', '--compilation', file, ...caseFlags('wrong-scope'));
    // Read, and judged: its trace still admits what the refusal does not hold, but the reason
    // itself is no problem.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^INVALID trace: /m);
    expect(r.stdout).not.toMatch(/SEARCH_LIMIT|reason/);
  });
});
