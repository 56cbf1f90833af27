/**
 * A build that fails when the types fail: copied aside with a plug-in that does not type-check,
 * `npm run build` exits non-zero and leaves no dist/ behind, so the bin refuses to run a broken
 * build instead of running it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';

it('a type error fails the build, removes the old dist/ and the bin says so', () => {
  const pkg = path.join(tempDir('build'), 'pkg');
  for (const part of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'bin', 'src', 'strategies'])
    fs.cpSync(path.join(ROOT, part), path.join(pkg, part), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
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
