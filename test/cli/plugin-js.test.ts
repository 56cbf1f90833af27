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
import { type BuiltProject, builtProject, rowsOf, sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';

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

  describe('bad plug-ins, added and built as a user would (one build for both)', () => {
    // A copy of its own, as these change what is in it.
    const badTmp = tempDir('plugin-js-bad');
    let bad: BuiltProject | undefined;
    const rebuildWithBadOnes = () => {
      bad ??= builtProject(badTmp, {
        'zz-js-gated.js': JS_GATED,
        'zz-mjs-topk.mjs': MJS_TOPK,
        'zz-js-gated.ts':
          "export default { name: 'zz-js-gated', description: 'the same name again', assemble: () => ({ admitted: [] as string[] }) };\n",
        // The build copies JavaScript as it is, so a syntax error shows only where it is loaded.
        'zz-broken.mjs': 'export default { name: ;\n',
      });
      return bad;
    };

    it('a .ts and a .js of one name stop every command, one line naming both files', () => {
      const b = rebuildWithBadOnes();
      expect(b.build.status, b.build.output).toBe(0);
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
      const b = rebuildWithBadOnes();
      expect(b.build.status, b.build.output).toBe(0);
      fs.rmSync(path.join(b.dir, 'strategies/zz-js-gated.ts'));
      const r = b.bin(['strategies']);
      expect(r.status).toBe(2);
      const [line, ...rest] = r.stderr.split('\n');
      expect(rest).toEqual(['']);
      // The parser's own words follow (they vary with the Node version).
      expect(line).toMatch(/^ctxbench: \S+: could not be loaded: \S/);
      expect(line?.startsWith(`ctxbench: ${path.join(b.dir, 'dist/strategies/zz-broken.mjs')}: `)).toBe(true);
      fs.rmSync(path.join(b.dir, 'strategies/zz-broken.mjs'));
      fs.rmSync(path.join(b.dir, 'dist/strategies/zz-broken.mjs'));
      expect(b.bin(['strategies']).status).toBe(0);
    });
  });
});
