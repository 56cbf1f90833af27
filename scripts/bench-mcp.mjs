#!/usr/bin/env node
// `npm run bench:mcp`: MCP `compile` latency as a client sees it. One built server (`ctxbench
// mcp`), spoken to with the SDK's own Client, one call at a time: a generated 200-candidate agent
// pool (seed mcp-bench) and a reference case (dependency-trap), each under the default strategy
// and `gated`. Per pool and strategy: one call first (the server's first, which starts what a
// call needs), then CALLS calls timed from the request sent to the result read; p50, p99 and max
// of those, and the load average beside them (the machine is shared: read figures with it). Every
// timed call's text must equal the first's, byte for byte, or the script exits 1.
// Usage: node scripts/bench-mcp.mjs [calls=200] [strategies=compiler-v2,gated]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const calls = Number(process.argv[2] ?? '200');
const strategies = (process.argv[3] ?? 'compiler-v2,gated').split(',');
if (!Number.isSafeInteger(calls) || calls < 1)
  throw new Error(`calls must be a whole number >= 1, not ${process.argv[2]}`);
const bin = path.join(root, 'bin/ctxbench.js');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-bench-mcp-'));
const made = spawnSync(
  process.execPath,
  [
    bin,
    'generate',
    '--seed',
    'mcp-bench',
    '--candidates',
    '200',
    '--profile',
    'agent',
    '--out',
    path.join(work, 'pool'),
    '--quiet',
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
if (made.status !== 0) process.exit(made.status ?? 1);
const json = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
const POOLS = {
  'agent-200': {
    request: json(path.join(work, 'pool/request.json')),
    candidates: json(path.join(work, 'pool/candidates.json')),
    policy: json(path.join(work, 'pool/policy.json')),
  },
  'dependency-trap': {
    request: json(path.join(root, 'corpus/compiler-v1/dependency-trap.request.json')),
    candidates: json(path.join(root, 'corpus/compiler-v1/dependency-trap.candidates.json')),
    policy: json(path.join(root, 'corpus/compiler-v1/compiler-policy-v1.json')),
  },
};
fs.rmSync(work, { recursive: true, force: true });

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const fixed = (x) => x.toFixed(1).padStart(7);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const client = new Client({ name: 'bench-mcp', version: '0' });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], stderr: 'inherit' }),
);
let failed = false;
try {
  console.log(
    `bench-mcp: ${calls} calls each, one at a time; node ${process.version}, ${os.cpus().length} cores`,
  );
  console.log('pool             strategy       first ms   p50 ms   p99 ms   max ms  load (1, 5, 15 min)');
  for (const [pool, records] of Object.entries(POOLS))
    for (const strategy of strategies) {
      const args = { ...records, strategy };
      const compile = () =>
        client.callTool({ name: 'compile', arguments: args }, undefined, { timeout: 600_000 });
      const t0 = process.hrtime.bigint();
      const first = await compile();
      const firstMs = ms(t0);
      const expected = JSON.stringify(first);
      if (first.isError) {
        console.error(`bench-mcp: ${pool} ${strategy}: ${first.content[0]?.text}`);
        failed = true;
        continue;
      }
      const times = [];
      for (let k = 0; k < calls; k++) {
        const t = process.hrtime.bigint();
        const r = await compile();
        times.push(ms(t));
        if (JSON.stringify(r) !== expected) {
          console.error(`bench-mcp: ${pool} ${strategy}: call ${k + 2} answered otherwise than the first`);
          failed = true;
        }
      }
      times.sort((a, b) => a - b);
      console.log(
        `${pool.padEnd(16)} ${strategy.padEnd(12)} ${fixed(firstMs)}  ${fixed(at(times, 0.5))}  ${fixed(at(times, 0.99))}  ${fixed(times[times.length - 1])}  ${load()}`,
      );
    }
} finally {
  await client.close();
}
process.exit(failed ? 1 : 0);
