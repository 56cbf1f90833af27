/**
 * `ctxbench mcp` serves `pack` of its roots to whoever speaks to it: a root of `/` or of the
 * user's home folder would hand out every key, token and project there. Such a root is refused
 * with exit 2 and one line, however it is named (a link, `..`, no --root in a client that starts
 * its servers in `/`); a folder inside the home folder is served (issue 47).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BIN } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('mcp-roots');
// The home folder as the server finds it: os.homedir() reads HOME.
const home = path.join(tmp, 'home');
const project = path.join(home, 'project');
fs.mkdirSync(project, { recursive: true });
fs.symlinkSync(home, path.join(tmp, 'home-link'));

/**
 * The built server started with `args` in `cwd`, its stdin closed at once: a server it starts
 * ends there (exit 0); a refused root ends it before it serves.
 */
function mcp(args: readonly string[], cwd = tmp): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, 'mcp', ...args], {
    cwd,
    env: { ...process.env, HOME: home },
    input: '',
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr };
}

const refusal = (given: string, why: string) =>
  `ctxbench: --root ${given}: ${why}; serve the project's folder instead (see ctxbench mcp --help)\n`;

it('refuses the whole file system and the home folder as a root, with exit 2 and one line', () => {
  const cases: [args: string[], line: string][] = [
    [['--root', '/'], refusal('/', 'that is the whole file system')],
    [['--root', `${home}/..`], refusal(`${home}/..`, `it holds the home folder ${home}`)],
    [['--root', home], refusal(home, 'that is the home folder')],
    [
      ['--root', path.join(tmp, 'home-link')],
      refusal(path.join(tmp, 'home-link'), 'that is the home folder'),
    ],
    [['--root', tmp], refusal(tmp, `it holds the home folder ${home}`)],
    // One wide root among good ones is enough to refuse.
    [['--root', project, '--root', tmp], refusal(tmp, `it holds the home folder ${home}`)],
  ];
  for (const [args, line] of cases) {
    const r = mcp(args);
    expect([r.status, r.stderr], args.join(' ')).toEqual([2, line]);
  }
});

it('refuses the folder it is started in when no --root is given and that folder is / or the home folder', () => {
  const defaulted = ' (the current folder, as no --root was given)';
  expect(mcp([], '/')).toEqual({
    status: 2,
    stderr: refusal(`/${defaulted}`, 'that is the whole file system'),
  });
  expect(mcp([], home)).toEqual({
    status: 2,
    stderr: refusal(`${home}${defaulted}`, 'that is the home folder'),
  });
});

it('serves a folder inside the home folder, and a folder beside it', () => {
  expect(mcp(['--root', project])).toEqual({ status: 0, stderr: '' });
  expect(mcp([], project)).toEqual({ status: 0, stderr: '' });
  const beside = path.join(tmp, 'beside');
  fs.mkdirSync(beside);
  expect(mcp(['--root', beside])).toEqual({ status: 0, stderr: '' });
});
