// The least CPU a study can cost while it keeps what issue 22 asks to keep, before it loads a
// module of its own or compiles anything: the vocabularies of the per-row real-token audit, and
// one bare Node process per strategy (the isolation), each under the permission model as the
// strategy hosts are. Time it beside the yardstick of the study bars:
//   farm-bench --vs 'node bin/ctxbench.js --help' -- node scripts/floor.mjs 6
// (6: the published strategies; 18: every registered one, the default study).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const n = Number(process.argv[2] ?? 6);
if (!Number.isSafeInteger(n) || n < 0) {
  process.stderr.write('usage: node scripts/floor.mjs <strategy processes>\n');
  process.exit(2);
}
const require = createRequire(import.meta.url);
// The same modules the audit loads (src/harness/corpus/bpe.ts), each counting once.
for (const t of ['cl100k_base', 'o200k_base']) require(`gpt-tokenizer/encoding/${t}`).countTokens('x');
const flag = process.allowedNodeEnvironmentFlags.has('--permission')
  ? '--permission'
  : '--experimental-permission';
for (let i = 0; i < n; i++) {
  const r = spawnSync(process.execPath, [flag, '--disable-warning=ExperimentalWarning', '-e', '0']);
  if (r.status !== 0) process.exit(1);
}
