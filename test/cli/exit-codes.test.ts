/**
 * The exit codes of docs/exit-codes.md: a bug of ctxbench's own (anything thrown that is not an
 * input or usage error) exits 3, apart from 1 (a check failed) and 2 (bad input), so that a script
 * can tell a crash from a failed check.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { caseFlags, cli } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';

/** The built bin with `preload` evaluated first, to break the process on purpose. */
const binWith = (preload: string, ...args: string[]) =>
  spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(preload)}`,
      path.join(ROOT, 'bin/ctxbench.js'),
      ...args,
    ],
    { encoding: 'utf8' },
  );

describe('exit codes', () => {
  it('0 and 2 stay what they were: done, and bad input', async () => {
    expect((await cli('compile', ...caseFlags('budget-slack'))).code).toBe(0);
    expect(
      (await cli('validate', '--compilation', '/no/such/file.json', ...caseFlags('budget-slack'))).code,
    ).toBe(2);
    expect((await cli('compile', '--no-such-flag')).code).toBe(2);
  });

  it('an error thrown in the command, not an input error, exits 3 with one line and no stack', async () => {
    let stderr = '';
    const code = await run(['compile', ...caseFlags('budget-slack')], {
      out: () => {
        throw new Error('disk on fire');
      },
      err: (text) => {
        stderr += text;
      },
    });
    expect(code).toBe(EXIT.internal);
    expect(code).toBe(3);
    expect(stderr).toBe('ctxbench: internal error: disk on fire\n');
  });

  it('the bin exits 3 for a crash inside the command and for one that escapes it', () => {
    const inside = binWith(
      "process.stdout.write = () => { throw new Error('disk on fire'); };",
      'compile',
      ...caseFlags('budget-slack'),
    );
    expect([inside.status, inside.stderr]).toEqual([3, 'ctxbench: internal error: disk on fire\n']);
    // Thrown from a callback once the bin listens: nothing of the command's can catch it.
    const escaped = binWith(
      "process.on('newListener', (e) => { if (e === 'unhandledRejection') setImmediate(() => { throw new Error('a bug in a callback'); }); });",
      '--version',
    );
    expect([escaped.status, escaped.stderr]).toEqual([3, 'ctxbench: internal error: a bug in a callback\n']);
  });

  it('--help lists them', async () => {
    const r = await cli('--help');
    expect(r.stdout).toMatch(/Exit codes: 0 done, 1 a check failed, 2 bad usage or input, 3 internal error/);
  });
});
