/**
 * The vendored SWE-bench Lite records (data/swe-bench/): the bytes pinned, and read by ingest's
 * reader as the README beside them describes them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TASK_LIMIT } from '../../../src/harness/ingest/ingested-corpus.js';
import { readInstances, selectInstances } from '../../../src/harness/ingest/swe-bench/swe-records.js';
import { ROOT } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/temp.js';

const FILE = path.join(ROOT, 'data/swe-bench/lite.jsonl');
const PER_REPOSITORY = {
  'django/django': 114,
  'sympy/sympy': 77,
  'scikit-learn/scikit-learn': 23,
  'matplotlib/matplotlib': 23,
  'pytest-dev/pytest': 17,
  'sphinx-doc/sphinx': 16,
  'psf/requests': 6,
  'astropy/astropy': 6,
  'pylint-dev/pylint': 6,
  'pydata/xarray': 5,
  'mwaskom/seaborn': 4,
  'pallets/flask': 3,
};

describe('data/swe-bench/lite.jsonl', () => {
  const all = readInstances(FILE);

  it('is the file the README describes, byte for byte', () => {
    const digest = createHash('sha256').update(fs.readFileSync(FILE)).digest('hex');
    expect(digest).toBe('15f72d25263138b5094ed4e3bc32b80684173cb5292de043a4ae7131513bc960');
  });

  it('holds the 300 Lite instances, per repository as the README counts them, each patch editing one file', () => {
    expect(all).toHaveLength(300);
    const counted: Record<string, number> = {};
    for (const i of all) counted[i.repo] = (counted[i.repo] ?? 0) + 1;
    expect(counted).toEqual(PER_REPOSITORY);
    for (const i of all)
      expect([i.instance_id, i.gold.edited.length, i.gold.created]).toEqual([i.instance_id, 1, []]);
    // The gold file is the file the patch's own git line names.
    for (const i of all)
      expect(i.patch).toContain(`diff --git a/${i.gold.edited[0]} b/${i.gold.edited[0]}\n`);
  });

  it('the filters keep what they name: a repository, ids, a limit in file order', () => {
    expect(selectInstances(all, { repos: ['pallets/flask'] }).map((i) => i.instance_id)).toEqual([
      'pallets__flask-4045',
      'pallets__flask-4992',
      'pallets__flask-5063',
    ]);
    expect(selectInstances(all, { limit: 2 })).toEqual(all.slice(0, 2));
    expect(selectInstances(all, { instances: ['psf__requests-2317'], repos: ['psf/requests'] })).toHaveLength(
      1,
    );
    expect(
      selectInstances(all, { instances: ['psf__requests-2317'], repos: ['pallets/flask'] }),
    ).toHaveLength(0);
  });
});

describe('the bounds on a record', () => {
  const [first] = fs.readFileSync(FILE, 'utf8').split('\n') as [string];
  const record = JSON.parse(first) as { problem_statement: string; patch: string };
  const dir = tempDir('swe-bench-bounds');
  const read = (field: 'problem_statement' | 'patch', length: number) => {
    // The patch padded before its first header, where a diff's preamble goes: it still parses.
    const pad = (text: string, end: string) =>
      `${'x'.repeat(length - text.length - end.length)}${end}${text}`;
    const value = field === 'patch' ? pad(record.patch, '\n') : pad('', '');
    const file = path.join(dir, `${field}-${length}.jsonl`);
    fs.writeFileSync(file, `${JSON.stringify({ ...record, [field]: value })}\n`);
    return () => readInstances(file);
  };

  it('reads a problem statement or a patch of a million characters, and refuses one more', () => {
    for (const field of ['problem_statement', 'patch'] as const) {
      expect(read(field, TASK_LIMIT)()[0]?.[field]).toHaveLength(TASK_LIMIT);
      expect(read(field, TASK_LIMIT + 1)).toThrow(
        `invalid ${field}: 1,000,001 characters (need at most 1,000,000`,
      );
    }
  });
});
