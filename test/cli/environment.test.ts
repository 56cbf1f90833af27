/**
 * The machine's settings are not inputs: a study run under another time zone, locale and
 * collation writes the same bytes as one under the defaults.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processArgs } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';
import { FULL } from '../helpers/tier.js';

const tmp = tempDir('environment');
/**
 * Strategies of each kind (the compiler, the exact search, a ledger reader; the baselines too
 * under test:full), each in a process of its own that the settings reach as well.
 */
const STRATEGIES = FULL ? 'dump,topk,weighted,compiler,exact,oracle' : 'compiler,exact,oracle';

/** A study in a process of its own with `env` on top of this one's: its run folder's files. */
function studyUnder(env: Record<string, string>): Map<string, string> {
  // One folder for both: the manifest records the command line.
  const out = path.join(tmp, 'run');
  fs.rmSync(out, { recursive: true, force: true });
  const r = spawnSync(process.execPath, processArgs('study', '--strategies', STRATEGIES, '--out', out), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return new Map(fs.readdirSync(out).map((f) => [f, fs.readFileSync(path.join(out, f), 'utf8')]));
}

describe('settings of the machine', () => {
  it('time zone, locale and language leave every file of the run folder unchanged', () => {
    const plain = studyUnder({ TZ: 'UTC', LANG: 'C', LC_ALL: 'C' });
    // Turkish casing (dotless i), a half-hour-and-a-quarter offset, comma decimals.
    const other = studyUnder({ TZ: 'Pacific/Chatham', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' });
    expect([...other.keys()].sort()).toEqual([...plain.keys()].sort());
    // The manifest says when the run was made, and that alone differs.
    const timeless = (file: string, text: string | undefined) =>
      file === 'manifest.json' ? text?.replace(/"created_at": "[^"]+"/, '') : text;
    for (const [file, text] of plain)
      expect(timeless(file, other.get(file)), file).toBe(timeless(file, text));
    expect(plain.size).toBeGreaterThanOrEqual(6);
  });
});
