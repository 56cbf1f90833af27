/**
 * A warm strategy process's memory, measured from inside: run as a process of its own (`node
 * --expose-gc`, from test/strategies/warm-memory.test.ts), it loads shipped strategy files as a
 * strategy's process does (`loadStrategyFile`) and answers call after call as `host.ts` answers
 * one (the inputs read from a frame and deep-frozen, `assembleAwaited`), every call a pool of new
 * file names and texts of `mb` MB, each asked at the study's three budgets. After the calls of
 * `at`, it prints the memory in use after a full collection (V8's heap and what lives outside it:
 * WebAssembly memory, buffers) as one JSON line. A warm process is a strategy process that
 * outlives a call, so what grows here from call to call is what the MCP server's warm processes
 * would keep.
 *
 * Argument: JSON `{ files, calls, at, mb }`.
 */

import { FrameReader, frame } from '../../src/harness/hosts/channel.js';
import { assembleAwaited, deepFreeze } from '../../src/harness/hosts/guard.js';
import { loadStrategyFile } from '../../src/harness/hosts/registry.js';
import { type Inputs, strategyInput } from '../../src/harness/hosts/strategy-input.js';
import { cand, policy, req } from './pool.js';

const { files, calls, at, mb } = JSON.parse(process.argv[2] as string) as {
  readonly files: readonly string[];
  readonly calls: number;
  readonly at: readonly number[];
  readonly mb: number;
};
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with --expose-gc');

/** Source files, small, so that a parser and a ranking have something to work on. */
const CODE = 6;
/** The large texts: documents no grammar reads, so the pool is large without being slow to parse. */
const DOCS = 4;

/**
 * Call `k`'s pool: the task, CODE Python files that define and call names new to the call, and
 * DOCS documents of `mb / DOCS` MB, each opening with words new to the call (a word an index keeps
 * must not keep its document) and then blank lines: an analyser's time goes by words, the memory
 * a cache would keep by characters, so the test is fast and the texts still large.
 */
function pool(k: number) {
  const task = `Fix helper_${k}_0 in pkg${k}/mod_0.py`;
  const code = Array.from({ length: CODE }, (_, f) => {
    const name = `pkg${k}/mod_${f}.py`;
    const text = `def helper_${k}_${f}(order_${k}):\n    return helper_${k}_${(f + 1) % CODE}(order_${k})\n`;
    return cand(name, { content_identity: name, content: text, token_count: 40 });
  });
  const docs = Array.from({ length: DOCS }, (_, f) => {
    const name = `notes${k}/chapter_${f}.md`;
    const words = `chapter_${k}_${f}_heading describes helper_${k}_${f} and widget_${k}_${f}_settings\n`;
    const text = words + '\n'.repeat(Math.round((mb * 2 ** 20) / DOCS));
    return cand(name, { content_identity: name, content: text, token_count: 400 });
  });
  const prompt = cand('the-task', {
    order_role: 'task',
    requirement: 'MANDATORY',
    content: task,
    token_count: 20,
  });
  return [prompt, ...code, ...docs];
}

const strategies = [];
for (const file of files) strategies.push(await loadStrategyFile(file));
const measured: Record<number, number> = {};
for (let k = 1; k <= calls; k++) {
  // One call's inputs, through the channel's frames and frozen, as a strategy's process gets them:
  // read from a frame, each text is a string of its own, as large as it is long.
  const [sent] = new FrameReader().push(frame({ candidates: pool(k), policy: policy() }));
  const shared = deepFreeze(sent as Pick<Inputs, 'candidates' | 'policy'>);
  for (const budget of [2_000, 4_000, 8_000])
    for (const s of strategies) {
      const request = req(budget, { request_id: `call-${k}` });
      const answer = await assembleAwaited(s, strategyInput(s, { ...shared, request }));
      if (!answer.ok) throw new Error(`${s.name}, call ${k}: ${answer.message}`);
    }
  if (at.includes(k)) {
    // Twice: a collection can leave what a finalizer of the first one freed.
    collect();
    collect();
    const m = process.memoryUsage();
    measured[k] = m.heapUsed + m.external;
  }
}
process.stdout.write(`${JSON.stringify(measured)}\n`);
