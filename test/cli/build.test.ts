/**
 * A build that fails when the types fail: copied aside with a plug-in that does not type-check,
 * `npm run build` (scripts/build.mjs) exits non-zero and leaves no dist/ behind, so the bin
 * refuses to run a broken build instead of running it. The build's copy of the JavaScript
 * plug-ins takes regular files only, and no hard link to a file of the ledger.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';
import { copyProject } from '../helpers/project.js';

it('a type error fails the build, removes the old dist/ and the bin says so', () => {
  const pkg = path.join(tempDir('build'), 'pkg');
  copyProject(pkg, false);
  // A stale build from before must not survive a failed one.
  fs.mkdirSync(path.join(pkg, 'dist/src/cli'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'dist/src/cli/main.js'), 'export const run = async () => 0;\n');
  fs.writeFileSync(
    path.join(pkg, 'strategies/zz-broken.ts'),
    "export default { name: 'zz-broken', description: 1, assemble: () => ({ admitted: 'x' }) } satisfies { description: string };\n",
  );
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: pkg, encoding: 'utf8' });
  expect(build.status).not.toBe(0);
  expect(build.stdout + build.stderr).toMatch(/zz-broken\.ts/);
  expect(fs.existsSync(path.join(pkg, 'dist'))).toBe(false);
  const bin = spawnSync(process.execPath, [path.join(pkg, 'bin/ctxbench.js'), 'strategies'], {
    encoding: 'utf8',
  });
  expect(bin.status).toBe(2);
  expect(bin.stderr).toMatch(/not built yet/);
});

it('the build copies the plug-ins tsc does not emit, regular files only: a symlink is skipped and named', async () => {
  // The script is plain JavaScript; its one export is typed here.
  const script = pathToFileURL(path.join(ROOT, 'scripts/build.mjs')).href;
  const { copyStrategies } = (await import(script)) as {
    copyStrategies: (from: string, to: string, say: (line: string) => void) => string[];
  };
  const tmp = tempDir('build-copy');
  const [from, to] = [path.join(tmp, 'strategies'), path.join(tmp, 'dist/strategies')];
  fs.mkdirSync(from);
  fs.writeFileSync(path.join(from, 'zz-js.js'), 'export default 1;\n');
  fs.writeFileSync(path.join(from, 'zz-esm.mjs'), 'export default 2;\n');
  fs.writeFileSync(path.join(from, 'zz.weights.json'), '{}\n');
  fs.writeFileSync(path.join(from, 'zz-ts.ts'), 'export default 3;\n');
  // A file outside the project, reached through a link that looks like a plug-in.
  const outside = path.join(tmp, 'secret.txt');
  fs.writeFileSync(outside, 'not for strategies\n');
  fs.symlinkSync(outside, path.join(from, 'zz-link.mjs'));
  // A truth file of the ledger, linked as if it were a plug-in's data.
  fs.symlinkSync(
    path.join(ROOT, 'ledger/compiler-v1/wrong-scope.truth.json'),
    path.join(from, 'zz-truth.json'),
  );
  fs.mkdirSync(path.join(from, 'zz-dir.js'));

  const said: string[] = [];
  const copied = copyStrategies(from, to, (line) => said.push(line));
  expect(copied).toEqual(['zz-esm.mjs', 'zz-js.js', 'zz.weights.json']);
  expect(fs.readdirSync(to).sort()).toEqual(copied);
  expect(fs.readFileSync(path.join(to, 'zz-js.js'), 'utf8')).toBe('export default 1;\n');
  expect(said).toEqual([
    'build: skipped strategies/zz-dir.js: not a regular file, not copied into dist/',
    'build: skipped strategies/zz-link.mjs: a symbolic link, not copied into dist/',
    'build: skipped strategies/zz-truth.json: a symbolic link, not copied into dist/',
  ]);
  expect(fs.existsSync(path.join(to, 'zz-truth.json'))).toBe(false);
});

it('the build skips a hard link to a file of either ledger folder, and names it; other hard links are copied', async () => {
  const script = pathToFileURL(path.join(ROOT, 'scripts/build.mjs')).href;
  const { copyStrategies, ledgersOf } = (await import(script)) as {
    copyStrategies: (from: string, to: string, say: (line: string) => void, ledgers: string[]) => string[];
    ledgersOf: (root: string) => string[];
  };
  const root = tempDir('build-hard');
  const from = path.join(root, 'strategies');
  // The package's ledger, and a corpus's own ledger folder, where the harness looks first.
  const truth = path.join(root, 'ledger/compiler-v1/wrong-scope.truth.json');
  const own = path.join(root, 'corpus/mine/ledger/case.truth.json');
  for (const f of [truth, own]) {
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'ledger/compiler-v1/wrong-scope.truth.json'), f);
  }
  fs.mkdirSync(from);
  // A hard link is a regular file, the truth itself under another name.
  fs.linkSync(truth, path.join(from, 'zz-truth.json'));
  fs.linkSync(own, path.join(from, 'zz-own.json'));
  // A file linked twice that is no ledger's is a plug-in's file like any other.
  fs.writeFileSync(path.join(root, 'weights.json'), '{}\n');
  fs.linkSync(path.join(root, 'weights.json'), path.join(from, 'zz.weights.json'));

  const said: string[] = [];
  const to = path.join(root, 'dist/strategies');
  expect(copyStrategies(from, to, (line) => said.push(line), ledgersOf(root))).toEqual(['zz.weights.json']);
  expect(fs.readdirSync(to)).toEqual(['zz.weights.json']);
  expect(said).toEqual([
    'build: skipped strategies/zz-own.json: a hard link to corpus/mine/ledger/case.truth.json, a file of the ledger, not copied into dist/',
    'build: skipped strategies/zz-truth.json: a hard link to ledger/compiler-v1/wrong-scope.truth.json, a file of the ledger, not copied into dist/',
  ]);
});
