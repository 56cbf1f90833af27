import fs from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContextCandidate } from '../../src/compiler/index.js';
import { BLOB_MIN_BYTES } from '../../src/harness/ingest/case-files.js';
import { corpusDigest } from '../../src/harness/runfolder/index.js';
import { cli } from '../helpers/cli.js';
import { blobFiles, blobIndex, blobText, folderBytes, type Place, poolOf } from '../helpers/corpus-files.js';
import {
  CORE_V1,
  jsonLines,
  makeSweFixture,
  type SweFixture,
  UTIL,
  WIDGET_POOL,
} from '../helpers/swe-fixture.js';
import { tempDir } from '../helpers/temp.js';

// The process boundary is not what this file is about: strategies answer in this thread.
vi.mock('../../src/harness/hosts/hosts.js', () => import('../helpers/in-thread-hosts.js'));

const tmp = fs.realpathSync(tempDir('swe-bench'));
const corpus = path.join(tmp, 'corpus');
const CASES = ['acme__gadgets-7', 'acme__widgets-1', 'acme__widgets-2', 'acme__widgets-4'];
let fx: SweFixture;
let instances: string;
let first: Awaited<ReturnType<typeof cli>>;

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));
const swe = (file: string, out: string, ...more: string[]) =>
  cli('ingest', '--swe-bench', file, '--repos', fx.repos, '--out', out, '--quiet', ...more);
const write = (name: string, text: string): string => {
  const file = path.join(tmp, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
};

beforeAll(async () => {
  fx = makeSweFixture(tmp);
  instances = write('jsonl/instances.json', jsonLines(fx.records));
  first = await swe(instances, corpus);
  expect([first.code, first.stderr]).toEqual([0, '']);
}, 60_000);

describe('ingest --swe-bench', () => {
  it('makes a case of each instance whose repository and base commit are there, and says why of the others', () => {
    const manifest = readJson(path.join(corpus, 'manifest.json')) as Record<string, Record<string, unknown>>;
    expect([...(manifest.fixtures as unknown as string[])].sort()).toEqual(CASES);
    expect(manifest.ingest?.skipped_instances).toEqual({
      'acme__widgets-3': `base commit ${'f'.repeat(40)} not in the repository`,
      'nobody__missing-1': 'repository not found (no folder nobody__missing or nobody/missing under --repos)',
    });
    // binary: the logo, once for its one version; generated, vendored; missing: the object the clone
    // lacks. Read: README, core.py twice, util.py, the test, the logo; gadget.py.
    expect(manifest.ingest?.skipped_files).toEqual({ binary: 1, generated: 1, missing: 1, vendored: 1 });
    const lines = first.stdout.split('\n');
    expect(lines[0]).toBe(`swe-bench: 4 cases written to ${corpus} (6 of 6 records selected)`);
    expect(lines).toContain('instances skipped: 2');
    expect(lines).toContain('file versions read: 7; skipped: binary 1, generated 1, missing 1, vendored 1');
    expect(lines.find((l) => l.startsWith('gold files:'))).toMatch(
      /^gold files: 7; in the pools 4; created by the patch 1; left out of the pool 2 /,
    );
    expect(lines.find((l) => l.startsWith('files per case:'))).toBe('files per case: min 1, median 4, max 4');
    expect(lines.at(-2)).toMatch(/^on disk: .* of distinct text \(\d+\.\d\dx, \d+\.\d\dx in blocks\)$/);
  });

  it("makes the gold patch's edited files must, and lists a created or skipped one as missed", () => {
    const truth = (c: string) => readJson(path.join(corpus, 'ledger', `${c}.truth.json`));
    const must = { eval_class: 'must', min_representation: 'full' };
    const ok = { success: true, reason: null };
    expect(truth('acme__widgets-1')).toEqual({
      expected: ok,
      identity_truth: { 'src/widgets/core.py': must, 'src/widgets/util.py': must },
      must_not_in_pool: {},
    });
    expect(truth('acme__widgets-2')).toEqual({
      expected: ok,
      identity_truth: { 'src/widgets/core.py': must },
      must_not_in_pool: { 'src/widgets/stop.py': 'created by the patch' },
    });
    expect(truth('acme__widgets-4')).toEqual({
      expected: ok,
      identity_truth: {},
      must_not_in_pool: { 'docs/logo.png': 'binary', 'vendor/six.py': 'vendored' },
    });
    expect(truth('acme__gadgets-7')).toEqual({
      expected: ok,
      identity_truth: { 'gadget.py': must },
      must_not_in_pool: {},
    });
  });

  it('pools the text files at base_commit in cl100k tokens, the problem statement the one mandatory task', () => {
    for (const [k, kase] of ['acme__widgets-1', 'acme__widgets-2'].entries()) {
      const pool = poolOf<ContextCandidate>(corpus, kase);
      expect([...new Set(pool.map((c) => c.content_identity))].sort()).toEqual(
        ['task', ...WIDGET_POOL].sort(),
      );
      const task = pool.find((c) => c.candidate_id === 'task');
      expect([task?.content, task?.requirement]).toEqual([fx.records[k]?.problem_statement, 'MANDATORY']);
      expect(pool.filter((c) => c.requirement === 'MANDATORY')).toHaveLength(1);
      for (const c of pool) {
        expect([c.candidate_id, c.token_source, c.token_count]).toEqual([
          c.candidate_id,
          'cl100k',
          countTokens(c.content),
        ]);
      }
      expect(pool.find((c) => c.candidate_id === 'src/widgets/util.py#full')?.content).toBe(
        `File: src/widgets/util.py\n${UTIL.slice(0, -1)}`,
      );
    }
    expect(
      new Set(poolOf<ContextCandidate>(corpus, 'acme__gadgets-7').map((c) => c.content_identity)),
    ).toEqual(new Set(['task', 'gadget.py']));
    const policy = readJson(path.join(corpus, 'policy.json')) as { overhead_tokenizer: string };
    expect(policy.overhead_tokenizer).toBe('cl100k');
    const manifest = readJson(path.join(corpus, 'manifest.json')) as { budgets: Record<string, unknown> };
    for (const c of CASES) expect(manifest.budgets[c]).toEqual({ tight: 13000, medium: 27000, roomy: 50000 });
  });

  it('stores each version once: one blob per distinct long content, shared by the cases that hold it', () => {
    const named = new Map<string, Set<string>>();
    for (const kase of CASES) {
      const doc = readJson(path.join(corpus, `${kase}.candidates.json`)) as {
        candidates: Record<string, unknown>[];
      };
      for (const c of doc.candidates) {
        if (typeof c.content_sha256 !== 'string') {
          expect(Buffer.byteLength(c.content as string)).toBeLessThan(BLOB_MIN_BYTES);
          continue;
        }
        named.set(c.content_sha256, (named.get(c.content_sha256) ?? new Set()).add(kase));
      }
    }
    expect(blobFiles(corpus)).toEqual([...named.keys()].sort());
    const util = blobFiles(corpus).filter((d) =>
      blobText(corpus, d).startsWith('File: src/widgets/util.py\n'),
    );
    expect(util).toHaveLength(1);
    expect(named.get(util[0] as string)).toEqual(
      new Set(['acme__widgets-1', 'acme__widgets-2', 'acme__widgets-4']),
    );
    // core.py changed between the two commits: two versions, two blobs.
    expect(
      blobFiles(corpus).filter((d) => blobText(corpus, d).startsWith('File: src/widgets/core.py\n')),
    ).toHaveLength(2);
  });

  it('is a corpus every command reads: check, study, compile', async () => {
    const check = await cli('check', corpus);
    expect([check.code, check.stdout]).toEqual([0, 'check: 4 cases, 0 problems, 0 warnings\n']);
    const study = await cli(
      'study',
      '--corpus',
      corpus,
      '--out',
      path.join(tmp, 'run'),
      '--strategies',
      'topk,oracle',
      '--quiet',
    );
    expect([study.code, study.stderr]).toEqual([0, '']);
    const rows = fs
      .readFileSync(path.join(tmp, 'run', 'rows.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(rows).toHaveLength(CASES.length * 3 * 2);
    const kase = (f: string) => path.join(corpus, `acme__widgets-1.${f}.json`);
    const compile = await cli(
      'compile',
      '--request',
      kase('request'),
      '--candidates',
      kase('candidates'),
      '--policy',
      path.join(corpus, 'policy.json'),
    );
    expect(compile.code).toBe(0);
    expect((JSON.parse(compile.stdout) as { rendered_text: string }).rendered_text).toContain(
      `File: src/widgets/core.py\n${CORE_V1.split('\n')[0]}`,
    );
  });

  it('names a missing or corrupt blob: check lists it, every other command stops on it', async () => {
    const broken = path.join(tmp, 'broken');
    fs.cpSync(corpus, broken, { recursive: true });
    const index = blobIndex(broken);
    const [gone, bad] = index as [Place, Place];
    // The first blob no longer listed; a byte of the second changed in its pack.
    const indexFile = path.join(broken, 'blobs', 'index.jsonl');
    fs.writeFileSync(indexFile, fs.readFileSync(indexFile, 'utf8').split('\n').slice(1).join('\n'));
    const pack = path.join(broken, 'blobs', bad.pack);
    const bytes = fs.readFileSync(pack);
    bytes[bad.offset + 3] = (bytes[bad.offset + 3] as number) ^ 1;
    fs.writeFileSync(pack, bytes);
    // The corpus's digest (a run manifest's) covers its blobs through their index.
    expect(corpusDigest(broken)).not.toBe(corpusDigest(corpus));
    const check = await cli('check', broken);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`content_sha256: no blob ${gone.sha256} in ${indexFile}`);
    expect(check.stdout).toContain(
      `content_sha256: blob ${bad.sha256} (${pack}, ${bad.bytes} bytes at ${bad.offset}) is corrupt: its bytes hash to `,
    );
    const study = await cli(
      'study',
      '--corpus',
      broken,
      '--out',
      path.join(tmp, 'run-broken'),
      '--strategies',
      'topk',
      '--quiet',
    );
    expect(study.code).toBe(2);
    expect(study.stderr).toMatch(
      /^ctxbench: .*\.candidates\.json: candidates\[\d+\] ".*": content_sha256: (no blob|blob) [0-9a-f]{64}/,
    );
    expect(study.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(path.join(tmp, 'run-broken'))).toBe(false);
    // A corpus whose index is gone: one problem a case that names blobs (not one a record), naming the index.
    fs.rmSync(indexFile);
    const none = await cli('check', broken);
    const naming = CASES.filter((c) =>
      fs.readFileSync(path.join(broken, `${c}.candidates.json`), 'utf8').includes('"content_sha256"'),
    );
    expect(naming.length).toBeGreaterThan(1);
    const said = none.stdout.split('\n').filter((l) => l.includes('no blob can be read'));
    expect(said).toHaveLength(naming.length);
    expect(said[0]).toContain(`content_sha256: no blob can be read: ${indexFile}: cannot read file (ENOENT)`);
  });

  it('reads a JSON array the same as JSON Lines, and writes the same bytes twice', async () => {
    const array = write('array/instances.json', JSON.stringify(fx.records, null, 2));
    // The same folder name: the manifest records it.
    const again = path.join(tmp, 'twin', 'corpus');
    expect((await swe(array, again)).code).toBe(0);
    expect(folderBytes(again)).toEqual(folderBytes(corpus));
  });

  it('keeps the instances --instances, --repo and --limit select', async () => {
    const picked = async (...flags: string[]) => {
      const out = path.join(tmp, `pick-${flags.join('-').replace(/[^a-z0-9]+/g, '')}`);
      const r = await swe(instances, out, ...flags);
      expect([r.code, r.stderr]).toEqual([0, '']);
      return (readJson(path.join(out, 'manifest.json')) as { fixtures: string[] }).fixtures;
    };
    expect(await picked('--instances', 'acme__widgets-2,acme__gadgets-7')).toEqual([
      'acme__gadgets-7',
      'acme__widgets-2',
    ]);
    expect(await picked('--repo', 'acme/widgets', '--limit', '2')).toEqual([
      'acme__widgets-1',
      'acme__widgets-2',
    ]);
    const both = await picked('--repo', 'acme/gadgets,acme/widgets');
    expect(both).toContain('acme__gadgets-7');
    expect(both).toContain('acme__widgets-1');
    expect(both.every((id) => id.startsWith('acme__gadgets-') || id.startsWith('acme__widgets-'))).toBe(true);
    expect(await picked('--limit', '1', '--budgets', '100,200,300')).toEqual(['acme__widgets-1']);
    const unknown = await swe(instances, path.join(tmp, 'none'), '--instances', 'acme__widgets-99');
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      'ctxbench: --instances: no record has instance_id "acme__widgets-99" (see ctxbench ingest --help)\n',
    ]);
    const nothing = await swe(instances, path.join(tmp, 'none'), '--instances', 'acme__widgets-3');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe(
      `ctxbench: ${instances}: no instance makes a case: acme__widgets-3: base commit ${'f'.repeat(40)} not in the repository\n`,
    );
    expect(fs.existsSync(path.join(tmp, 'none'))).toBe(false);
  });

  it('a malformed record is one line naming the file, the record and the field, exit 2, and nothing written', async () => {
    const [a, b] = fx.records as [Record<string, unknown>, Record<string, unknown>];
    const { base_commit: _gone, ...noBase } = b;
    const cases: [string, string, string][] = [
      ['lines.jsonl', jsonLines([a, noBase]), 'line 2: missing base_commit'],
      [
        'array.json',
        JSON.stringify([a, { ...b, repo: 'acme' }]),
        '[1]: invalid repo: "acme" (need owner/name, e.g. "psf/requests")',
      ],
      [
        'patch.jsonl',
        jsonLines([{ ...a, patch: 'see the PR' }]),
        'line 1: invalid patch: no file header in it (need a unified diff)',
      ],
      ['twice.jsonl', jsonLines([a, a]), 'line 2: instance_id "acme__widgets-1" again (first at line 1)'],
      ['syntax.jsonl', `${JSON.stringify(a)}\n{"instance_id": \n`, 'line 2: '],
      [
        'id.jsonl',
        jsonLines([{ ...a, instance_id: '../escape' }]),
        'line 1: invalid instance_id: "../escape"',
      ],
      // Past the bounds, before anything is counted: the size and the bound, not the text.
      [
        'statement.jsonl',
        jsonLines([{ ...a, problem_statement: 'why '.repeat(250_001) }]),
        'line 1: invalid problem_statement: 1,000,004 characters (need at most 1,000,000: the task is whole in every bundle)\n',
      ],
      [
        'long-patch.json',
        JSON.stringify([a, { ...b, patch: `${b.patch}${'+'.repeat(1_000_000)}` }]),
        `[1]: invalid patch: ${(String(b.patch).length + 1_000_000).toLocaleString('en-US')} characters (need at most 1,000,000: the answer a model must write)\n`,
      ],
    ];
    for (const [name, text, said] of cases) {
      const file = write(`bad/${name}`, text);
      const out = path.join(tmp, `bad-${name}`);
      const r = await swe(file, out);
      expect([r.code, r.stdout], name).toEqual([2, '']);
      expect(r.stderr.startsWith(`ctxbench: ${file}: ${said}`), r.stderr).toBe(true);
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(fs.existsSync(out), name).toBe(false);
    }
  });

  it('refuses --swe-bench without --repos, and a repository beside it', async () => {
    const alone = await cli('ingest', '--swe-bench', instances, '--out', path.join(tmp, 'x'));
    expect([alone.code, alone.stderr]).toEqual([
      2,
      'ctxbench: --swe-bench needs --repos DIR (see ctxbench ingest --help)\n',
    ]);
    const both = await swe(instances, path.join(tmp, 'x'), '--repos', fx.repos);
    expect(both.code).toBe(2);
    for (const flag of [
      ['--repo', 'acme/widgets'],
      ['--shard', '1/2'],
    ]) {
      const alone = await cli('ingest', fx.repos, ...flag, '--out', path.join(tmp, 'x'));
      expect([alone.code, alone.stderr], flag[0]).toEqual([
        2,
        'ctxbench: --repos, --instances, --repo, --limit and --shard go with --swe-bench (see ctxbench ingest --help)\n',
      ]);
    }
  });
});
