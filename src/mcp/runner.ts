/**
 * A runner of `ctxbench mcp`: a process of its own that does the tools' work, one call at a time,
 * for the server (runners.ts), which hands it each call over Node's IPC channel and gets the result
 * back the same way. It keeps the shipped strategies' processes warm between calls (warm-hosts.ts),
 * nothing else of a call. It leads a process group, and is tied to the server (tether.ts): when the
 * server is gone, this process and every process it started are killed. Started by runners.ts,
 * never by hand.
 */
import { WARM_KEEP, WarmHosts } from '../harness/hosts/index.js';
import { call } from './call.js';
import type { RunnerJob, RunnerReply } from './runners.js';
import { TETHER_FD, tether } from './tether.js';

tether(TETHER_FD, 'group');

const send = (reply: RunnerReply): void => {
  // A channel already closed is the server gone: the group is being killed (below).
  process.send?.(reply, undefined, undefined, () => {});
};

/**
 * The shipped strategies' processes, kept loaded from call to call (warm-hosts.ts): in this
 * process's group, so they go when it goes. Made at the first call, whose options every call shares.
 */
let warm: WarmHosts | undefined;

process.on('message', (job: RunnerJob) => {
  warm ??= new WarmHosts({ timeout: job.options.timeout, keep: WARM_KEEP, secrets: [] });
  call(job.name, job.args, job.options, warm).then(
    (result) => send({ result }),
    (e: unknown) => send({ crash: e instanceof Error ? e.message : String(e) }),
  );
});
// The server is gone (or closed the channel: it never does while it runs). Exiting alone would
// leave what a call started (git blocked on a FIFO, a strategy's host) running, and would end the
// tether's thread before it kills them: the whole group goes, this process with it.
process.on('disconnect', () => process.kill(-process.pid, 'SIGKILL'));
send({ ready: true });
