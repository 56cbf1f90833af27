/**
 * The build is put in place whole and only when its inputs changed (scripts/build.mjs): a command
 * running during a build sees the old dist/ or the new one, never half of one, and a second build
 * of the same sources writes nothing. Run on a project of two source files, so that tsc takes
 * moments: what is tested is the script's handling of dist/, not the compiler.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/corpus.js';
import { tinyProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';

const build = (dir: string) =>
  spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, encoding: 'utf8' });

it('a build of unchanged inputs is skipped and says so; a changed source is built again', () => {
  const dir = tinyProject(tempDir('build-atomic'));
  expect(build(dir).status).toBe(0);
  const main = path.join(dir, 'dist/src/cli/main.js');
  expect(fs.readFileSync(main, 'utf8')).toMatch(/answer = 1/);
  // Something the build did not make: a rebuild would not keep it.
  const mark = path.join(dir, 'dist/mark');
  fs.writeFileSync(mark, '');
  const again = build(dir);
  expect(again.status).toBe(0);
  expect(again.stderr).toMatch(/dist\/ is up to date/);
  expect(fs.existsSync(mark)).toBe(true);
  // A touched strategy (its bytes unchanged) is up to date too, and what was built of it is
  // made no older than it, or the bin's stale-build check would ask for a build that is skipped.
  const zz = path.join(dir, 'strategies/zz.ts');
  const built = path.join(dir, 'dist/strategies/zz.js');
  const now = new Date();
  fs.utimesSync(zz, now, now);
  expect(fs.statSync(built).mtimeMs).toBeLessThan(fs.statSync(zz).mtimeMs);
  expect(build(dir).stderr).toMatch(/up to date/);
  expect(fs.statSync(built).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(zz).mtimeMs);
  fs.writeFileSync(path.join(dir, 'src/cli/main.ts'), 'export const answer: number = 2;\n');
  // What a build stopped halfway left, by a process long gone (pid 2^22 + 1 lies past Linux's
  // limit): cleared by the next build.
  for (const left of ['dist.build-4194305', 'dist.old-4194305'])
    fs.mkdirSync(path.join(dir, left, 'src'), { recursive: true });
  const changed = build(dir);
  expect(changed.status, changed.stderr).toBe(0);
  expect(changed.stderr).not.toMatch(/up to date/);
  expect(fs.existsSync(mark)).toBe(false);
  expect(fs.readFileSync(main, 'utf8')).toMatch(/answer = 2/);
  // Nothing of the making is left beside it.
  expect(
    fs
      .readdirSync(dir)
      .filter((n) => n.startsWith('dist'))
      .sort(),
  ).toEqual(['dist']);
});

it('while a build runs, dist/ holds the whole old build until the new one replaces it whole', async () => {
  const dir = tinyProject(tempDir('build-atomic'));
  expect(build(dir).status).toBe(0);
  fs.writeFileSync(path.join(dir, 'src/cli/main.ts'), 'export const answer: number = 2;\n');
  const main = path.join(dir, 'dist/src/cli/main.js');
  const seen = new Set<string>();
  const running = spawn(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: 'ignore' });
  const done = new Promise<number | null>((resolve) => running.on('exit', resolve));
  let finished = false;
  void done.then(() => {
    finished = true;
  });
  while (!finished) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(main, 'utf8');
    } catch {
      // Only in the instant between the build's two renames, with the old build aside (the bin
      // waits that out); never a dist/ without its main module.
      const names = fs.readdirSync(dir);
      seen.add(names.some((n) => n.startsWith('dist.old-')) ? 'swapping' : 'missing');
    }
    if (text !== undefined)
      seen.add(/answer = 1/.test(text) ? 'old' : /answer = 2/.test(text) ? 'new' : text);
    await new Promise((r) => setTimeout(r, 2));
  }
  expect(await done).toBe(0);
  seen.add(/answer = 2/.test(fs.readFileSync(main, 'utf8')) ? 'new' : 'old');
  expect([...seen].filter((s) => s !== 'swapping').sort()).toEqual(['new', 'old']);
});

it('the bin waits out the instant between the two renames instead of calling the project unbuilt', async () => {
  const dir = path.join(tempDir('build-swap'), 'pkg');
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'bin/ctxbench.js'), path.join(dir, 'bin/ctxbench.js'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  // The old build aside, the new one not yet in place.
  fs.mkdirSync(path.join(dir, 'dist.old-1'));
  const bin = spawn(process.execPath, [path.join(dir, 'bin/ctxbench.js')], { stdio: 'pipe' });
  let stderr = '';
  bin.stderr.on('data', (d) => {
    stderr += d;
  });
  await new Promise((r) => setTimeout(r, 300));
  fs.mkdirSync(path.join(dir, 'dist/src/cli'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'dist/src/cli/main.js'), 'export const run = async () => 7;\n');
  fs.rmSync(path.join(dir, 'dist.old-1'), { recursive: true });
  const code = await new Promise((resolve) => bin.on('exit', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(7);
});
