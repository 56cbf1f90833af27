/**
 * What report.html calls an ingested corpus: its source and size, from its manifest's `ingest`
 * block; nothing for a folder that is gone or was not ingested, so the page falls back to the
 * folder's name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestedLabel } from '../../../src/harness/ingest/index.js';
import { tempDir } from '../../helpers/temp.js';

const tmp = tempDir('ingested-label');
const corpus = (name: string, manifest: unknown): string => {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
};

describe('ingestedLabel', () => {
  it('names SWE-bench instances by their file and the repositories that made cases, a history by its repository and last commit', () => {
    const swe = corpus('swe', {
      fixtures: ['a__b-1', 'a__b-2', 'c__d-3'],
      ingest: {
        source: 'swe-bench',
        instances_file: 'lite.jsonl',
        repositories: {
          'a/b': { instances: 2, cases: 2 },
          'c/d': { instances: 1, cases: 1 },
          'e/f': { instances: 1, cases: 0 },
        },
      },
    });
    expect(ingestedLabel(swe)).toBe('SWE-bench (lite.jsonl): 3 instances of 2 repositories');
    const history = corpus('history', {
      fixtures: ['c1-aaaa'],
      ingest: { repository: 'ctxbench', head: '3ea1317f4a11e44d3dd6' },
    });
    expect(ingestedLabel(history)).toBe('ctxbench: 1 commit up to 3ea1317f4a11');
  });

  it('says nothing of a corpus that was not ingested, a folder that is gone, or a manifest that is not JSON', () => {
    expect(ingestedLabel(corpus('plain', { fixtures: ['c1'], budgets: {} }))).toBeNull();
    expect(ingestedLabel(path.join(tmp, 'gone'))).toBeNull();
    const broken = path.join(tmp, 'broken');
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, 'manifest.json'), '{');
    expect(ingestedLabel(broken)).toBeNull();
  });
});
