import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFlags, oneCaseCorpus } from '../helpers/cli.js';
import { copyOfBuilt, sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { FULL } from '../helpers/tier.js';

/*
 * A new file in strategies/ must join every command with no other file edited. This copies the
 * project aside, drops the minimal plug-in of docs/adding-a-strategy.md into strategies/ as TypeScript
 * (and one that hangs; test/helpers/plugins.ts), builds as `npm run build` does, and drives the real bin.
 */
const tmp = tempDir('plugin');
const project = sharedProject(tmp);
const pkg = project.dir;
const cli = (...args: string[]) => project.bin(args);
const build = project.build;

describe('a plug-in file joins every command', () => {
  it('builds with the project, no other file edited', () => {
    expect(build.status, build.output).toBe(0);
  });

  it('strategies --json lists it after the published six', () => {
    const names = JSON.parse(cli('strategies', '--json').stdout).map((s: { name: string }) => s.name);
    expect(names.slice(0, 6)).toEqual(['dump', 'topk', 'weighted', 'gated', 'compiler', 'oracle']);
    expect(names).toContain('zz-probe');
  });

  it('study runs and reports it', () => {
    const out = path.join(tmp, 'run');
    const r = cli('study', '--strategies', 'zz-probe,compiler', '--out', out);
    expect(r.status).toBe(0);
    const rows = fs
      .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.filter((x) => x.strategy === 'zz-probe')).toHaveLength(42);
    expect(rows[0]).toMatchObject({ strategy: 'compiler' });
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/^\| zz-probe \|/m);
  });

  it('compile --strategy runs it', () => {
    const r = cli(
      'compile',
      '--strategy',
      'zz-probe',
      ...caseFlags('wrong-scope', path.join(pkg, 'corpus/compiler-v1')),
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).bundle.items).toEqual([]);
  });

  it('study names its one error row as one ("1 error row"), and exits 1', () => {
    const r = cli('study', '--strategies', 'zz-once', '--out', path.join(tmp, 'once'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ctxbench: 1 error row:\n  wrong-scope/tight/zz-once: zz-once threw: once\n');
  });

  it('study --jobs stops a strategy that hangs: each cell an error row naming the timeout', () => {
    // The timeout is the subject: only cells that never answer run under it, the one case zz-hang
    // hangs on, so no honest cell can miss it on a loaded machine.
    const corpus = oneCaseCorpus(tmp, 'wrong-scope-only', 'wrong-scope');
    const out = path.join(tmp, 'hang');
    const args = ['--corpus', corpus, '--jobs', '2', '--timeout', '1000', '--out', out];
    const r = cli('study', '--strategies', 'zz-hang', ...args);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/3 error rows/);
    const rows = fs
      .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => [x.budget, x.reason, x.extras.error])).toEqual(
      ['tight', 'medium', 'roomy'].map((b) => [
        b,
        'STRATEGY_ERROR',
        'zz-hang timed out: no answer within 1000 ms, its process was stopped',
      ]),
    );
  });

  it('a source renamed after the build: every command stops, naming the stale file and npm run build', () => {
    // A copy of its own: the shared project is run by other files meanwhile.
    const copy = copyOfBuilt(project, tempDir('plugin-stale'));
    const [from, to] = ['zz-probe.ts', 'zz-renamed.ts'].map((f) => path.join(copy.dir, 'strategies', f));
    fs.renameSync(from as string, to as string);
    for (const args of [
      ['strategies'],
      ['study', '--strategies', 'compiler', '--out', path.join(tmp, 'stale')],
    ]) {
      const r = copy.bin(args);
      expect(r.status, args[0]).toBe(2);
      expect(r.stderr).toBe(
        `ctxbench: ${path.join(copy.dir, 'dist/strategies/zz-probe.js')}: built from a source that is gone (no zz-probe.ts, .mts, .js or .mjs in ${path.join(copy.dir, 'strategies')}): the build is stale, run npm run build (and 1 more stale strategy file)\n`,
      );
    }
    expect(fs.existsSync(path.join(tmp, 'stale'))).toBe(false);
    // Named back, the copy lists again (a listing asks every strategy's process: full tier).
    if (!FULL) return;
    fs.renameSync(to as string, from as string);
    expect(copy.bin(['strategies']).status).toBe(0);
  });
});
