/**
 * `ctxbench mcp` keeps the shipped strategies' processes warm between calls (warm-hosts.ts), and
 * nothing else of a call. A second call by a shipped strategy is answered by the process the first
 * started; every answer equals, byte for byte, the CLI's `compile` of the same records (a process
 * per call), whatever was compiled before it; a warm process killed between calls is replaced and
 * the call still answered as before; a runner keeps at most WARM_KEEP of them. A plug-in never
 * answers from a shipped strategy's process, nor from one an earlier call used: what it keeps (a
 * global, a module's state, an earlier call's pool) is gone by the next call. Stopping the server
 * stops its warm processes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_HOST } from '../../src/harness/vocabulary.js';
import { MCP_WARM_KEEP as WARM_KEEP } from '../helpers/limits.js';
import { childrenOf, RawServer, referenceCase, resultTexts, running, treeOf, until } from '../helpers/mcp.js';
import { type BuiltProject, copyOfBuilt, sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { FULL } from '../helpers/tier.js';

const tmp = fs.realpathSync(tempDir('mcp-warm'));
/** However long a loaded machine takes to answer or to reap a process: only a failure waits it out. */
const PATIENCE = 120_000;

/**
 * A plug-in that keeps what it can between calls: a count in its module, a global, and every pool
 * it was given. Were its process reused, the second call would see the first's.
 */
const KEEPER = `let calls = 0;
export default { name: 'zz-keeper', description: 'keeps what it can', assemble(input) {
  calls += 1;
  globalThis.seen ??= [];
  const before = globalThis.seen.length;
  globalThis.seen.push(input.candidates.map((c) => c.candidate_id));
  return { admitted: [], extras: { calls, pools_before: before, pid: process.pid } };
} };
`;

/**
 * The shipped strategies compiled warm against cold: in the fast tier one, the compiler's (whose
 * counter and memo persist between calls); every one that stays warm under test:full.
 */
const WARM_SAMPLE = FULL ? [...SHARED_HOST] : ['compiler-v2'];

let project: BuiltProject;
let server: RawServer;
beforeAll(async () => {
  const shared = sharedProject(tmp);
  expect(shared.build.status, shared.build.output).toBe(0);
  project = copyOfBuilt(shared, tmp);
  // What the build does with a plug-in written in JavaScript: a copy in dist/, newer than its source.
  fs.writeFileSync(path.join(project.dir, 'strategies/zz-keeper.js'), KEEPER);
  fs.writeFileSync(path.join(project.dir, 'dist/strategies/zz-keeper.js'), KEEPER);
  server = new RawServer([], path.join(project.dir, 'bin/ctxbench.js'));
  await server.initialize();
}, PATIENCE);
afterAll(async () => {
  server.child.stdin?.end();
  await server.exited;
});

const CASES = ['dependency-trap', 'wrong-scope'].map((name) => ({ name, ...referenceCase(name) }));
let ids = 0;
/** A compile's texts, or a failure naming the call once PATIENCE has passed. */
async function compile(args: Record<string, unknown>): Promise<string[]> {
  const id = `c${++ids}`;
  const reply = await Promise.race([
    server.call(id, 'compile', args),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer to ${id}`)), PATIENCE).unref(),
    ),
  ]);
  return resultTexts(reply);
}

/** The command line of a process ('' once it is gone). */
const commandOf = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};
/** The strategy processes below the server, by pid, each with the strategy file it holds. */
function hosts(): Map<number, string> {
  const found = new Map<number, string>();
  for (const pid of treeOf(server.server())) {
    const argv = commandOf(pid).split('\0');
    if (argv.some((a) => a.endsWith('strategy-host.js')) && running(pid))
      found.set(pid, path.basename(argv.at(-2) ?? ''));
  }
  return found;
}
const hostOf = (file: string): number[] => [...hosts()].filter(([, f]) => f === file).map(([pid]) => pid);

/** What the CLI prints for the same records: a process of its own for this one compilation. */
const cold = new Map<string, string>();
function coldCompile(c: (typeof CASES)[number], strategy: string): string {
  const key = `${c.name} ${strategy}`;
  const known = cold.get(key);
  if (known !== undefined) return known;
  const r = project.bin([
    'compile',
    ...Object.entries(c.files).flatMap(([k, f]) => [`--${k}`, f]),
    '--strategy',
    strategy,
  ]);
  expect(r.status, r.stderr).toBe(0);
  cold.set(key, r.stdout);
  return r.stdout;
}

describe('the shipped strategies', () => {
  it('answer a second call from the process the first started, as a process per call would', async () => {
    const [a] = CASES as [(typeof CASES)[number]];
    const first = await compile({ ...a.args, strategy: 'gated' });
    expect(first[0]).toBe(coldCompile(a, 'gated'));
    const [pid] = hostOf('gated.js');
    expect(pid, 'a gated process is kept after the call').toBeDefined();
    const second = await compile({ ...a.args, strategy: 'gated' });
    expect(second).toEqual(first);
    expect(hostOf('gated.js')).toEqual([pid]);
  });

  it.each(WARM_SAMPLE)(
    "%s: every answer equals a cold process's, whatever was compiled before it in the same process",
    async (strategy) => {
      // A, B, A, B: a pool kept from the call before would show in the call after.
      // certify: the study's certification, as `ctxbench compile` runs it, so the bytes are its.
      for (const c of [...CASES, ...CASES])
        expect((await compile({ ...c.args, strategy, certify: true }))[0], `${c.name}`).toBe(
          coldCompile(c, strategy),
        );
      expect(hostOf(`${strategy}.js`).length).toBeLessThanOrEqual(1);
    },
  );

  it(`a runner keeps at most ${WARM_KEEP} of them`, async () => {
    const [a] = CASES as [(typeof CASES)[number]];
    for (const strategy of ['topk', 'weighted', 'gated', 'dump']) await compile({ ...a.args, strategy });
    // A process let go is stopped, then reaped: until it is, it is still a child. What a runner
    // keeps must come down to WARM_KEEP, and one that keeps more never does.
    const hosts = (runner: number) =>
      childrenOf(runner).filter((p) => commandOf(p).includes('strategy-host.js')).length;
    for (const runner of childrenOf(server.server()))
      expect(
        await until(() => hosts(runner) <= WARM_KEEP, PATIENCE),
        `runner ${runner}: ${hosts(runner)}`,
      ).toBe(true);
  });

  it('a warm process killed between calls is replaced, and the call is answered as before', async () => {
    const [a, b] = CASES as [(typeof CASES)[number], (typeof CASES)[number]];
    await compile({ ...a.args, strategy: 'gated' });
    const [pid] = hostOf('gated.js') as [number];
    // Killed, then asked at once: the runner may not yet know it died.
    process.kill(pid, 'SIGKILL');
    expect((await compile({ ...b.args, strategy: 'gated' }))[0]).toBe(coldCompile(b, 'gated'));
    expect(await until(() => !running(pid), PATIENCE)).toBe(true);
    const [next] = hostOf('gated.js');
    expect(next).toBeDefined();
    expect(next).not.toBe(pid);
    // Killed, and known to be dead before the next call.
    process.kill(next as number, 'SIGKILL');
    expect(await until(() => !running(next as number), PATIENCE)).toBe(true);
    expect((await compile({ ...a.args, strategy: 'gated' }))[0]).toBe(coldCompile(a, 'gated'));
  });
});

describe('a plug-in', () => {
  it('answers each call from a process of its own that keeps nothing of an earlier call', async () => {
    const [a, b] = CASES as [(typeof CASES)[number], (typeof CASES)[number]];
    await compile({ ...a.args, strategy: 'gated' });
    const shipped = new Set(hosts().keys());
    const pids = new Set<number>();
    for (const c of [a, b, a]) {
      const out = await compile({ ...c.args, strategy: 'zz-keeper' });
      const { extras } = JSON.parse(out[0] as string) as { extras: Record<string, number> };
      expect({ calls: extras.calls, pools_before: extras.pools_before }, c.name).toEqual({
        calls: 1,
        pools_before: 0,
      });
      expect(shipped.has(extras.pid as number), 'not a shipped strategy’s process').toBe(false);
      pids.add(extras.pid as number);
      // Its process is stopped with its call: none is left holding the plug-in.
      expect(await until(() => hostOf('zz-keeper.js').length === 0, PATIENCE)).toBe(true);
    }
    expect(pids.size).toBe(3);
  });
});

describe('stopping the server', () => {
  it('stops its warm processes', async () => {
    const [a] = CASES as [(typeof CASES)[number]];
    const other = new RawServer([], path.join(project.dir, 'bin/ctxbench.js'));
    await other.initialize();
    await other.call('w', 'compile', { ...a.args, strategy: 'gated' });
    const tree = treeOf(other.server());
    expect(tree.some((p) => commandOf(p).includes('strategy-host.js'))).toBe(true);
    other.child.stdin?.end();
    await other.exited;
    expect(
      await until(() => tree.every((p) => !running(p)), PATIENCE),
      'every process of its tree is gone',
    ).toBe(true);
  });
});
