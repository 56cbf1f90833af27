/**
 * `ingest --swe-bench ... --shard i/n` on separate machines, each slice studied on its own, then
 * `merge --corpus`: the corpus and the rows of one ingest and one study of the whole, byte for
 * byte, which `validate` accepts. The fixture's instances of one repository fall into different
 * slices at different commits, so a slice that read only its own commits would score its files
 * against another relevance index and differ.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { corpusDigest } from '../../src/harness/runfolder/index.js';
import { cli } from '../helpers/cli.js';
import { folderBytes } from '../helpers/corpus-files.js';
import { jsonLines, makeSweFixture, type SweFixture } from '../helpers/swe-fixture.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = fs.realpathSync(tempDir('swe-shards'));
const STRATEGIES = 'compiler-v2,bm25,topk,aider-repomap';
let fx: SweFixture;
let records: string;

const ok = async (...args: string[]) => {
  const r = await cli(...args);
  expect([r.code, r.stderr], args.join(' ')).toEqual([0, '']);
  return r;
};
const at = (...parts: string[]) => path.join(tmp, ...parts);
/** `ingest --swe-bench` of the fixture's records into `out`, as it answers. */
const sweIngest = (out: string, ...more: string[]) =>
  cli('ingest', '--swe-bench', records, '--repos', fx.repos, '--out', out, ...more);
const ingest = async (out: string, ...more: string[]) => {
  const r = await sweIngest(out, '--quiet', ...more);
  expect([r.code, r.stderr], more.join(' ')).toEqual([0, '']);
};
const study = (corpus: string, out: string) =>
  ok('study', '--corpus', corpus, '--out', out, '--strategies', STRATEGIES, '--quiet');
const manifestOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

beforeAll(async () => {
  fx = makeSweFixture(tmp);
  records = at('instances.jsonl');
  fs.writeFileSync(records, jsonLines(fx.records));
  // The whole, as one machine does it; the joined corpus will have the same folder name.
  await ingest(at('one', 'lite'));
  await study(at('one', 'lite'), at('one', 'run'));
  for (const i of [1, 2, 3]) {
    await ingest(at(`slice-${i}`), '--shard', `${i}/3`);
    await study(at(`slice-${i}`), at(`run-${i}`));
  }
}, 120_000);

describe('ingest --shard, study each slice, merge --corpus', () => {
  it('slices the selection in ingest order, each once, and says which slice it wrote', async () => {
    const slices = [1, 2, 3].map((i) => manifestOf(at(`slice-${i}`)));
    // Six records in ingest order: gadgets-7, widgets-1..4, missing-1; two a slice.
    expect(slices.map((m) => [m.ingest.shard.from, m.ingest.shard.to, m.ingest.shard.total])).toEqual([
      [0, 2, 6],
      [2, 4, 6],
      [4, 6, 6],
    ]);
    expect(slices.map((m) => m.fixtures)).toEqual([
      ['acme__gadgets-7', 'acme__widgets-1'],
      ['acme__widgets-2'],
      ['acme__widgets-4'],
    ]);
    expect(Object.keys(slices[2].ingest.skipped_instances)).toEqual(['nobody__missing-1']);
    const said = await sweIngest(at('said'), '--shard', '2/3');
    expect(said.stdout.split('\n')[0]).toBe(
      `swe-bench: 1 case written to ${at('said')} (6 of 6 records selected; slice 2/3: instances 3 to 4 of the 6)`,
    );
  });

  it('merged in any order, gives the corpus and the rows of one ingest and study, and validate accepts it', async () => {
    const r = await ok(
      'merge',
      at('run-3'),
      at('run-1'),
      at('run-2'),
      '--out',
      at('merged'),
      '--corpus',
      at('two', 'lite'),
    );
    expect(r.stdout).toContain('4 cases joined into');
    expect(folderBytes(at('two', 'lite'))).toEqual(folderBytes(at('one', 'lite')));
    for (const file of ['rows.jsonl', 'report.md', 'summary.json'])
      expect(fs.readFileSync(at('merged', file), 'utf8'), file).toBe(
        fs.readFileSync(at('one', 'run', file), 'utf8'),
      );
    // The page names the corpus as its user knows it; report.md, by its folder's name.
    const title = (run: string) =>
      /<title>(.*)<\/title>/.exec(fs.readFileSync(at(...run.split('/'), 'report.html'), 'utf8'))?.[1];
    expect(title('one/run')).toBe('Study report: SWE-bench (instances.jsonl): 4 instances of 2 repositories');
    expect(title('merged')).toBe(title('one/run'));
    expect(title('run-1')).toBe('Study report: SWE-bench (instances.jsonl): 2 instances of 2 repositories');
    expect(fs.readFileSync(at('merged', 'report.md'), 'utf8').split('\n')[0]).toBe('# Study report: lite');
    const m = manifestOf(at('merged'));
    expect(m.corpus.digest).toBe(manifestOf(at('one', 'run')).corpus.digest);
    expect(m.merged_from).toHaveLength(3);
    await ok('validate', at('merged'));
  });

  it('refuses an empty slice, a missing slice and slices of other selections, in one line each', async () => {
    const empty = await sweIngest(at('e'), '--shard', '1/8');
    expect([empty.code, empty.stderr]).toEqual([
      2,
      'ctxbench: --shard 1/8: that slice of the 6 selected instances is empty; give at most 6 shards (see ctxbench ingest --help)\n',
    ]);
    expect(fs.existsSync(at('e'))).toBe(false);
    const two = await cli('merge', at('run-1'), at('run-2'), '--out', at('m2'), '--corpus', at('c2'));
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/slice-1\/manifest\.json: ingest\.shard: 1\/3: need each of 1\.\.3 once\n$/);
    // A slice of another selection (--limit 4) in place of the third.
    await ingest(at('other'), '--shard', '3/3', '--limit', '5');
    await study(at('other'), at('run-other'));
    const mixed = await cli(
      'merge',
      at('run-1'),
      at('run-2'),
      at('run-other'),
      '--out',
      at('m3'),
      '--corpus',
      at('c3'),
    );
    expect(mixed.code).toBe(2);
    expect(mixed.stderr.split('\n')).toHaveLength(2);
    expect(mixed.stderr).toContain('other/manifest.json: ingest.shard');
    // A slice whose manifest names a case by a path out of its folder, its run re-pointed at it:
    // refused before any file is read or written.
    fs.cpSync(at('slice-3'), at('evil'), { recursive: true });
    fs.cpSync(at('run-3'), at('run-evil'), { recursive: true });
    const m = manifestOf(at('evil'));
    m.fixtures = ['../../escape'];
    m.budgets['../../escape'] = m.budgets['acme__widgets-4'];
    fs.writeFileSync(path.join(at('evil'), 'manifest.json'), JSON.stringify(m));
    const run = manifestOf(at('run-evil'));
    run.corpus = { ...run.corpus, dir: at('evil'), digest: corpusDigest(at('evil')) };
    fs.writeFileSync(path.join(at('run-evil'), 'manifest.json'), JSON.stringify(run));
    const evil = await cli(
      'merge',
      at('run-1'),
      at('run-2'),
      at('run-evil'),
      '--out',
      at('m4'),
      '--corpus',
      at('c4'),
    );
    expect([evil.code, evil.stderr]).toEqual([
      2,
      `ctxbench: ${path.join(at('evil'), 'manifest.json')}: fixtures: not a list of case names (letters, digits, _ . -)\n`,
    ]);
    for (const d of ['m2', 'c2', 'm3', 'c3', 'm4', 'c4', '../escape.candidates.json'])
      expect(fs.existsSync(at(d)), d).toBe(false);
  });
});
