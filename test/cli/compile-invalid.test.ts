/**
 * `compile` when the compilation fails its own validation: exit 0 as the contract says, but never
 * silent (one stderr line per problem, per bad line of a batch), and exit 4 under `--strict`,
 * where an input warning still stops with 2 before anything is compiled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFlags, cli } from '../helpers/cli.js';
import { CORPUS_DIR } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('invalid');
const read = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(file, 'utf8'));
const policy = () => read(path.join(CORPUS_DIR, 'compiler-policy-v1.json'));
const batchLine = (name: string) =>
  JSON.stringify({
    request: read(path.join(CORPUS_DIR, `${name}.request.json`)),
    candidates: read(path.join(CORPUS_DIR, `${name}.candidates.json`)),
    policy: policy(),
  });

/** `dump` admits every candidate, those out of scope included: its bundle fails validation here. */
const INVALID = ['compile', ...caseFlags('wrong-scope'), '--strategy', 'dump'];

describe('compile says when its compilation fails validation', () => {
  it('exit 0, the output as before, one stderr line per problem naming the strategy', async () => {
    const r = await cli(...INVALID);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.validation.valid).toBe(false);
    const problems = out.validation.problems as string[];
    expect(problems.length).toBeGreaterThan(0);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual(
      problems.map((p) => `ctxbench: warning: dump's compilation fails validation: ${p}`),
    );
  });

  it('--strict: exit 4 with the same output and lines; a valid compilation stays 0 and silent', async () => {
    const plain = await cli(...INVALID);
    const strict = await cli(...INVALID, '--strict');
    expect(strict).toEqual({ ...plain, code: 4 });
    const valid = await cli('compile', ...caseFlags('wrong-scope'), '--strict');
    expect([valid.code, valid.stderr, JSON.parse(valid.stdout).validation.valid]).toEqual([0, '', true]);
  });

  it('--strict: an input warning is still exit 2, before anything is compiled', async () => {
    const candidates = read(path.join(CORPUS_DIR, 'wrong-scope.candidates.json')) as { candidates: object[] };
    const odd = path.join(tmp, 'odd.candidates.json');
    fs.writeFileSync(
      odd,
      JSON.stringify({ candidates: candidates.candidates.map((c) => ({ ...c, dependsOn: [] })) }),
    );
    const args = [
      'compile',
      '--request',
      path.join(CORPUS_DIR, 'wrong-scope.request.json'),
      '--candidates',
      odd,
      '--policy',
      path.join(CORPUS_DIR, 'compiler-policy-v1.json'),
      '--strategy',
      'dump',
    ];
    const warned = await cli(...args);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('dependsOn');
    expect(warned.stderr).toContain("dump's compilation fails validation");
    const strict = await cli(...args, '--strict');
    expect([strict.code, strict.stdout]).toEqual([2, '']);
    expect(strict.stderr).not.toContain('fails validation');
  });

  it('--batch: one stderr line per line whose compilation fails, naming the line; 4 under --strict', async () => {
    const batch = path.join(tmp, 'mixed.jsonl');
    // Lines 1 and 4 fail validation under dump (line 4 with two problems); line 3 is a good bundle.
    fs.writeFileSync(
      batch,
      [batchLine('wrong-scope'), '', batchLine('dependency-trap'), batchLine('no-legal-representation')].join(
        '\n',
      ),
    );
    const r = await cli('compile', '--batch', batch, '--strategy', 'dump');
    expect(r.code).toBe(0);
    const outs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(outs.map((o) => o.validation.valid)).toEqual([false, true, false]);
    expect(outs[2].validation.problems.length).toBeGreaterThan(1);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `ctxbench: warning: ${batch}:1: dump's compilation fails validation: ${outs[0].validation.problems.join('; ')}`,
      `ctxbench: warning: ${batch}:4: dump's compilation fails validation: ${outs[2].validation.problems.join('; ')}`,
    ]);
    const strict = await cli('compile', '--batch', batch, '--strategy', 'dump', '--strict');
    expect(strict).toEqual({ ...r, code: 4 });
  });
});
