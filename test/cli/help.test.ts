/**
 * Help pages people can use: every command has examples, every option says what it is for,
 * defaults name the package's data rather than this machine's paths; an unknown flag is named
 * once; and `--help` and `--version` load no command module.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { ROOT } from '../helpers/corpus.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('help');

/** The command names `ctxbench --help` lists. */
async function commandNames(): Promise<string[]> {
  const r = await cli('--help');
  expect(r.code).toBe(0);
  const section = r.stdout.slice(r.stdout.indexOf('Commands:'), r.stdout.indexOf('Options:'));
  return [...section.matchAll(/^ {2}ctxbench (\w+)/gm)].map((m) => m[1] as string);
}

describe('help pages', () => {
  it('every command shows examples, describes every option, and prints no absolute path', async () => {
    const names = await commandNames();
    expect(names.length).toBeGreaterThanOrEqual(13);
    for (const name of names) {
      const r = await cli(name, '--help');
      expect(r.code, name).toBe(0);
      expect(r.stdout, name).toContain('\nExamples:\n');
      expect(r.stdout, name).toMatch(new RegExp(`^ {2}ctxbench ${name}\\b`, 'm'));
      expect(r.stdout, name).not.toContain(ROOT);
      // An option line is its flag, its description, then its type in brackets: none may go
      // straight from the flag to the type.
      const options = r.stdout.slice(r.stdout.indexOf('Options:'), r.stdout.indexOf('Examples:'));
      for (const line of options.split('\n').filter((l) => /^ {2}--/.test(l)))
        expect(line, `${name}: ${line}`).not.toMatch(/^ {2}--[\w-]+(, -\w)? +\[/);
    }
  });

  it('an unknown flag is named once, as typed', async () => {
    const r = await cli('compile', '--bogus-flag');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('ctxbench: Unknown argument: bogus-flag (see ctxbench compile --help)\n');
    const two = await cli('study', '--bogus-one', '--other-one', '--out', path.join(tmp, 'never'));
    expect(two.stderr).toBe(
      'ctxbench: Unknown arguments: bogus-one, other-one (see ctxbench study --help)\n',
    );
  });
});

describe('start-up', () => {
  /** The ctxbench modules a process of the built CLI loaded, recorded by a module hook. */
  function loadedBy(...args: string[]): string[] {
    const log = path.join(tmp, `loaded-${args.join('-')}.txt`);
    const hooks = path.join(tmp, 'hooks.mjs');
    fs.writeFileSync(
      hooks,
      `import fs from 'node:fs';
export async function load(url, context, next) {
  if (url.includes('/dist/src/')) fs.appendFileSync(${JSON.stringify(log)}, url.slice(url.indexOf('/dist/src/')) + '\\n');
  return next(url, context);
}`,
    );
    const register = path.join(tmp, 'register.mjs');
    fs.writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
    );
    fs.rmSync(log, { force: true });
    const r = spawnSync(
      process.execPath,
      ['--import', register, path.join(ROOT, 'bin/ctxbench.js'), ...args],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [];
  }

  it('--help and --version load no command module and no compiler stage; a command loads its own alone', () => {
    for (const flag of ['--help', '--version']) {
      const loaded = loadedBy(flag);
      expect(loaded, flag).toContain('/dist/src/cli/main.js');
      expect(
        loaded.filter((u) => u.includes('/cli/commands/')),
        flag,
      ).toEqual([]);
      expect(
        loaded.filter((u) => u.includes('/harness/study/')),
        flag,
      ).toEqual([]);
      // Nor the compiler's stages: a message quotes values through compiler/json.js alone.
      expect(
        loaded.filter((u) => u.includes('/compiler/') && !u.endsWith('/compiler/json.js')),
        flag,
      ).toEqual([]);
    }
    const strategies = loadedBy('strategies');
    expect(strategies.filter((u) => u.includes('/cli/commands/'))).toEqual([
      '/dist/src/cli/commands/strategies.js',
    ]);
  });
});

describe('usage errors say what would do and where to read', () => {
  it('an unknown --format names the flag, the value and every choice, on one line', async () => {
    const r = await cli('compare', tmp, tmp, '--format', 'xml');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'ctxbench: invalid value: --format "xml" is not one of "text", "md", "csv", "json" (see ctxbench compare --help)\n',
    );
    expect(r.stdout).toBe('');
  });

  it("a usage error points to the command's own help; with no command known, to ctxbench --help", async () => {
    const own = await cli('study', '--timeout', '0', '--out', path.join(tmp, 'never'));
    expect([own.code, own.stderr]).toEqual([
      2,
      'ctxbench: --timeout must be a number of milliseconds >= 1 (see ctxbench study --help)\n',
    ]);
    for (const bad of ['8', '1.5', '0'])
      expect(await cli('study', '--memory', bad, '--out', path.join(tmp, 'never'))).toMatchObject({
        code: 2,
        stderr:
          'ctxbench: --memory must be a whole number of MiB from 16 to 1048576 (see ctxbench study --help)\n',
      });
    const none = await cli('no-such-command');
    expect([none.code, none.stderr]).toEqual([
      2,
      'ctxbench: Unknown argument: no-such-command (see ctxbench --help)\n',
    ]);
  });
});
