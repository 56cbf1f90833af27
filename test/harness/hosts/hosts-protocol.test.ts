/**
 * The clock is the parent's: a strategy that writes messages of the protocol onto its channel
 * itself (fd 3) cannot stop, restart or extend it. Every message out of the protocol's order
 * stops the process, and the cell's answer names what was sent. Each plug-in here then works on
 * for ten seconds and answers, under a timeout no test run reaches: a parent that let the message
 * pass gets that answer instead, whatever the machine's speed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Hosts, type strategyInput } from '../../../src/harness/hosts/index.js';
import type { CaseLedger, StrategyRef } from '../../../src/harness/types.js';
import { cand, policy, req } from '../../helpers/pool.js';
import { tempDir } from '../../helpers/temp.js';

/** What a case gives a strategy's host: its records, and the ledger for one that reads it. */
type Inputs = Parameters<typeof strategyInput>[1];

const tmp = tempDir('hosts-protocol');
fs.writeFileSync(path.join(tmp, 'package.json'), '{ "type": "module" }\n');
/** Long past any test's time: a cell that reaches it was not ended by the breach. */
const NEVER = 3_600_000;

/** A message written on the channel as the host writes one (frames.ts): a length, then V8's bytes. */
const FORGE = `import fs from 'node:fs';
import v8 from 'node:v8';
const forge = (value) => {
  const body = v8.serialize(value);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  fs.writeSync(3, Buffer.concat([head, body]));
};
let asked = 0;
`;

/** A plug-in that runs `atLoad` as its module loads and `inAssemble` in each compilation, then answers late. */
function forger(name: string, inAssemble: string, atLoad = ''): StrategyRef {
  const file = path.join(tmp, `${name}.mjs`);
  fs.writeFileSync(
    file,
    `${FORGE}${atLoad}
export default {
  name: '${name}',
  description: 'writes protocol messages of its own',
  assemble() {
    asked += 1;
    ${inAssemble};
    for (const end = Date.now() + 10_000; Date.now() < end; ) {}
    return { admitted: [] };
  },
};
`,
  );
  return { name, file };
}

/** A ready message's list: what each of a process's strategies is (one here). */
const INFO = (name: string) => `[{ name: '${name}', description: 'forged', readsLedger: false }]`;
const INPUTS: Inputs = { request: req(1000), candidates: [cand('a')], policy: policy() };

async function answerOf(ref: StrategyRef) {
  const hosts = new Hosts({ timeout: NEVER, keep: 1, secrets: [] });
  try {
    await hosts.describe([ref]);
    return await hosts.ask(ref, 'case', INPUTS);
  } finally {
    hosts.close();
  }
}

const stopped = (name: string, sent: string) => ({
  ok: false,
  message: `${name}'s process broke the protocol: it sent ${sent}, and was stopped while compiling`,
});

describe('no message from a strategy moves the clock: one out of order stops its process', () => {
  it.each([
    [
      'a ready message while compiling (it once stopped the clock)',
      'zz-ready',
      `forge({ ready: ${INFO('zz-ready')} })`,
      'a ready message where only its answer may come',
    ],
    [
      "the old protocol's done (it once restarted the clock)",
      'zz-done',
      'forge({ id: asked, done: true })',
      'a message of no kind the protocol has where only its answer may come',
    ],
    [
      'an answer to a request not asked',
      'zz-other-id',
      "forge({ id: asked + 1, answer: { ok: true, text: '{}' } })",
      'an answer to a request it was not asked where only its answer may come',
    ],
    [
      'a broken message after loading',
      'zz-broken',
      "forge({ broken: 'no' })",
      'a broken message where only its answer may come',
    ],
    [
      'something that is not a message',
      'zz-number',
      'forge(7)',
      'something that is not a message where only its answer may come',
    ],
  ])('%s', async (_what, name, inAssemble, sent) => {
    expect(await answerOf(forger(name, inAssemble))).toEqual(stopped(name, sent));
  });

  it('a message before the module has loaded stops the process, and the module is named as broken', async () => {
    const ref = forger('zz-early', '', "forge({ id: 1, answer: { ok: true, text: '{}' } });");
    const hosts = new Hosts({ timeout: NEVER, keep: 1, secrets: [] });
    try {
      await expect(hosts.describe([ref])).rejects.toThrow(
        'could not be loaded: its process broke the protocol: it sent an answer to a request it was not asked before it had loaded, and was stopped',
      );
    } finally {
      hosts.close();
    }
  });

  it('a second ready (one forged as the module loads, then the real one) is accepted once only', async () => {
    const answer = await answerOf(forger('zz-twice', '', `forge({ ready: ${INFO('zz-twice')} });`));
    // Whether the real one comes before the cell is sent or after, the cell names it.
    expect(answer.ok).toBe(false);
    expect(answer.ok === false && answer.message).toMatch(
      /^zz-twice's process broke the protocol: it sent a ready message (while it was asked nothing|where only its answer may come), and was stopped/,
    );
  });
});

describe('what a strategy says of itself holds for every process of it', () => {
  it('a process started later must say what the first said: it is not given the ledger otherwise', async () => {
    const flag = path.join(tmp, 'turn');
    const file = path.join(tmp, 'zz-turncoat.mjs');
    fs.writeFileSync(
      file,
      `import fs from 'node:fs';
const turned = fs.existsSync(${JSON.stringify(flag)});
export default {
  name: 'zz-turncoat',
  description: 'says it reads the ledger once it is started again',
  readsLedger: turned,
  assemble(input) {
    if (!turned && fs.existsSync(${JSON.stringify(flag)})) process.exit(0);
    return { admitted: [], extras: { given: 'ledger' in input } };
  },
};
`,
    );
    const ref = { name: 'zz-turncoat', file };
    const withLedger: Inputs = { ...INPUTS, ledger: { secret: true } as unknown as CaseLedger };
    const hosts = new Hosts({ timeout: NEVER, keep: 1, secrets: [] });
    try {
      const [info] = await hosts.describe([ref]);
      expect(info?.readsLedger).toBe(false);
      fs.writeFileSync(flag, '');
      expect(await hosts.ask(ref, 'case', withLedger)).toEqual({
        ok: false,
        message: "zz-turncoat's process exited with code 0 while compiling",
      });
      expect(await hosts.ask(ref, 'case', withLedger)).toEqual({
        ok: false,
        message:
          'zz-turncoat could not be loaded: its process described the strategy otherwise than its first did',
      });
    } finally {
      hosts.close();
    }
  });
});
