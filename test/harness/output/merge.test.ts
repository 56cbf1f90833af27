import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { InputError, UsageError } from '../../../src/harness/errors.js';
import { mergeShards } from '../../../src/harness/runfolder/index.js';
import { cli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../../src/harness/hosts/hosts.js', () => import('../../helpers/in-thread-hosts.js'));

const tmp = tempDir('merge');
const at = (name: string) => path.join(tmp, name);
const STRATEGIES = 'dump,compiler';

async function study(out: string, ...more: string[]) {
  const r = await cli('study', '--strategies', STRATEGIES, '--out', out, ...more);
  expect(r.code, r.stderr).toBe(0);
}

/** Every file of a folder as text, by name. */
const files = (dir: string) =>
  Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );
const withoutManifest = (dir: string) => {
  const { 'manifest.json': _, ...rest } = files(dir);
  return rest;
};
const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

const [s1, s2, s3] = [at('s1'), at('s2'), at('s3')];

beforeAll(async () => {
  await study(at('whole'));
  for (const [k, dir] of [s1, s2, s3].entries()) await study(dir, '--shard', `${k + 1}/3`);
});

describe('mergeShards: the run folder of one unsharded run', () => {
  it('gives every file but the manifest byte for byte, shards in any order', async () => {
    const whole = withoutManifest(at('whole'));
    expect(Object.keys(whole)).toEqual([
      'compilations.jsonl',
      'report.html',
      'report.md',
      'rows.csv',
      'rows.jsonl',
      'summary.json',
    ]);
    for (const [name, order] of [
      ['m123', [s1, s2, s3]],
      ['m312', [s3, s1, s2]],
      ['m231', [s2, s3, s1]],
    ] as const) {
      expect(await mergeShards(order, at(name), ['ctxbench', 'merge'], '9.9.9')).toBe(84); // 14 cases x 3 x 2
      const merged = files(at(name));
      expect(Object.keys(merged).sort()).toEqual([...Object.keys(whole), 'manifest.json'].sort());
      for (const f of Object.keys(whole)) expect(merged[f], `${name}/${f}`).toBe(whole[f]);
    }
  });

  it('writes a manifest without a shard, naming its shards in slice order', () => {
    const m = manifestOf(at('m312'));
    const w = manifestOf(at('whole'));
    expect(m.shard).toBeUndefined();
    expect(m).toMatchObject({ ctxbench: '9.9.9', command: ['ctxbench', 'merge'], rows: 84 });
    expect(m.merged_from).toEqual([s1, s2, s3]);
    expect(m.strategies).toEqual(w.strategies);
    expect(m.corpus).toEqual(w.corpus);
    expect(m.policy).toEqual(w.policy);
  });
});

describe('mergeShards: a set of shards that does not make one run', () => {
  let n = 0;
  /** Merge into a fresh parent folder; the error, and what the parent holds afterwards. */
  async function failedMerge(dirs: readonly string[]) {
    const parent = at(`out${n++}`);
    fs.mkdirSync(parent);
    let error: unknown;
    try {
      await mergeShards(dirs, path.join(parent, 'merged'), ['ctxbench', 'merge'], '0');
    } catch (e) {
      error = e;
    }
    return { error, left: fs.readdirSync(parent) };
  }
  /** An InputError naming a manifest of one of the given folders, and no output at all. */
  async function refused(dirs: readonly string[], message: RegExp, culprit?: string) {
    const { error, left } = await failedMerge(dirs);
    expect(error).toBeInstanceOf(InputError);
    const e = error as InputError;
    expect(e.message).toMatch(message);
    expect(path.basename(e.file)).toBe('manifest.json');
    expect(dirs).toContain(path.dirname(e.file));
    if (culprit !== undefined) expect(path.dirname(e.file)).toBe(culprit);
    expect(e.line).toContain(e.file);
    expect(left).toEqual([]); // neither `merged` nor a `merged.partial-*` sibling
  }
  const copyOf = (dir: string, name: string, edit: (copy: string) => void = () => {}) => {
    const copy = at(name);
    fs.cpSync(dir, copy, { recursive: true });
    edit(copy);
    return copy;
  };
  const editManifest = (copy: string, edit: (m: Record<string, unknown>) => void) => {
    const m = manifestOf(copy);
    edit(m);
    fs.writeFileSync(path.join(copy, 'manifest.json'), JSON.stringify(m));
  };

  it('refuses a missing shard', async () => {
    await refused([s1, s3], /need each of 1\.\.3 once/);
    await refused([s3, s2], /need each of 1\.\.3 once/);
  });

  it('refuses a duplicated shard', async () => {
    await refused([s1, s2, s3, copyOf(s2, 'dup2')], /need each of 1\.\.3 once/);
  });

  it('refuses shards of another corpus', async () => {
    const other = copyOf(s2, 'other-corpus', (c) =>
      editManifest(c, (m) => {
        (m.corpus as { digest: string }).digest = '0'.repeat(64);
      }),
    );
    await refused([s1, other, s3], /disagree on the corpus/, other);
  });

  it('refuses shards of other strategies', async () => {
    const other = at('other-strategies');
    const r = await cli('study', '--strategies', 'dump,oracle', '--shard', '2/3', '--out', other);
    expect(r.code, r.stderr).toBe(0);
    await refused([s1, other, s3], /disagree on strategies/, other);
  });

  it('refuses a folder without a manifest, and a run folder that is not a shard', async () => {
    const bare = copyOf(s2, 'bare', (c) => fs.rmSync(path.join(c, 'manifest.json')));
    await refused([s1, bare, s3], /no manifest/, bare);
    await refused([s1, at('whole'), s3], /not a shard/, at('whole'));
  });

  it('refuses shards whose rows fall short of the total', async () => {
    const short = copyOf(s2, 'short', (c) => {
      const rows = fs.readFileSync(path.join(c, 'rows.jsonl'), 'utf8').split('\n');
      fs.writeFileSync(path.join(c, 'rows.jsonl'), rows.slice(1).join('\n'));
    });
    const { error, left } = await failedMerge([s1, short, s3]);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('hold 83 of 84 rows');
    expect(left).toEqual([]);
  });

  it('refuses an empty list', async () => {
    const { error, left } = await failedMerge([]);
    expect(error).toBeInstanceOf(UsageError);
    expect(left).toEqual([]);
  });
});
