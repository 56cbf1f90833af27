/**
 * A strategy process: it loads the strategy modules it is given (one plug-in, or the shipped
 * strategies a command asks for) and answers one compilation at a time. Whatever a strategy does
 * to its globals, its input or its memory stays in here; what goes back is the guard's answer,
 * JSON text or a message, as a frame on the channel (`channel.ts`), in the order `protocol.ts` sets.
 * Before the module loads, every route to another process is closed (`lockdown.ts`). Started by
 * `hosts.ts`, never by hand.
 */
import fs from 'node:fs';
import net from 'node:net';
// Registers the real tokenizers: a strategy prices with this process's compiler, which must know
// the policy's tokenizer.
import { countTokens } from '../../corpus/index.js';
import type { Strategy } from '../../types.js';
import { describeThrown } from '../answer-rules.js';
import { CHANNEL_FD, FrameReader, frame } from '../channel.js';
import { assembleAwaited, deepFreeze } from '../guard.js';
import { type HostReply, type HostRequest, type SharedInputs, WARM_COUNTS_ENV } from '../protocol.js';
import { infoOf, loadStrategyFile } from '../registry.js';
import { strategyInput } from '../strategy-input.js';
import { lockDown } from './lockdown.js';

async function serve(files: readonly string[]): Promise<void> {
  // Opened before the strategy loads, and held here only: a strategy that writes to the fd
  // itself can only break the protocol, and the parent stops its process for that.
  const channel = new net.Socket({ fd: CHANNEL_FD, readable: true, writable: true });
  const send = (reply: HostReply) => channel.write(frame(reply));
  // The run decides when to stop: a Ctrl-C reaches the whole process group, and the parent, not
  // this process, turns it into a clean stop.
  process.on('SIGINT', () => {});
  // The parent gone (killed, say) means nobody wants the answers.
  channel.on('close', () => process.exit(0));
  channel.on('error', () => process.exit(0));
  const asked: HostRequest[] = [];
  let strategies: Strategy[] | undefined;
  let shared: SharedInputs | undefined;
  const answer = async (m: HostRequest) => {
    if (m.shared !== undefined) {
      shared = deepFreeze(m.shared);
    }
    const strategy = strategies?.[m.strategy];
    if (shared === undefined || strategy === undefined) throw new Error('asked before the inputs were sent');
    const inputs = { ...shared, request: m.request, ledger: m.ledger, anytime: m.anytime };
    send({ id: m.id, answer: await assembleAwaited(strategy, strategyInput(strategy, inputs)) });
  };
  // Listen at once: a request that came before the strategy loaded waits for it.
  const reader = new FrameReader();
  // One compilation at a time, in the order asked, even when a strategy answers by a promise.
  let turn = Promise.resolve();
  const enqueue = (m: HostRequest) => {
    turn = turn.then(() => answer(m));
  };
  channel.on('data', (chunk: Buffer) => {
    for (const m of reader.push(chunk) as HostRequest[]) {
      if (strategies === undefined) asked.push(m);
      else enqueue(m);
    }
  });
  lockDown([process.stdout, process.stderr, channel]);
  const loaded: Strategy[] = [];
  for (const [k, file] of files.entries()) {
    try {
      loaded.push(await loadStrategyFile(file));
    } catch (e) {
      send({ broken: describeThrown(e), file: k });
      return;
    }
  }
  strategies = loaded;
  send({ ready: loaded.map(infoOf) });
  // Loaded now, while the caller reads its inputs, rather than at the first count. Only a name the
  // corpus registers; anything else is left to load when counted, or to fail there.
  const counts = process.env[WARM_COUNTS_ENV];
  if (counts === 'o200k' || counts === 'cl100k') turn = turn.then(() => void countTokens(counts, 'warm'));
  for (const m of asked.splice(0)) enqueue(m);
}

/** Whether this process was started by `hosts.ts`, with the channel open on its fd. */
function hosted(): boolean {
  try {
    return fs.fstatSync(CHANNEL_FD).isSocket();
  } catch {
    return false;
  }
}

const files = process.argv.slice(2);
if (files.length > 0 && hosted()) await serve(files);
