/**
 * The floor under a study's time (issue 39): what a study that keeps its promises must spend
 * before it loads a module of its own or compiles anything. Both BPE vocabularies of the
 * real-token audit, loaded as the audit loads them, and N bare Node processes under the
 * permission model, one for each process the study starts for its strategies (`processCount` in
 * hosts.ts: one for the shipped strategies that share, one for the oracle, one per plug-in).
 * `ctxbench bench --processes study6,study` times a study beside it; by hand:
 *
 *     node dist/src/harness/bench/floor-process.js 2
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { PERMISSION_FLAG } from '../hosts/index.js';

const n = Number(process.argv[2]);
if (!Number.isSafeInteger(n) || n < 0) {
  process.stderr.write('usage: node floor-process.js <strategy processes>\n');
  process.exit(2);
}
const load = createRequire(import.meta.url);
for (const t of ['cl100k_base', 'o200k_base']) load(`gpt-tokenizer/encoding/${t}`).countTokens('x');
for (let i = 0; i < n; i++) {
  const r = spawnSync(process.execPath, [
    PERMISSION_FLAG,
    '--disable-warning=ExperimentalWarning',
    '-e',
    '0',
  ]);
  if (r.status !== 0) process.exit(1);
}
