/**
 * `validate <run-folder>` asks a run's error rows again as the study asked them: each strategy in
 * a process of its own, from the built package (the permission model on), under the manifest's
 * `--timeout` and `--memory`. A genuine error recurs and the run is valid; a success forged into
 * an error does not, and is named at its line; a timeout or running out of memory is said to be
 * not re-checkable (UNCHECKED, exit 1), never valid; and what each strategy says of itself
 * (`readsLedger`) is held against the manifest. Plug-ins come from the shared built copy
 * (test/helpers/plugins.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { oneCaseCorpus } from '../helpers/cli.js';
import { rowsOf, sharedProject } from '../helpers/project.js';
import { forgeError } from '../helpers/run-edits.js';
import { tempDir } from '../helpers/temp.js';
import { FULL, sample } from '../helpers/tier.js';

const tmp = tempDir('validate-rerun');
const project = sharedProject(tmp);
const at = (name: string) => path.join(tmp, name);
const study = (out: string, names: string, ...extra: string[]) =>
  project.bin(['study', '--corpus', corpus, '--strategies', names, '--out', at(out), ...extra]);
const validate = (out: string) => project.bin(['validate', at(out)]);
let corpus = '';

/**
 * One case, wrong-scope, where zz-once throws (at the tight budget), zz-loop never answers and
 * zz-oom grows its heap without end: the honest strategies keep the default timeout, and the
 * looping one alone gets a short one.
 */
beforeAll(() => {
  expect(project.build.status, project.build.output).toBe(0);
  corpus = oneCaseCorpus(tmp, 'wrong-scope-only', 'wrong-scope');
  expect(study('mixed', 'zz-once,topk,oracle').status).toBe(1);
  expect(study('loop', 'zz-loop', '--timeout', '1000').status).toBe(1);
  expect(study('oom', 'zz-oom', '--memory', '256').status).toBe(1);
}, 600_000);

describe('validate asks error rows again, in processes of their own', () => {
  it('a genuine error recurs with its message: the run is valid', () => {
    const errors = rowsOf(at('mixed')).filter((r) => r.reason === 'STRATEGY_ERROR');
    expect(errors.map((r) => [r.strategy, (r.extras as { error: string }).error])).toEqual([
      ['zz-once', 'zz-once threw: once'],
    ]);
    const r = validate('mixed');
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'valid\n', '']);
  });

  it('a topk success forged into an error row, reports written again by `report`, is named at its line', () => {
    const dir = at('forged');
    fs.cpSync(at('mixed'), dir, { recursive: true });
    const { line } = forgeError(dir, 'topk');
    expect(project.bin(['report', dir]).status).toBe(0);
    const r = validate('forged');
    expect([r.status, r.stderr]).toEqual([1, '']);
    expect(r.stdout).toBe(
      `INVALID rows.jsonl:${line}: an error row ("topk threw: Error: boom"), but topk answers with a bundle when asked this cell again\n`,
    );
  });

  it(`readsLedger is what the strategy's own process says: flipped ${FULL ? 'either way' : 'to false'}, the manifest is named`, () => {
    const flips = [
      ['true', 'false'],
      ['false', 'true'],
    ] as const;
    for (const [from, to] of sample(flips, 1)) {
      const dir = at(`reads-${to}`);
      fs.cpSync(at('mixed'), dir, { recursive: true });
      const file = path.join(dir, 'manifest.json');
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      const k = lines.findIndex((l) => l.includes(`"readsLedger": ${from}`));
      lines[k] = (lines[k] as string).replace(from, to);
      fs.writeFileSync(file, lines.join('\n'));
      const r = validate(`reads-${to}`);
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(
        new RegExp(
          `^INVALID manifest\\.json:${k + 1}: strategies\\[\\d\\]\\.readsLedger is ${to}, not ${from}: `,
        ),
      );
      expect(r.stdout.trim().split('\n')).toHaveLength(1);
    }
  });

  it('a timeout is not re-checkable: one UNCHECKED line per row, exit 1, never valid', () => {
    const rows = rowsOf(at('loop'));
    expect(rows.map((r) => r.reason)).toEqual(['STRATEGY_ERROR', 'STRATEGY_ERROR', 'STRATEGY_ERROR']);
    const r = validate('loop');
    expect(r.status).toBe(1);
    expect(r.stdout).not.toMatch(/^valid$|^INVALID/m);
    const said = r.stdout.trim().split('\n');
    expect(said).toHaveLength(3);
    for (const [k, l] of said.entries())
      expect(l).toMatch(
        new RegExp(
          `^UNCHECKED rows\\.jsonl:${k + 1}: an error row \\("zz-loop .*"\\): a timeout cannot be re-checked`,
        ),
      );
  });

  it('running out of memory is not re-checkable either', () => {
    const r = validate('oom');
    expect(r.status).toBe(1);
    const said = r.stdout.trim().split('\n');
    expect(said).toHaveLength(3);
    for (const l of said)
      expect(l).toMatch(
        /^UNCHECKED rows\.jsonl:\d: .*ran out of memory.*: running out of memory cannot be re-checked/,
      );
  });
});
