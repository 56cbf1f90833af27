/**
 * `--format` wherever a table is printed (study, compare and bench are checked in their own
 * files): csv holds the rows of the text table, json parses to an object per row, md has its rule
 * line; under csv and json stdout holds the table alone. And survey's progress, on stderr only.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { bufferIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { cli } from '../helpers/cli.js';
import { expectMarkdownTable, expectSameRows, parseCsv, textTables } from '../helpers/tables.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('format');

/** The command's output in every format; each must exit 0. */
async function formats(...args: string[]) {
  const out: Record<string, { stdout: string; stderr: string }> = {};
  for (const format of ['text', 'md', 'csv', 'json']) {
    const r = await cli(...args, '--format', format);
    expect(r.code, `${format}: ${r.stderr}`).toBe(0);
    out[format] = r;
  }
  return out as Record<'text' | 'md' | 'csv' | 'json', { stdout: string; stderr: string }>;
}

describe('trace --format', () => {
  it('prints one table four ways; the outcome line goes to stderr under csv and json', async () => {
    const f = await formats('trace', 'mandatory-overflow', '--budget', 'tight');
    const [table] = textTables(f.text.stdout);
    expect(table?.rows.map((r) => r[1])).toEqual(['mand-b', 'mand-a']);
    expect(table?.rows[0]?.[0]).toBe('yes');
    expectSameRows(table as NonNullable<typeof table>, parseCsv(f.csv.stdout));
    const json = JSON.parse(f.json.stdout);
    expect(json.map((r: { candidate: string }) => r.candidate)).toEqual(['mand-b', 'mand-a']);
    expect(json[0]).toMatchObject({ blocking: 'yes', decision: null, marginal: 2500, position: null });
    expectMarkdownTable(f.md.stdout);
    expect(f.text.stdout.split('\n')[0]).toMatch(
      /^mandatory-overflow at 4,000 tokens \(compiler\): refused /,
    );
    for (const format of ['csv', 'json'] as const)
      expect(f[format].stderr).toBe(`${f.text.stdout.split('\n')[0]}\n`);
  });

  it('--json stays the whole trace; with --format other than text it is a usage error', async () => {
    const json = JSON.parse((await cli('trace', 'mandatory-overflow', '--budget', 'tight', '--json')).stdout);
    expect(json.not_reached).toEqual(['mand-b']);
    const both = await cli('trace', 'mandatory-overflow', '--budget', 'tight', '--json', '--format', 'csv');
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toContain('--json and --format csv');
  });
});

describe('strategies --format', () => {
  // --json, a fixed contract, is checked in study.test.ts; each call here starts every strategy's host.
  it('prints the registry four ways', async () => {
    const f = await formats('strategies');
    const [table] = textTables(f.text.stdout);
    expect(table?.headers).toEqual(['name', 'ledger', 'description']);
    expectSameRows(table as NonNullable<typeof table>, parseCsv(f.csv.stdout));
    const rows = JSON.parse(f.json.stdout);
    expect(rows.find((r: { name: string }) => r.name === 'oracle')).toMatchObject({ ledger: 'reads' });
    expect(Object.keys(rows[0])).toEqual(['name', 'ledger', 'description']);
    expectMarkdownTable(f.md.stdout);
  });
});

describe('survey', () => {
  const runDir = path.join(tmp, 'run');

  beforeAll(async () => {
    const r = await cli('study', '--strategies', 'compiler,exact', '--out', runDir, '--quiet');
    expect(r.code, r.stderr).toBe(0);
  });

  it('--format: a text table per run, one csv or json table with a run column, md the document', async () => {
    const f = await formats('survey', runDir, runDir);
    const tables = textTables(f.text.stdout);
    expect(tables).toHaveLength(2);
    const csv = parseCsv(f.csv.stdout);
    expect(csv[0]?.[0]).toBe('run');
    const text = { headers: tables[0]?.headers ?? [], rows: tables.flatMap((t) => t.rows) };
    expectSameRows(text, csv, 1);
    expect(JSON.parse(f.json.stdout)).toHaveLength(text.rows.length);
    expectMarkdownTable(f.md.stdout);
    expect(f.md.stdout.startsWith('# Survey against `exact`\n')).toBe(true);
    // Under csv and json the line above each table goes to stderr, after the progress.
    expect(f.csv.stderr.split('\n').filter((l) => l.startsWith('compiler-v1: 42 cells;'))).toHaveLength(2);
  });

  it('shows progress on stderr only: one final line in a log, updates on a terminal, none with --quiet', async () => {
    const log = await cli('survey', runDir);
    expect(log.stderr).toMatch(/^survey: 1 run, 84 rows in [\d.]+ m?s\n$/);
    expect(log.stdout).not.toContain('survey');
    const tty = bufferIo({ isTTY: true });
    expect(await run(['survey', runDir, runDir], tty)).toBe(0);
    const updates = tty.stderr.split('\r').filter((s) => s.trim() !== '');
    expect(updates.map((s) => s.trimEnd().replace(/ in [\d.]+ m?s$/, ''))).toEqual([
      `survey 0/2 runs read, reading ${runDir}`,
      `survey 1/2 runs read, reading ${runDir}`,
      'survey 0/2 runs scored, scoring compiler-v1',
      'survey 1/2 runs scored, scoring compiler-v1',
      'survey: 2 runs, 168 rows',
    ]);
    expect(tty.stdout).toBe((await cli('survey', runDir, runDir)).stdout);
    for (const format of ['text', 'csv']) {
      const quiet = await cli('survey', runDir, '--quiet', '--format', format);
      expect(quiet.stderr).toBe('');
      expect(quiet.stdout).toContain('compiler');
    }
  });
});
