/**
 * A plug-in written in plain JavaScript (`.js` or `.mjs`) joins every command as a TypeScript one
 * does. The project is copied aside with two such files in strategies/, built as `npm run build`
 * builds it (which copies hand-written JavaScript into dist/strategies/), and driven through its
 * real bin, strategy processes and permission model included. Two files of one name, and a
 * JavaScript file that does not parse, stop every command with one line naming the files.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFlags, tempDir } from '../helpers/cli.js';
import { builtProject, rowsOf } from '../helpers/project.js';

/** The gated baseline (strategies/gated.ts) in plain JavaScript, the kit imported as the docs say. */
const JS_GATED = `import { baselineAnswer, defaultFormPool, gate, greedyFill, rankBy } from '../src/harness/kit/index.js';

export default {
  name: 'zz-js-gated',
  description: 'gated, written in plain JavaScript',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    const why = new Map();
    const open = pool.filter((c) => {
      const verdict = gate(c);
      if (verdict.code !== 'eligible') why.set(c.candidate_id, verdict);
      return verdict.code === 'eligible';
    });
    return baselineAnswer(input, pool, greedyFill(rankBy(open, (c) => c.relevance), input), 'gated-greedy', why);
  },
};
`;

/** The topk baseline as an ES module file, the kit imported through the package's own name. */
const MJS_TOPK = `import { baselineAnswer, defaultFormPool, greedyFill, rankBy } from 'ctxbench/kit';

export default {
  name: 'zz-mjs-topk',
  description: 'topk, written as an .mjs module',
  assemble(input) {
    const pool = defaultFormPool(input.candidates);
    return baselineAnswer(input, pool, greedyFill(rankBy(pool, (c) => c.relevance), input), 'topk-greedy');
  },
};
`;

const tmp = tempDir('plugin-js');
const project = builtProject(tmp, { 'zz-js-gated.js': JS_GATED, 'zz-mjs-topk.mjs': MJS_TOPK });
const pkg = project.dir;
const cli = (...args: string[]) => project.bin(args);

/**
 * builtProject compiles with tsc alone; copying the JavaScript plug-ins is the build script's
 * own step, so build again exactly as `npm run build` does.
 */
const npmBuild = () => {
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: pkg, encoding: 'utf8' });
  return { status: r.status, output: r.stdout + r.stderr };
};
const build = project.build.status === 0 ? npmBuild() : project.build;

/** A row without the strategy's name: what a strategy's rows share with its twin's. */
const unnamed = (rows: Record<string, unknown>[], strategy: string) =>
  rows.filter((r) => r.strategy === strategy).map(({ strategy: _s, ...rest }) => rest);

describe('plain JavaScript plug-ins, from the built package', () => {
  it('build with the project, and land in dist/strategies as written', () => {
    expect(build.status, build.output).toBe(0);
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
    let rebuilt: { status: number | null; output: string } | undefined;
    // Written once, then built: a source written again after the build is a stale build, said as such.
    const rebuildWithBadOnes = () => {
      rebuilt ??= (() => {
        fs.writeFileSync(
          path.join(pkg, 'strategies/zz-js-gated.ts'),
          "export default { name: 'zz-js-gated', description: 'the same name again', assemble: () => ({ admitted: [] as string[] }) };\n",
        );
        // The build copies JavaScript as it is, so a syntax error shows only where it is loaded.
        fs.writeFileSync(path.join(pkg, 'strategies/zz-broken.mjs'), 'export default { name: ;\n');
        return npmBuild();
      })();
      return rebuilt;
    };

    it('a .ts and a .js of one name stop every command, one line naming both files', () => {
      const b = rebuildWithBadOnes();
      expect(b.status, b.output).toBe(0);
      for (const args of [
        ['strategies'],
        ['study', '--strategies', 'compiler', '--out', path.join(tmp, 'dup')],
      ]) {
        const r = cli(...args);
        expect(r.status, args[0]).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.split('\n')).toEqual([
          `ctxbench: ${path.join(pkg, 'strategies/zz-js-gated.js')}: strategy "zz-js-gated" is also defined by ${path.join(pkg, 'strategies/zz-js-gated.ts')}: one strategy, one file`,
          '',
        ]);
      }
      expect(fs.existsSync(path.join(tmp, 'dup'))).toBe(false);
    });

    it('a .mjs file that does not parse stops the command, one line naming it', () => {
      const b = rebuildWithBadOnes();
      expect(b.status, b.output).toBe(0);
      fs.rmSync(path.join(pkg, 'strategies/zz-js-gated.ts'));
      const r = cli('strategies');
      expect(r.status).toBe(2);
      const [line, ...rest] = r.stderr.split('\n');
      expect(rest).toEqual(['']);
      // The parser's own words follow (they vary with the Node version).
      expect(line).toMatch(/^ctxbench: \S+: could not be loaded: \S/);
      expect(line?.startsWith(`ctxbench: ${path.join(pkg, 'dist/strategies/zz-broken.mjs')}: `)).toBe(true);
      fs.rmSync(path.join(pkg, 'strategies/zz-broken.mjs'));
      fs.rmSync(path.join(pkg, 'dist/strategies/zz-broken.mjs'));
      expect(cli('strategies').status).toBe(0);
    });
  });
});
