/**
 * `pack`'s default ignores: dependencies, build outputs, caches, minified bundles, lockfiles and
 * binary or media files stay out unless a `!` rule keeps them or `--no-default-ignores` is given;
 * stderr counts them by kind; a folder so left out is never entered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cli } from '../helpers/cli.js';
import { git, initRepository } from '../helpers/git-fixture.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('pack-defaults');
const TASK = 'Fix the retry loop of the uploader';

/** The project's own files, which every pack below holds. */
const OWN = ['.gitignore', 'src/upload.ts'];

/** One of each kind the defaults leave out, by the kind stderr counts it under. */
const LEFT: Readonly<Record<string, readonly string[]>> = {
  dependencies: ['node_modules/left-pad/index.js'],
  'build outputs': ['dist/upload.js', 'coverage/lcov.info'],
  caches: ['src/__pycache__/upload.cpython-312.pyc', '.pytest_cache/README.md'],
  minified: ['public/app.min.js', 'public/app.js.map'],
  lockfiles: ['package-lock.json', 'poetry.lock'],
  'binary or media': ['public/logo.png'],
};

/** A tree holding the project's files and one of each kind the defaults leave out. */
function makeTree(dir: string, gitignore = ''): string {
  const write = (p: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  };
  write('.gitignore', gitignore);
  write('src/upload.ts', 'export function upload(retries: number) {\n  return retries > 0;\n}\n');
  // Text, every one of them: left out for their names, not for their bytes.
  for (const files of Object.values(LEFT)) for (const p of files) write(p, `// ${p}: retry upload\n`);
  return dir;
}

/** Every file of the pool: `dump` takes them all. */
const LIST = ['--budget', '1000000', '--strategy', 'dump', '--format', 'json'];
const filesIn = (stdout: string): string[] =>
  (JSON.parse(stdout) as { items: { path: string | null }[] }).items
    .flatMap((i) => (i.path === null ? [] : [i.path]))
    .sort();
const pack = (dir: string, ...args: string[]) => cli('pack', dir, '--task', TASK, ...LIST, ...args);

describe('pack leaves out what a packer should by default', () => {
  it('leaves out each kind, counting them by kind in the first stderr line (a folder once)', async () => {
    const dir = makeTree(path.join(tmp, 'plain'));
    const r = await pack(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(filesIn(r.stdout)).toEqual(OWN);
    // node_modules, dist, coverage, __pycache__ and .pytest_cache count once each: never entered.
    expect(r.stderr.split('\n')[0]).toBe(
      'pack: 2 files in the pool; skipped: 10 by default ignores (build outputs 2, caches 2, lockfiles 2, minified 2, binary or media 1, dependencies 1)',
    );
  });

  it('packs them all with --no-default-ignores, and says nothing of them', async () => {
    const dir = makeTree(path.join(tmp, 'off'));
    const r = await pack(dir, '--no-default-ignores');
    expect(r.code, r.stderr).toBe(0);
    expect(filesIn(r.stdout)).toEqual([...OWN, ...Object.values(LEFT).flat()].sort());
    expect(r.stderr.split('\n')[0]).toBe('pack: 12 files in the pool');
  });

  it('keeps what a `!` rule of the tree keeps, and still leaves out what an ignore rule names', async () => {
    const dir = makeTree(path.join(tmp, 'negated'), '!dist/\n!package-lock.json\n*.lock\n');
    const r = await pack(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(filesIn(r.stdout)).toEqual([...OWN, 'dist/upload.js', 'package-lock.json'].sort());
    // poetry.lock is the tree's own rule's now: counted as ignored, not as a default.
    expect(r.stderr.split('\n')[0]).toBe(
      'pack: 4 files in the pool; skipped: ignored 1; 7 by default ignores (caches 2, minified 2, binary or media 1, build outputs 1, dependencies 1)',
    );
  });

  it('never enters a folder it leaves out: a broken ignore file inside one is never read', async () => {
    const dir = makeTree(path.join(tmp, 'deep'));
    // Larger than --max-bytes: reading it is an error (exit 2), so a walk that entered the folder fails.
    fs.writeFileSync(path.join(dir, 'node_modules/.gitignore'), `${'x'.repeat(200)}\n`);
    const many = path.join(dir, 'node_modules/many');
    fs.mkdirSync(many);
    for (let k = 0; k < 2000; k++) fs.writeFileSync(path.join(many, `f${k}.js`), 'retry\n');
    const r = await pack(dir, '--max-bytes', '100');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toMatch(/\bdependencies 1\)/);
    const entered = await pack(dir, '--max-bytes', '100', '--no-default-ignores');
    expect(entered.code).toBe(2);
    expect(entered.stderr).toContain(path.join('node_modules', '.gitignore'));
  }, 30_000);

  it('leaves out tracked files too, in a repository, and --require of one says why', async () => {
    const dir = makeTree(initRepository(path.join(tmp, 'repo')));
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'everything, node_modules and dist included']);
    const r = await pack(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(filesIn(r.stdout)).toEqual(OWN);
    const req = await pack(dir, '--require', 'node_modules/left-pad/index.js');
    expect([req.code, req.stdout]).toEqual([2, '']);
    expect(req.stderr).toBe(
      'ctxbench: --require: node_modules/left-pad/index.js is not a file of the pool (node_modules/ is left out by the default ignores (dependencies); --no-default-ignores packs it)\n',
    );
    const lock = await pack(dir, '--require', 'package-lock.json', '--no-default-ignores');
    expect(lock.code, lock.stderr).toBe(0);
    expect(filesIn(lock.stdout)).toContain('package-lock.json');
  });
});
