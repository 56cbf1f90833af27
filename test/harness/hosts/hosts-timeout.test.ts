/**
 * `--timeout` times the answer, from the request sent to the answer read, on the parent's clock.
 * A strategy's module may load for longer than the timeout, and this thread may be busy past the
 * deadline (measuring the previous cell, as a study does) while the answer already waits in the
 * pipe, or waits to be written there once the pipe is read: none of these makes an error of a
 * healthy strategy. A strategy that never answers is still stopped. No figure here depends on the
 * machine's speed: the slow load and the busy thread last until the strategy has done what the
 * test waits for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Hosts, type strategyInput } from '../../../src/harness/hosts/index.js';
import type { StrategyRef } from '../../../src/harness/types.js';
import { cand, policy, req } from '../../helpers/pool.js';
import { tempDir } from '../../helpers/temp.js';

/** What a case gives a strategy's host: its records, and the ledger for one that reads it. */
type Inputs = Parameters<typeof strategyInput>[1];

const tmp = tempDir('hosts-timeout');
fs.writeFileSync(path.join(tmp, 'package.json'), '{ "type": "module" }\n');
const GO = path.join(tmp, 'go');
const SENT = path.join(tmp, 'sent');
const SENT_LARGE = path.join(tmp, 'sent-large');
const TIMEOUT = 100;

/** A plug-in file in the temporary folder, as a study's registry would list it. */
function plugin(name: string, text: string): StrategyRef {
  const file = path.join(tmp, `${name}.mjs`);
  fs.writeFileSync(file, text);
  return { name, file };
}

const SLOW_START = plugin(
  'zz-slow-start',
  `import fs from 'node:fs';
// Loading lasts until the test says so, which it does once the timeout has long passed.
await new Promise((resolve) => {
  const poll = setInterval(() => { if (fs.existsSync(${JSON.stringify(GO)})) { clearInterval(poll); resolve(); } }, 5);
});
export default {
  name: 'zz-slow-start',
  description: 'loads slowly, answers at once',
  assemble() {
    // Runs after this turn, in which the host sends the answer: by then it waits in the pipe.
    setImmediate(() => fs.writeFileSync(${JSON.stringify(SENT)}, ''));
    return { admitted: [] };
  },
};
`,
);

/** Ids enough that the answer is many times what a pipe holds (64 KiB on Linux). */
const LARGE_IDS = 100_000;
const LARGE = plugin(
  'zz-large',
  `import fs from 'node:fs';
export default {
  name: 'zz-large',
  description: 'answers at once, in many reads',
  assemble() {
    setImmediate(() => fs.writeFileSync(${JSON.stringify(SENT_LARGE)}, ''));
    return { admitted: Array.from({ length: ${LARGE_IDS} }, (_, k) => 'id-' + k) };
  },
};
`,
);

const HONEST = plugin(
  'zz-honest',
  `export default { name: 'zz-honest', description: 'answers at once', assemble() { return { admitted: [] }; } };
`,
);

const NEVER = plugin(
  'zz-never',
  `export default { name: 'zz-never', description: 'never answers', assemble() { for (;;) {} } };\n`,
);

const INPUTS: Inputs = { request: req(1000), candidates: [cand('a')], policy: policy() };

/**
 * Keep this thread busy (no event loop turn) until `done` and for at least `ms`, as a study's
 * thread is while it measures and scores a cell. Bounded, so that a broken strategy fails the
 * test rather than hanging it.
 */
function busy(done: () => boolean, ms: number): void {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const start = performance.now();
  const spent = () => performance.now() - start;
  while ((!done() || spent() < ms) && spent() < 120_000) Atomics.wait(cell, 0, 0, 5);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("--timeout times the answer, on the parent's clock", () => {
  it('a module loading past the timeout, and a thread busy past the deadline, make no error', async () => {
    const hosts = new Hosts({ timeout: TIMEOUT, keep: 1, secrets: [] });
    try {
      const describing = hosts.describe([SLOW_START]);
      await sleep(4 * TIMEOUT);
      fs.writeFileSync(GO, '');
      const [strategy] = await describing;
      expect(strategy?.name).toBe('zz-slow-start');
      const answer = hosts.ask(SLOW_START, 'case', INPUTS);
      // The cell goes out once the microtasks of ask have run; then this thread goes deaf.
      await new Promise((resolve) => setImmediate(resolve));
      busy(() => fs.existsSync(SENT), 4 * TIMEOUT);
      expect(await answer).toEqual({ ok: true, text: JSON.stringify({ admitted: [], extras: {} }) });
    } finally {
      hosts.close();
    }
  });

  it('a strategy that never answers is still stopped at the timeout', async () => {
    const hosts = new Hosts({ timeout: TIMEOUT, keep: 1, secrets: [] });
    try {
      await hosts.describe([NEVER]);
      expect(await hosts.ask(NEVER, 'case', INPUTS)).toEqual({
        ok: false,
        message: `zz-never timed out: no answer within ${TIMEOUT} ms, its process was stopped`,
      });
    } finally {
      hosts.close();
    }
  });

  it('an answer larger than the pipe, sent while the thread is busy far past the deadline, is read whole', async () => {
    const hosts = new Hosts({ timeout: TIMEOUT, keep: 1, secrets: [] });
    try {
      await hosts.describe([LARGE]);
      const answer = hosts.ask(LARGE, 'case', INPUTS);
      await new Promise((resolve) => setImmediate(resolve));
      // Busy far longer than reading the rest can take: the lateness is given back in full.
      busy(() => fs.existsSync(SENT_LARGE), 50 * TIMEOUT);
      const got = await answer;
      expect(got.ok).toBe(true);
      expect(got.ok && JSON.parse(got.text).admitted).toHaveLength(LARGE_IDS);
    } finally {
      hosts.close();
    }
  });

  it('a timeout longer than one timer can hold (2^31 ms) is not a timeout of 1 ms', async () => {
    const hosts = new Hosts({ timeout: 2 ** 32, keep: 1, secrets: [] });
    try {
      await hosts.describe([HONEST]);
      expect(await hosts.ask(HONEST, 'case', INPUTS)).toEqual({
        ok: true,
        text: JSON.stringify({ admitted: [], extras: {} }),
      });
    } finally {
      hosts.close();
    }
  });
});
