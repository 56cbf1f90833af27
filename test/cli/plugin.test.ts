import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFlags, tempDir } from '../helpers/cli.js';
import { sharedProject } from '../helpers/project.js';

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

  it('study --jobs stops a strategy that hangs, records the timeout, keeps every other row', () => {
    const out = path.join(tmp, 'hang');
    const r = cli(
      'study',
      '--strategies',
      'compiler,zz-hang',
      '--jobs',
      '2',
      '--timeout',
      '1000',
      '--out',
      out,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/3 error rows/);
    const rows = fs
      .readFileSync(path.join(out, 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const failed = rows.filter((x) => x.reason === 'STRATEGY_ERROR');
    expect(failed.map((x) => `${x.case}/${x.strategy}`)).toEqual([
      'wrong-scope/zz-hang',
      'wrong-scope/zz-hang',
      'wrong-scope/zz-hang',
    ]);
    expect(failed[0].extras.error).toMatch(/timed out/);
    expect(rows.filter((x) => x.strategy === 'compiler').every((x) => x.reason !== 'STRATEGY_ERROR')).toBe(
      true,
    );
  });
});
