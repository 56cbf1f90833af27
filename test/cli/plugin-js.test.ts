/**
 * A plug-in written in plain JavaScript (`.js` or `.mjs`) joins every command as a TypeScript one
 * does. The project is copied aside with two such files in strategies/, built as `npm run build`
 * builds it (which copies hand-written JavaScript into dist/strategies/), and driven through its
 * real bin, strategy processes and permission model included. Two files of one name, and a
 * JavaScript file that does not parse, stop every command with one line naming the files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFlags } from '../helpers/cli.js';
import { JS_GATED, MJS_TOPK } from '../helpers/plugins.js';
import { type BuiltProject, copyOfBuilt, rowsOf, sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { FULL } from '../helpers/tier.js';

const tmp = tempDir('plugin-js');
// The two plug-ins (test/helpers/plugins.ts) are in the copy of the project the plug-in tests share.
const project = sharedProject(tmp);
const pkg = project.dir;
const cli = (...args: string[]) => project.bin(args);

/** A row without the strategy's name: what a strategy's rows share with its twin's. */
const unnamed = (rows: Record<string, unknown>[], strategy: string) =>
  rows.filter((r) => r.strategy === strategy).map(({ strategy: _s, ...rest }) => rest);

describe('plain JavaScript plug-ins, from the built package', () => {
  it('build with the project, and land in dist/strategies as written', () => {
    expect(project.build.status, project.build.output).toBe(0);
    expect(fs.readFileSync(path.join(pkg, 'dist/strategies/zz-js-gated.js'), 'utf8')).toBe(JS_GATED);
    expect(fs.readFileSync(path.join(pkg, 'dist/strategies/zz-mjs-topk.mjs'), 'utf8')).toBe(MJS_TOPK);
  });

  it('strategies --json lists them after the published six', () => {
    const r = cli('strategies', '--json');
    expect(r.status, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as { name: string }[];
    expect(listed.slice(0, 6).map((s) => s.name)).toEqual([
      'dump',
      'topk',
      'weighted',
      'gated',
      'compiler',
      'oracle',
    ]);
    expect(listed).toContainEqual({
      name: 'zz-js-gated',
      description: 'gated, written in plain JavaScript',
      readsLedger: false,
    });
    expect(listed).toContainEqual({
      name: 'zz-mjs-topk',
      description: 'topk, written as an .mjs module',
      readsLedger: false,
    });
  });

  it('study runs them and scores them like the TypeScript strategies they copy', () => {
    const out = path.join(tmp, 'run');
    const r = cli('study', '--strategies', 'zz-js-gated,zz-mjs-topk,compiler,gated,topk', '--out', out);
    expect(r.status, r.stderr).toBe(0);
    const rows = rowsOf(out);
    expect(rows.map((x) => x.strategy).slice(0, 5)).toEqual([
      'topk',
      'gated',
      'compiler',
      'zz-js-gated',
      'zz-mjs-topk',
    ]);
    expect(unnamed(rows, 'zz-js-gated')).toHaveLength(42);
    expect(unnamed(rows, 'zz-js-gated')).toEqual(unnamed(rows, 'gated'));
    expect(unnamed(rows, 'zz-mjs-topk')).toEqual(unnamed(rows, 'topk'));
    const report = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(report).toMatch(/^\| zz-js-gated \|/m);
    expect(report).toMatch(/^\| zz-mjs-topk \|/m);
  });

  it('compile --strategy runs the .mjs one', () => {
    const flags = caseFlags('wrong-scope', path.join(pkg, 'corpus/compiler-v1'));
    const mine = cli('compile', '--strategy', 'zz-mjs-topk', ...flags);
    const theirs = cli('compile', '--strategy', 'topk', ...flags);
    expect(mine.status, mine.stderr).toBe(0);
    expect(JSON.parse(mine.stdout).bundle).toEqual(JSON.parse(theirs.stdout).bundle);
  });

  describe('bad plug-ins, added as a user would (planted in a copy of the build, as the build places them)', () => {
    // A copy of its own, as these change what is in it. What `npm run build` would make of the two
    // files is known (build.test.ts runs the build): it copies JavaScript into dist/strategies as
    // it is, and compiles the .ts to the .js the plain JavaScript one already is. Planting that
    // here tests the refusals without a second build of the whole project.
    const badTmp = tempDir('plugin-js-bad');
    let bad: BuiltProject | undefined;
    const withBadOnes = () => {
      if (bad !== undefined) return bad;
      const copy = copyOfBuilt(project, badTmp);
      const plant = (file: string, text: string, older?: string) => {
        const at = path.join(copy.dir, file);
        fs.writeFileSync(at, text);
        // A source no newer than what was built from it, or the stale-build check speaks first.
        if (older !== undefined) {
          const then = fs.statSync(path.join(copy.dir, older)).mtime;
          fs.utimesSync(at, then, then);
        }
      };
      plant(
        'strategies/zz-js-gated.ts',
        "export default { name: 'zz-js-gated', description: 'the same name again', assemble: () => ({ admitted: [] as string[] }) };\n",
        'dist/strategies/zz-js-gated.js',
      );
      // JavaScript is copied as it is, so a syntax error shows only where it is loaded.
      const broken = 'export default { name: ;\n';
      plant('strategies/zz-broken.mjs', broken);
      plant('dist/strategies/zz-broken.mjs', broken);
      bad = copy;
      return copy;
    };

    it('a .ts and a .js of one name stop every command, one line naming both files', () => {
      const b = withBadOnes();
      for (const args of [
        ['strategies'],
        ['study', '--strategies', 'compiler', '--out', path.join(tmp, 'dup')],
      ]) {
        const r = b.bin(args);
        expect(r.status, args[0]).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.split('\n')).toEqual([
          `ctxbench: ${path.join(b.dir, 'strategies/zz-js-gated.js')}: strategy "zz-js-gated" is also defined by ${path.join(b.dir, 'strategies/zz-js-gated.ts')}: one strategy, one file`,
          '',
        ]);
      }
      expect(fs.existsSync(path.join(tmp, 'dup'))).toBe(false);
    });

    it('a .mjs file that does not parse stops the command, one line naming it', () => {
      const b = withBadOnes();
      fs.rmSync(path.join(b.dir, 'strategies/zz-js-gated.ts'));
      const r = b.bin(['strategies']);
      expect(r.status).toBe(2);
      const [line, ...rest] = r.stderr.split('\n');
      expect(rest).toEqual(['']);
      // The parser's own words follow (they vary with the Node version).
      expect(line).toMatch(/^ctxbench: \S+: could not be loaded: \S/);
      expect(line?.startsWith(`ctxbench: ${path.join(b.dir, 'dist/strategies/zz-broken.mjs')}: `)).toBe(true);
      // And without it the copy lists again (a listing asks every strategy's process: full tier).
      if (!FULL) return;
      fs.rmSync(path.join(b.dir, 'strategies/zz-broken.mjs'));
      fs.rmSync(path.join(b.dir, 'dist/strategies/zz-broken.mjs'));
      expect(b.bin(['strategies']).status).toBe(0);
    });
  });
});
