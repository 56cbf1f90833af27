import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_FILE } from '../../src/harness/runfolder/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { FULL } from '../helpers/tier.js';

const tmp = tempDir('sweeps');

/** A run's files but its manifest, which says when and by which command the run was made. */
const COMPARED = Object.values(RUN_FILE).filter((f) => f !== RUN_FILE.manifest);
const files = (dir: string) =>
  Object.fromEntries(COMPARED.map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));

/**
 * One job, two jobs, and (unless `shards` is false) three shards merged: the same files but the
 * manifest. Every study here starts its strategies' processes, which is what is under test.
 */
async function sameEveryWay(name: string, corpus: string[], strategies: string, shards = true) {
  const dir = (x: string) => path.join(tmp, `${name}-${x}`);
  expect((await cli('study', ...corpus, '--strategies', strategies, '--out', dir('one'))).code).toBe(0);
  const one = files(dir('one'));
  expect(
    (await cli('study', ...corpus, '--strategies', strategies, '--jobs', '2', '--out', dir('two'))).code,
  ).toBe(0);
  expect(files(dir('two'))).toEqual(one);
  if (!shards) return;
  for (const i of [1, 2, 3]) {
    const r = await cli(
      'study',
      ...corpus,
      '--strategies',
      strategies,
      '--shard',
      `${i}/3`,
      '--out',
      dir(`s${i}`),
    );
    expect(r.code).toBe(0);
  }
  // Shards may arrive in any order.
  expect((await cli('merge', dir('s2'), dir('s3'), dir('s1'), '--out', dir('merged'))).code).toBe(0);
  expect(files(dir('merged'))).toEqual(one);
  const shardRows = [1, 2, 3].map(
    (i) =>
      fs
        .readFileSync(path.join(dir(`s${i}`), 'rows.jsonl'), 'utf8')
        .trim()
        .split('\n').length,
  );
  expect(shardRows.reduce((a, b) => a + b, 0)).toBe(one['rows.jsonl']?.trim().split('\n').length);
  expect(Math.min(...shardRows)).toBeGreaterThan(0);
}

describe('sweeps beyond one process give the bytes of one', () => {
  it('on the reference corpus', async () => {
    await sameEveryWay('reference', [], 'dump,compiler,oracle,exact');
  });

  // The reference corpus goes every way by default; the generated ones add corpora, not ways,
  // so by default the integer program is checked at one job and two, and the rest is test:full.
  it.runIf(FULL)('on a generated corpus', async () => {
    const corpus = path.join(tmp, 'gen');
    expect(
      (await cli('generate', '--seed', 'sweep', '--candidates', '30', '--cases', '3', '--out', corpus)).code,
    ).toBe(0);
    await sameEveryWay('generated', ['--corpus', corpus], 'gated,compiler,exact,tiered');
  });

  it(`with exact answering through its integer program (HiGHS in every worker)${FULL ? '' : ', one job and two'}`, async () => {
    const corpus = path.join(tmp, 'gen-ilp');
    expect(
      (
        await cli(
          'generate',
          '--seed',
          'sweep-ilp',
          '--candidates',
          FULL ? '250' : '120',
          '--cases',
          '2',
          '--out',
          corpus,
        )
      ).code,
    ).toBe(0);
    await sameEveryWay('ilp', ['--corpus', corpus], 'exact,compiler-v2', FULL);
    const rows = fs
      .readFileSync(path.join(tmp, 'ilp-one', 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.some((r) => r.strategy === 'exact' && r.extras.engine === 'ilp')).toBe(true);
  });

  it('merge refuses an incomplete or mixed set of shards', async () => {
    const shard = async (name: string, spec: string, corpus: string[] = []) => {
      const out = path.join(tmp, name);
      expect(
        (await cli('study', ...corpus, '--strategies', 'dump', '--shard', spec, '--out', out)).code,
      ).toBe(0);
      return out;
    };
    const [a, c] = [await shard('m-a', '1/3'), await shard('m-c', '3/3')];
    const missing = await cli('merge', a, c, '--out', path.join(tmp, 'bad-merge'));
    expect(missing.code).toBe(2);
    expect(fs.existsSync(path.join(tmp, 'bad-merge'))).toBe(false);
    const gen = path.join(tmp, 'm-gen');
    expect(
      (await cli('generate', '--seed', 'm', '--candidates', '20', '--cases', '2', '--out', gen)).code,
    ).toBe(0);
    const other = await shard('m-other', '2/3', ['--corpus', gen]);
    expect((await cli('merge', a, other, c, '--out', path.join(tmp, 'bad-merge'))).code).toBe(2);
  });

  it('rejects a malformed shard or job count', async () => {
    for (const args of [
      ['--shard', '4/3'],
      ['--shard', '0/2'],
      ['--shard', 'x'],
      ['--jobs', '0'],
    ]) {
      expect((await cli('study', ...args, '--out', path.join(tmp, 'never'))).code).toBe(2);
    }
  });
});
