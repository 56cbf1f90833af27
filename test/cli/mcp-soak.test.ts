/**
 * One `ctxbench mcp` process answers a long run of calls, valid and malformed mixed in a seeded
 * order: every call is answered as its kind should be (a result, or a tool error with the CLI's
 * line), the server never crashes, and the resident memory of the server and its runners (the
 * processes that do the calls' work, and the strategy processes they keep warm) after the run stays
 * within a stated bound of what it was once warmed up. CI runs a sample; test:full runs the 1,000 calls of issue 24.
 */
import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import seedrandom from 'seedrandom';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runs } from '../helpers/arbitrary.js';
import { MCP_RUNNERS, MCP_WARM_KEEP } from '../helpers/limits.js';
import { childrenOf, mcpClient, memoryMb, referenceCase, texts, treeOf, until } from '../helpers/mcp.js';

// 240 calls past the warm-up in CI: a leak of a session, a handle or a pool per call shows by then.
const CALLS = runs(300, 1000);
const WARM = 60;
const SEED = 'mcp-soak-1';
/**
 * Resident memory the server may gain between the warm-up and the end. Generous: a heap grows in
 * steps before it collects; a leak of one session, one process handle or one pool per call over
 * hundreds of calls would pass it.
 */
const GROWTH_MB = 96;

/** The whole tree's: the server, its runners, and the shipped strategies' processes they keep warm. */
const servingMb = (pid: number): number => {
  let sum = memoryMb(pid, 'VmRSS');
  for (const p of treeOf(pid))
    try {
      sum += memoryMb(p, 'VmRSS');
    } catch {
      // Gone meanwhile (a plug-in's process, stopped with its call).
    }
  return sum;
};

/** Whether a process is a strategy's (`strategy-host.js`), which a runner may keep warm between calls. */
const isHost = (pid: number): boolean => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('strategy-host.js');
  } catch {
    return false;
  }
};

let client: Client;
let pid: number;
beforeAll(async () => {
  ({ client, pid } = await mcpClient());
});
afterAll(async () => {
  await client.close();
});

const { args } = referenceCase('dependency-trap');
const pool = (args.candidates as { candidates: Record<string, unknown>[] }).candidates;

/** A kind of call: its tool, arguments, and the error line it must give (undefined: a result). */
type Kind = readonly [tool: string, args: Record<string, unknown>, error?: RegExp];
const KINDS: readonly Kind[] = [
  ['compile', { ...args, strategy: 'compiler' }],
  ['compile', { ...args, budget: 900 }],
  ['explain', { ...args, strategy: 'compiler', budget: 900, candidate: 'ref-cheap' }],
  ['check', { candidates: args.candidates }],
  ['validate', { ...args, compilation: { result: {} } }, /^ctxbench: compilation: /],
  ['compile', { ...args, candidates: 'not a list' }, /^ctxbench: arguments: /],
  ['compile', { ...args, strategy: 'nosuch' }, /^ctxbench: unknown strategy "nosuch"/],
  ['compile', { ...args, budget: -1 }, /^ctxbench: budget must be/],
  ['compile', { ...args, candidates: [{ ...pool[0], token_count: 'many' }] }, /token_count/],
  ['nosuch', {}, /^ctxbench: unknown tool "nosuch"/],
];

it(`answers ${CALLS} mixed calls on one process within ${GROWTH_MB} MB of growth (seed ${SEED})`, async () => {
  const random = seedrandom(SEED);
  console.log(`mcp soak: ${CALLS} calls, seed ${SEED}`);
  let warm = 0;
  const told = new Map<string, number>();
  for (let k = 0; k < CALLS; k++) {
    const [tool, given, error] = KINDS[Math.floor(random() * KINDS.length)] as Kind;
    const r = await client.callTool({ name: tool, arguments: given });
    const at = `call ${k}: ${tool} ${JSON.stringify(given).slice(0, 60)}`;
    if (error === undefined) expect(r.isError, `${at}: ${texts(r)[0]}`).not.toBe(true);
    else {
      expect(r.isError, at).toBe(true);
      expect(texts(r)[0], at).toMatch(error);
    }
    told.set(tool, (told.get(tool) ?? 0) + 1);
    if (k === WARM - 1) warm = servingMb(pid);
  }
  const end = servingMb(pid);
  console.log(
    `mcp soak: resident ${warm.toFixed(1)} MB after ${WARM} calls, ${end.toFixed(1)} MB after ${CALLS} (${[...told].map(([t, n]) => `${t} ${n}`).join(', ')})`,
  );
  expect(end - warm).toBeLessThan(GROWTH_MB);
  // What is left is the server's runners, idle, at most as many as run at once, and below each
  // at most MCP_WARM_KEEP strategy processes kept warm: anything else a call started (a plug-in's
  // process, a second runner's) is gone once its exit has been reaped, which a loaded machine may
  // take a moment to do.
  const runners = () => childrenOf(pid);
  const stray = () =>
    treeOf(pid).filter(
      (p) => !runners().includes(p) && !(isHost(p) && runners().some((r) => childrenOf(r).includes(p))),
    );
  await until(() => stray().length === 0);
  expect(stray()).toEqual([]);
  expect(runners().length).toBeLessThanOrEqual(MCP_RUNNERS);
  // A warm process let go is a child until it is reaped: the count must come down to the bound.
  for (const r of runners())
    expect(await until(() => childrenOf(r).length <= MCP_WARM_KEEP), `runner ${r}`).toBe(true);
}, 3_600_000);
