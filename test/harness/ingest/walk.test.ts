import path from 'node:path';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/harness/errors.js';
import { openRepository, tree } from '../../../src/harness/ingest/git/git.js';
import { treesOf } from '../../../src/harness/ingest/trees/walk.js';
import { makeRepository, type Step } from '../../helpers/git-fixture.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('walk');

/**
 * A random history: files written, rewritten with the same or new bytes, deleted, renamed,
 * symlinks and submodules added and repointed, a file replaced by a folder of the same name,
 * empty commits (a tree the same as the one before). Each kind of change comes once in the first
 * commits, then at random.
 */
function randomScript(seed: string, commits: number): Step[] {
  const random = seedrandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const files = new Set<string>();
  const steps: Step[] = [];
  let n = 0;
  const write = (p: string): void => {
    steps.push({ write: p, content: `v${n++} ${random() < 0.3 ? 'same' : random()}\n` });
    files.add(p);
  };
  const existing = (): string[] => [...files].filter((p) => !p.startsWith('link')).sort();
  const changes: (() => void)[] = [
    () => write(pick(['a.ts', 'src/b.py', 'x/y.rs', `n${n}.md`, 'src/deep/c.go'])),
    () => {
      const p = pick(existing());
      steps.push({ delete: p });
      files.delete(p);
    },
    () => {
      const p = pick(existing());
      const to = `moved/${n++}-${path.basename(p)}`;
      steps.push({ rename: p, to });
      files.delete(p);
      files.add(to);
    },
    () => {
      const link = `link${n++}`;
      steps.push({ symlink: link, target: pick(existing()) });
      files.add(link);
    },
    () => steps.push({ submodule: 'vendor/sub', sha: ((n++ % 9) + 1).toString().repeat(40) }),
    () => {
      // A file becomes a folder: one path gone, another under it.
      const p = pick(existing());
      steps.push({ delete: p });
      files.delete(p);
      write(`${p}/inner.ts`);
    },
    // Nothing: the commit's tree is the one before.
    () => undefined,
  ];
  for (const p of ['a.ts', 'src/b.py', 'src/deep/c.go', 'd.ts']) write(p);
  steps.push({ commit: 'start' });
  for (let c = 0; c < commits; c++) {
    if (existing().length < 2) write(`refill${n}.ts`);
    (c < changes.length ? changes[c] : pick(changes))?.();
    steps.push({ commit: `c${c}` });
  }
  return steps;
}

describe('treesOf', () => {
  const seed = 'walk-1';
  let repo: ReturnType<typeof openRepository>;
  let shas: string[];
  beforeAll(() => {
    const dir = path.join(tmp, 'random');
    shas = makeRepository(dir, randomScript(seed, 30));
    repo = openRepository(dir);
  });

  it(`gives each commit's tree exactly as ls-tree does, in history order (seed ${seed})`, () => {
    const walked = treesOf(repo, shas);
    expect(walked).toHaveLength(shas.length);
    for (const [k, sha] of shas.entries()) expect(walked[k], `commit ${k}`).toEqual(tree(repo, sha));
  });

  it('in any order, a commit twice in a row included', () => {
    const random = seedrandom(`${seed}-order`);
    const order = shas
      .map((s) => [random(), s] as const)
      .sort(([a], [b]) => a - b)
      .map(([, s]) => s);
    order.splice(3, 0, order[3] as string, order[3] as string);
    const walked = treesOf(repo, order);
    for (const [k, sha] of order.entries()) expect(walked[k], `place ${k}`).toEqual(tree(repo, sha));
  });

  it('takes object ids only, and nothing for no commits', () => {
    expect(treesOf(repo, [])).toEqual([]);
    expect(() => treesOf(repo, [shas[0] as string, 'HEAD'])).toThrow(InputError);
    expect(() => treesOf(repo, ['--output=/tmp/x'])).toThrow('not a commit id: "--output=/tmp/x"');
  });
});
