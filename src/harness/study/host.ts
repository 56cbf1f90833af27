/**
 * A strategy's own process: it loads one strategy module and answers one compilation at a time.
 * Whatever the strategy does to its globals, its input or its memory stays in here; what goes
 * back is the guard's answer, JSON text or a message, as a frame on the channel (`frames.ts`), in
 * the order `protocol.ts` sets.
 * Before the module loads, every route to another process is closed (`lockdown.ts`). Started by
 * `hosts.ts`, never by hand.
 */
import fs from 'node:fs';
import net from 'node:net';
// Registers the real tokenizers: a strategy prices with this process's compiler, which must know
// the policy's tokenizer.
import '../corpus/index.js';
import type { Strategy } from '../types.js';
import { CHANNEL_FD, FrameReader, frame } from './channel.js';
import type { HostReply, HostRequest, SharedInputs } from './host-protocol.js';
import { lockDown } from './lockdown.js';
import { infoOf, loadStrategyFile } from './registry.js';
import { assembleAwaited, deepFreeze, describeThrown } from './sandbox.js';
import { strategyInput } from './strategy-input.js';

async function serve(file: string): Promise<void> {
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
  let strategy: Strategy | undefined;
  let shared: SharedInputs | undefined;
  const answer = async (m: HostRequest) => {
    if (m.shared !== undefined) {
      shared = deepFreeze(m.shared);
    }
    if (shared === undefined || strategy === undefined) throw new Error('asked before the inputs were sent');
    const inputs = { ...shared, request: m.request, ledger: m.ledger };
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
      if (strategy === undefined) asked.push(m);
      else enqueue(m);
    }
  });
  lockDown([process.stdout, process.stderr, channel]);
  try {
    strategy = await loadStrategyFile(file);
  } catch (e) {
    send({ broken: describeThrown(e) });
    return;
  }
  send({ ready: infoOf(strategy) });
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

const file = process.argv[2];
if (file !== undefined && hosted()) await serve(file);
