/**
 * `ctxbench findings` over several run folders: runs named by their folder, the first filling the
 * placeholders that name none, and the usage errors of naming two runs alike or one corpus for two.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { cli } from '../helpers/cli.js';
import { CORPUS_DIR } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = tempDir('findings-runs');
const first = path.join(tmp, 'a', 'results');
const twin = path.join(tmp, 'b', 'results');
const other = path.join(tmp, 'b', 'other');
const template = path.join(tmp, 'template.md');

type RowJson = { strategy: string; budget: string };
const rowsOf = (dir: string): RowJson[] =>
  fs
    .readFileSync(path.join(dir, 'rows.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RowJson);
const dumpRows = (dir: string) => rowsOf(dir).filter((r) => r.strategy === 'dump').length;

beforeAll(async () => {
  const r = await cli('study', '--strategies', 'dump,compiler', '--out', first, '--quiet');
  expect(r.code, r.stderr).toBe(0);
  // The same run under the same name elsewhere, and under another name with its tight rows alone.
  fs.cpSync(first, twin, { recursive: true });
  fs.cpSync(first, other, { recursive: true });
  const lines = fs
    .readFileSync(path.join(first, 'rows.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const tight = lines.filter((l) => (JSON.parse(l) as RowJson).budget === 'tight');
  fs.writeFileSync(path.join(other, 'rows.jsonl'), `${tight.join('\n')}\n`);
  fs.writeFileSync(template, 'first {*/*/dump.compilations}, other {other:*/*/dump.compilations}\n');
});

describe('findings over several runs', () => {
  it("fills a placeholder naming a run from that run's folder, the others from the first", async () => {
    const theirs = dumpRows(other);
    const mine = dumpRows(first);
    expect(theirs).toBeGreaterThan(0);
    expect(theirs).not.toBe(mine);
    const r = await cli('findings', first, other, '--template', template);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`first ${mine}, other ${theirs}\n`);
    // the other order: the first run is now `other`, and `results` names nothing
    const swapped = await cli('findings', other, first, '--template', template);
    expect(swapped.code, swapped.stderr).toBe(0);
    expect(swapped.stdout).toBe(`first ${theirs}, other ${theirs}\n`);
  });

  it('two run folders of the same name, in different parents, are a bad input naming it', async () => {
    const r = await cli('findings', first, twin, '--template', template);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"results"');
    expect(r.stdout).toBe('');
  });

  it('--corpus with two runs is a usage error', async () => {
    const r = await cli('findings', first, other, '--template', template, '--corpus', CORPUS_DIR);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--corpus');
    expect(r.stdout).toBe('');
    // with one run it is accepted
    const single = path.join(tmp, 'single.md');
    fs.writeFileSync(single, '{*/*/dump.compilations}\n');
    const one = await cli('findings', first, '--template', single, '--corpus', CORPUS_DIR);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(`${dumpRows(first)}\n`);
  });
});
