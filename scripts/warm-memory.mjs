#!/usr/bin/env node
// Issue 47's scenario (after `npm run build`): one warm strategy process, as the MCP server keeps
// it (WarmHosts, one lease per call, as a `compile` call uses it), asked CALLS calls of about MB
// megabytes each, every call with new file names and new words: a task, six small Python files
// and four Markdown documents of prose lines. Prints the resident memory (VmRSS) of the strategy
// process after call 1, every EVERY calls (10) and the last. A process that keeps each call's
// texts grows by about MB a call; one that forgets them swings within a band, as its collector
// (a 4 GiB heap, so it collects late) lets garbage build up and frees it: read the trend over the
// calls, not one figure. test/strategies/warm-memory.test.ts measures after a forced collection.
// Usage: [EVERY=10] node scripts/warm-memory.mjs [calls=30] [mb=10] [strategy=aider-repomap]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './cli.mjs';

const calls = Number(process.argv[2] ?? '30');
const mb = Number(process.argv[3] ?? '10');
const name = process.argv[4] ?? 'aider-repomap';
const every = Number(process.env.EVERY ?? '10');
if (!Number.isSafeInteger(calls) || calls < 1) throw new Error('calls must be a whole number >= 1');
if (!(mb > 0)) throw new Error('mb must be a positive number');
if (!Number.isSafeInteger(every) || every < 1) throw new Error('EVERY must be a whole number >= 1');

const built = (m) => import(pathToFileURL(path.join(root, 'dist/src', m)).href);
const { SCHEMA, defaultPolicy } = await built('compiler/index.js');
const { WarmHosts, pickStrategies } = await built('harness/hosts/index.js');

const cand = (id, over) => ({
  schema_version: SCHEMA.candidate,
  candidate_id: id,
  content_identity: id,
  representation_id: 'full',
  form_rank: 3,
  min_rank: 0,
  source_kind: 'synthetic-fixture',
  source_ref: 'warm-memory',
  kind: 'evidence',
  content: `content of ${id}`,
  token_count: 10,
  token_source: 'fixture-declared',
  requirement: 'DISCRETIONARY',
  order_role: 'evidence',
  scope_eligible: true,
  scope_reason: 'in scope',
  freshness_eligible: true,
  freshness_reason: 'validated current',
  authority_eligible: true,
  authority_reason: 'data',
  depends_on: [],
  group_id: null,
  group_required: false,
  coverage_keys: [],
  relevance: 0.5,
  is_default_form: true,
  ...over,
});

/** Call `k`'s inputs: every name and most words new to the call. */
function inputs(k) {
  const code = Array.from({ length: 6 }, (_, f) => {
    const id = `pkg${k}/mod_${f}.py`;
    const text = `def helper_${k}_${f}(order):\n    return helper_${k}_${(f + 1) % 6}(order)\n`;
    return cand(id, { content: text, token_count: 40 });
  });
  const docs = Array.from({ length: 4 }, (_, f) => {
    const id = `notes${k}/chapter_${f}.md`;
    const lines = [];
    let size = 0;
    for (let i = 0; size < (mb * 2 ** 20) / 4; i++) {
      const line = `Section ${i}: widget_${k}_${f}_${i % 997} calls helper_${k}_${i % 6} on each order.\n`;
      lines.push(line);
      size += line.length;
    }
    return cand(id, { content: lines.join(''), token_count: 400 });
  });
  const task = cand('the-task', {
    order_role: 'task',
    requirement: 'MANDATORY',
    content: `Fix helper_${k}_0 in pkg${k}/mod_0.py`,
    token_count: 20,
  });
  const request = {
    schema_version: SCHEMA.request,
    request_id: `call-${k}`,
    task_id: 'warm-memory',
    usable_token_budget: 8_000,
    created_at: '2026-01-01T00:00:00Z',
    active_scope: 'test',
    required_ids: [],
    policy_version: 'compiler-policy-v1',
  };
  return { request, candidates: [task, ...code, ...docs], policy: defaultPolicy() };
}

/** The strategy's process: this one's only child. */
const hostPid = () => {
  const children = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
  const pids = children.trim().split(/\s+/).filter(Boolean).map(Number);
  if (pids.length !== 1) throw new Error(`expected one strategy process, found ${pids.length}`);
  return pids[0];
};
const rssMb = (pid) => {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1]) / 1024;
};

const [ref] = pickStrategies([name]);
const warm = new WarmHosts({ timeout: 600_000, keep: 1, secrets: [] });
console.log(`${name}: ${calls} calls of ${mb} MB, new file names each call`);
let pid;
try {
  for (let k = 1; k <= calls; k++) {
    const given = inputs(k);
    const t0 = process.hrtime.bigint();
    const lease = warm.lease();
    try {
      await lease.describe([ref]);
      const answer = await lease.ask(ref, 'arguments', given);
      if (!answer.ok) throw new Error(`call ${k}: ${answer.message}`);
    } finally {
      lease.close();
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const now = hostPid();
    if (pid !== undefined && now !== pid) throw new Error(`call ${k} was answered by a new process`);
    pid = now;
    if (k === 1 || k % every === 0 || k === calls)
      console.log(
        `call ${String(k).padStart(3)}: strategy process RSS ${rssMb(pid).toFixed(0)} MB (${ms.toFixed(0)} ms)`,
      );
  }
} finally {
  warm.close();
}
