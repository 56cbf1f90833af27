/**
 * `ctxbench mcp` when a call never ends, and when the server is stopped. A call is stopped at
 * --timeout with every process it started, answered with an error that names the timeout, and the
 * calls beside it and after it are answered as usual. However the server ends (its wrapper killed
 * with SIGKILL, SIGTERM, SIGINT or SIGHUP, itself with SIGKILL or SIGTERM, the client closing its
 * end) no process of its tree is left, git included.
 *
 * What never ends: a plug-in that loops while its module loads, which the strategy's own clock
 * gives 60 s whatever --timeout says; `pack` of a repository whose `.git/config` includes a FIFO,
 * whose git waits on it while the runner's own thread is free (pack's git call is killed only
 * after a minute); and `pack` of a folder holding a FIFO and of a repository whose
 * `.git/info/exclude` is one, which block a read for as long as no one writes to them (or, once
 * `pack` skips what is not a regular file, end at once: either way the server goes on).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/ingest-fixture.js';
import { MCP_RUNNERS, MCP_WAITING_MESSAGES } from '../helpers/limits.js';
import { childrenOf, RawServer, referenceCase, resultTexts, running, treeOf, until } from '../helpers/mcp.js';
import { type BuiltProject, copyOfBuilt, sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { sample } from '../helpers/tier.js';

const tmp = fs.realpathSync(tempDir('mcp-stops'));
/** Long for an honest call of this file (a check of nothing, a pack of a small tree) on a loaded machine. */
const TIMEOUT = 15_000;
/** However long a loaded machine takes to answer, or to reap what was killed: only a failure waits it out. */
const PATIENCE = 120_000;

/** A plug-in whose module never finishes loading (asleep, so that waiting on it costs no CPU). */
const STUCK = `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
export default { name: 'zz-stuck', description: 'never loads', assemble() { return { admitted: [] }; } };
`;

let project: BuiltProject;
const served = path.join(tmp, 'served');
const fifoTree = path.join(served, 'fifo');
const fifoRepo = path.join(served, 'repo');
const fifoConfig = path.join(served, 'config');

beforeAll(() => {
  const shared = sharedProject(tmp);
  expect(shared.build.status, shared.build.output).toBe(0);
  project = copyOfBuilt(shared, tmp);
  // What the build does with a plug-in written in JavaScript: a copy in dist/, newer than its source.
  fs.writeFileSync(path.join(project.dir, 'strategies/zz-stuck.js'), STUCK);
  fs.writeFileSync(path.join(project.dir, 'dist/strategies/zz-stuck.js'), STUCK);
  fs.mkdirSync(fifoTree, { recursive: true });
  fs.writeFileSync(path.join(fifoTree, 'a.ts'), 'export const a = 1;\n');
  expect(spawnSync('mkfifo', [path.join(fifoTree, 'b.ts')]).status).toBe(0);
  makeProject(fifoRepo);
  fs.rmSync(path.join(fifoRepo, '.git/info/exclude'), { force: true });
  fs.mkdirSync(path.join(fifoRepo, '.git/info'), { recursive: true });
  expect(spawnSync('mkfifo', [path.join(fifoRepo, '.git/info/exclude')]).status).toBe(0);
  makeProject(fifoConfig);
  const included = path.join(tmp, 'included-config');
  expect(spawnSync('mkfifo', [included]).status).toBe(0);
  fs.appendFileSync(path.join(fifoConfig, '.git/config'), `[include]\n\tpath = ${included}\n`);
});

const { args: records } = referenceCase('dependency-trap');

const EMPTY_CHECK = ['[]\n', 'check: 0 problems, 0 warnings'];
const bin = () => path.join(project.dir, 'bin/ctxbench.js');
const start = (...flags: string[]) => new RawServer(['--root', served, ...flags], bin());
const stuck = (server: RawServer, id: string) =>
  server.send(call(id, 'compile', { ...records, strategy: 'zz-stuck' }));
const packOf = (dir: string) => ({ dir, task: 'what is in here', budget: 2000 });
const call = (id: string, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A promise, or a failure once PATIENCE has passed: a server that stopped answering fails here, not in a hang. */
const within = <T>(p: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer to ${what}`)), PATIENCE).unref(),
    ),
  ]);

/** The command of a process, to tell a strategy's host from a runner. */
const commandOf = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};
const isHost = (pid: number) => commandOf(pid).includes('strategy-host.js');
/** git reading the configuration that includes the FIFO: `git ... config --list`. */
const isGit = (pid: number) => commandOf(pid).startsWith('git\0');

describe('a call that never ends', () => {
  it('is stopped at --timeout with what it started, and costs only itself', async () => {
    const server = start('--timeout', String(TIMEOUT));
    try {
      await server.initialize();
      await stuck(server, 'stuck');
      await server.send(call('fifo', 'pack', packOf(fifoTree)));
      await server.send(call('repo', 'pack', packOf(fifoRepo)));
      await server.send(call('config', 'pack', packOf(fifoConfig)));
      // Beside them, an honest call: answered while they run.
      const honest = await within(server.call('honest', 'check', { candidates: [] }), 'a check beside them');
      expect(resultTexts(honest)).toEqual(EMPTY_CHECK);
      expect(server.replies.some((m) => m.id === 'stuck')).toBe(false);
      const pid = server.server();
      expect(await until(() => treeOf(pid).some(isHost), PATIENCE), 'the stuck strategy has a host').toBe(
        true,
      );
      const during = treeOf(pid);
      const r = await within(server.replyTo('stuck'), 'the stuck compile');
      expect(resultTexts(r)).toEqual([
        `ctxbench: compile did not finish within ${TIMEOUT} ms (--timeout); its work was stopped`,
      ]);
      for (const id of ['fifo', 'repo', 'config']) {
        const p = await within(server.replyTo(id), id);
        const error = (p.result as { isError?: boolean }).isError === true;
        if (error)
          expect(resultTexts(p), id).toEqual([
            `ctxbench: pack did not finish within ${TIMEOUT} ms (--timeout); its work was stopped`,
          ]);
      }
      // Every process the stopped calls started is gone; the server keeps only idle runners.
      const left = () => during.filter((p) => running(p) && !childrenOf(pid).includes(p));
      expect(await until(() => left().length === 0, PATIENCE), `left: ${left().join(', ')}`).toBe(true);
      expect(await until(() => treeOf(pid).every((p) => childrenOf(pid).includes(p)), PATIENCE)).toBe(true);
      // And the next calls are answered as on a fresh server.
      const next = await within(server.call('next', 'compile', records), 'a compile after them');
      expect((next.result as { isError?: boolean }).isError, resultTexts(next)[0]).not.toBe(true);
      expect(resultTexts(next)[1]).toMatch(
        /^(a bundle of \d+ items(, within [\d.]+% of the optimum)?|refused: [A-Z_]+); trace: /,
      );
    } finally {
      server.child.stdin?.end();
      await server.exited;
    }
  });
});

describe('calls past what the server runs at once', () => {
  it('wait their turn within a bound, past it are told the server is busy; a cancelled call is stopped', async () => {
    const limit = 1_000_000;
    const server = start('--max-message', String(limit));
    try {
      await server.initialize();
      const pid = server.server();
      for (let k = 0; k < MCP_RUNNERS; k++) await stuck(server, `stuck-${k}`);
      const hosts = () => treeOf(pid).filter(isHost);
      expect(await until(() => hosts().length === MCP_RUNNERS, PATIENCE), 'every runner is busy').toBe(true);
      // Calls of most of a message each: four wait, within four messages' bytes; the fifth does not.
      const padded = (id: string) =>
        server.send(call(id, 'check', { candidates: [], pad: 'x'.repeat(limit - 1000) }));
      for (let k = 0; k < MCP_WAITING_MESSAGES; k++) await padded(`waiting-${k}`);
      await padded('one-too-many');
      expect(resultTexts(await within(server.replyTo('one-too-many'), 'the call past the bound'))).toEqual([
        `ctxbench: the server is busy (${MCP_RUNNERS} calls running, ${MCP_WAITING_MESSAGES} waiting): call again once one is answered`,
      ]);
      expect(server.replies.filter((m) => String(m.id).startsWith('waiting-'))).toEqual([]);
      // The client gives up on the stuck calls: each is stopped with its host, and never answered.
      const before = hosts();
      for (let k = 0; k < MCP_RUNNERS; k++)
        await server.send({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: `stuck-${k}`, reason: 'the test gave up' },
        });
      for (let k = 0; k < MCP_WAITING_MESSAGES; k++)
        expect(resultTexts(await within(server.replyTo(`waiting-${k}`), `waiting-${k}`))).toEqual(
          EMPTY_CHECK,
        );
      expect(
        await until(() => before.every((p) => !running(p)), PATIENCE),
        'the cancelled hosts are gone',
      ).toBe(true);
      expect(server.replies.filter((m) => String(m.id).startsWith('stuck-'))).toEqual([]);
    } finally {
      server.child.stdin?.end();
      await server.exited;
    }
  });
});

/**
 * A server with calls in flight that will not end by themselves (a strategy that never loads, packs
 * that block): its whole tree, recorded once the strategy's host and pack's git run.
 */
async function busyServer(): Promise<{ server: RawServer; tree: number[] }> {
  const server = start();
  await server.initialize();
  await stuck(server, 'stuck');
  await server.send(call('fifo', 'pack', packOf(fifoTree)));
  await server.send(call('repo', 'pack', packOf(fifoRepo)));
  await server.send(call('config', 'pack', packOf(fifoConfig)));
  const wrapper = server.child.pid as number;
  expect(await until(() => treeOf(wrapper).some(isHost), PATIENCE), 'the stuck strategy has a host').toBe(
    true,
  );
  expect(
    await until(() => treeOf(wrapper).some(isGit), PATIENCE),
    "pack's git waits on the FIFO its repository's configuration includes",
  ).toBe(true);
  return { server, tree: [wrapper, ...treeOf(wrapper)] };
}

describe('stopping the server leaves no process behind', () => {
  const ends: [how: string, stop: (s: RawServer) => void, code: number | null][] = [
    ['SIGKILL to the command the client started', (s) => s.child.kill('SIGKILL'), null],
    [
      'SIGKILL to the server it runs under the permission model',
      (s) => process.kill(s.server(), 'SIGKILL'),
      137,
    ],
    ['SIGTERM to the command', (s) => s.child.kill('SIGTERM'), 143],
    ['SIGINT to the command', (s) => s.child.kill('SIGINT'), 130],
    ['SIGHUP to the command', (s) => s.child.kill('SIGHUP'), 143],
    ['SIGTERM to the server', (s) => process.kill(s.server(), 'SIGTERM'), 143],
    ['the client closing its end', (s) => s.child.stdin?.end(), 0],
  ];
  // The two kills that leave a process nobody tells to stop run in CI; every way under test:full.
  it.each(sample(ends, 2))('%s', async (_how, stop, code) => {
    const { server, tree } = await busyServer();
    // A server, its runners, a strategy's host, git: at least five processes below the command.
    expect(tree.length).toBeGreaterThanOrEqual(6);
    try {
      stop(server);
      const left = () => tree.filter(running);
      expect(await until(() => left().length === 0, PATIENCE), `left: ${left().join(', ')}`).toBe(true);
      expect((await server.exited).code).toBe(code);
    } finally {
      // Only if the test failed: the processes it started, by their ids.
      for (const pid of tree.filter(running)) process.kill(pid, 'SIGKILL');
    }
  });
});
