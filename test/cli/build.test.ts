/**
 * A build that fails when the types fail: copied aside with a plug-in that does not type-check,
 * `npm run build` (scripts/build.mjs) exits non-zero and leaves no dist/ behind, so the bin
 * refuses to run a broken build instead of running it. The build's copy of the JavaScript
 * plug-ins takes regular files only, and no hard link to a file of the ledger; after tsc, nothing
 * in dist/ carries a file of the ledger, however it got there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/corpus.js';
import { BUILT_TRUTH, IMPORTED_TRUTH, PLANTED } from '../helpers/plugins.js';
import { copyOfBuilt, sharedProject, tinyProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';

it('a type error fails the build, removes the old dist/ and the bin says so', () => {
  // The build script and the bin on a tiny project: the project's own tsc would take a minute of
  // CPU to say the same of one plug-in.
  const pkg = tinyProject(tempDir('build'), {
    'strategies/zz-broken.ts':
      "export default { name: 'zz-broken', description: 1, assemble: () => ({ admitted: 'x' }) } satisfies { description: string };\n",
    // A stale build from before must not survive a failed one.
    'dist/src/cli/main.js': 'export const run = async () => 0;\n',
  });
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: pkg, encoding: 'utf8' });
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

it('after tsc, the build removes from dist/ what was made from a link to a ledger file, and any copy of one, at any depth', async () => {
  const script = pathToFileURL(path.join(ROOT, 'scripts/build.mjs')).href;
  const { dropTruth, ledgersOf } = (await import(script)) as {
    dropTruth: (root: string, ledgers: string[], say: (line: string) => void) => string[];
    ledgersOf: (root: string) => string[];
  };
  const root = tempDir('build-truth');
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const text = fs.readFileSync(path.join(ROOT, 'ledger/compiler-v1/wrong-scope.truth.json'), 'utf8');
  const other = fs.readFileSync(path.join(ROOT, 'ledger/compiler-v1/budget-slack.truth.json'), 'utf8');
  put('ledger/compiler-v1/wrong-scope.truth.json', text);
  put('corpus/mine/ledger/case.truth.json', other);
  // As tsc writes an imported JSON file: the same value, laid out its own way.
  const { expected, ...rest } = JSON.parse(text) as Record<string, unknown>;
  const reindented = `${JSON.stringify({ ...rest, expected }, null, 4)}\n`;
  // Sources in strategies/: a hard link at the top, a symbolic link and a TypeScript file
  // hard-linked to a truth file in a subfolder; what the build made of each, whatever it holds.
  fs.mkdirSync(path.join(root, 'strategies/sub'), { recursive: true });
  fs.linkSync(
    path.join(root, 'ledger/compiler-v1/wrong-scope.truth.json'),
    path.join(root, 'strategies/zz-hard.json'),
  );
  fs.symlinkSync(
    path.join(root, 'corpus/mine/ledger/case.truth.json'),
    path.join(root, 'strategies/sub/zz-sym.json'),
  );
  fs.linkSync(
    path.join(root, 'corpus/mine/ledger/case.truth.json'),
    path.join(root, 'strategies/sub/zz-odd.ts'),
  );
  put('dist/strategies/zz-hard.json', reindented);
  put('dist/strategies/sub/zz-sym.json', other);
  put('dist/strategies/sub/zz-odd.js', 'export {};\n');
  put('dist/strategies/sub/zz-odd.d.ts', 'export {};\n');
  // Copies, made by no link: the bytes, and the value re-indented with its keys in another order,
  // where tsc puts a truth file a plug-in imports from ../ledger.
  put('dist/strategies/zz-copy.json', text);
  put('dist/ledger/compiler-v1/wrong-scope.truth.json', reindented);
  // What stays: the code, a plug-in's own data, and part of a truth file (not the file).
  put('dist/src/main.js', 'export {};\n');
  put('dist/strategies/zz.weights.json', '{}\n');
  put('dist/strategies/zz-part.json', JSON.stringify(expected));

  const said: string[] = [];
  const removed = dropTruth(root, ledgersOf(root), (line) => said.push(line));
  const truth = ', a file of the ledger';
  expect(said).toEqual([
    `build: removed dist/strategies/sub/zz-odd.js: made from strategies/sub/zz-odd.ts, a hard link to corpus/mine/ledger/case.truth.json${truth}`,
    `build: removed dist/strategies/sub/zz-odd.d.ts: made from strategies/sub/zz-odd.ts, a hard link to corpus/mine/ledger/case.truth.json${truth}`,
    `build: removed dist/strategies/sub/zz-sym.json: made from strategies/sub/zz-sym.json, a symbolic link to corpus/mine/ledger/case.truth.json${truth}`,
    `build: removed dist/strategies/zz-hard.json: made from strategies/zz-hard.json, a hard link to ledger/compiler-v1/wrong-scope.truth.json${truth}`,
    `build: removed dist/ledger/compiler-v1/wrong-scope.truth.json: the same JSON as ledger/compiler-v1/wrong-scope.truth.json${truth}`,
    `build: removed dist/strategies/zz-copy.json: the same bytes as ledger/compiler-v1/wrong-scope.truth.json${truth}`,
  ]);
  expect(removed).toHaveLength(said.length);
  const left = (dir: string): string[] =>
    fs
      .readdirSync(path.join(root, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? left(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      .sort();
  // The folder only the ledger's copy made goes with it.
  expect(left('dist')).toEqual([
    'dist/src/main.js',
    'dist/strategies/zz-part.json',
    'dist/strategies/zz.weights.json',
  ]);
});

it('no truth file reaches dist/ through tsc: linked or copied into strategies/ or a subfolder, or imported from ../ledger', () => {
  // The shared project holds PLANTED and a module importing them (plugins.ts), built by npm run build.
  const project = sharedProject(tempDir('build-shared'));
  expect(project.build.status, project.build.output).toBe(0);
  const removed = project.build.output.split('\n').filter((l) => l.startsWith('build: removed '));
  const how = ([file, { how, truth }]: [string, { how: string; truth: string }]) =>
    how === 'link'
      ? `made from strategies/${file}, a hard link to ${truth}`
      : `the same ${file.includes('/') ? 'JSON' : 'bytes'} as ${truth}`;
  expect(removed.sort()).toEqual(
    [
      ...Object.entries(PLANTED).map(
        (p) => `build: removed dist/strategies/${p[0]}: ${how(p)}, a file of the ledger`,
      ),
      `build: removed dist/${IMPORTED_TRUTH}: the same JSON as ${IMPORTED_TRUTH}, a file of the ledger`,
    ].sort(),
  );
  for (const file of BUILT_TRUTH) expect(fs.existsSync(path.join(project.dir, file)), file).toBe(false);
  // Found by this test's own reading, not the build's: no JSON file of dist/ holds a truth value.
  const truths = fs
    .readdirSync(path.join(project.dir, 'ledger'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(project.dir, 'ledger', f), 'utf8')));
  expect(truths.length).toBeGreaterThan(20);
  const built = fs
    .readdirSync(path.join(project.dir, 'dist'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'));
  for (const f of built) {
    const value = JSON.parse(fs.readFileSync(path.join(project.dir, 'dist', f), 'utf8'));
    expect(
      truths.some((t) => isDeepStrictEqual(t, value)),
      f,
    ).toBe(false);
  }
  // A plug-in that imports them cannot load: the study stops before any cell, naming it. What tsc
  // makes of a top-level file re-exporting the subfolder's module is written here, not built again.
  const copy = copyOfBuilt(project, tempDir('build-shared-leak'));
  const reexport = "export { default } from './zzdata/zz-leak.js';\n";
  fs.writeFileSync(path.join(copy.dir, 'strategies/zz-leak.ts'), reexport);
  fs.writeFileSync(path.join(copy.dir, 'dist/strategies/zz-leak.js'), reexport);
  const r = copy.bin(['study', '--strategies', 'zz-leak', '--out', path.join(copy.dir, 'out')]);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/zz-leak\.js: could not be loaded: Cannot find module '.+\.json'/);
  expect(r.stdout).toBe('');
});
