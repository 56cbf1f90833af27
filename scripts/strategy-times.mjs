#!/usr/bin/env node
// `node scripts/strategy-times.mjs CORPUS [--cases FROM:TO] [--strategies A,B]` (after `npm run
// build`): each strategy's time on a slice of a corpus's cases, every strategy answering in this
// thread, in a study's loop order (a case's three budgets, each strategy in registry order), so
// that what a strategy keeps between cells (Aider's tags, BM25's analysed files, the solves HiGHS
// remembers) is kept as in a study's process. Prints milliseconds per strategy, most first, and
// the study's whole time; no process, no run folder. docs/performance.md reads it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { root } from './cli.mjs';

const built = (module) => import(pathToFileURL(path.join(root, 'dist', module)).href);
const { ledgerDirFor, loadCorpus, loadLedger } = await built('src/harness/corpus/index.js');
const { runStudy } = await built('src/harness/study/index.js');
const { REPORT_STRATEGIES } = await built('src/harness/vocabulary.js');

const USAGE = 'node scripts/strategy-times.mjs CORPUS [--cases FROM:TO] [--strategies A,B]';
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { cases: { type: 'string' }, strategies: { type: 'string' } },
  });
} catch (e) {
  process.stderr.write(`strategy-times: ${e.message} (usage: ${USAGE})\n`);
  process.exit(2);
}
const [dir] = parsed.positionals;
const range = /^(\d+):(\d+)$/.exec(parsed.values.cases ?? '0:999999');
if (dir === undefined || range === null) {
  process.stderr.write(`strategy-times: need a corpus folder and FROM:TO case indexes (usage: ${USAGE})\n`);
  process.exit(2);
}
const whole = loadCorpus(dir);
const corpus = { ...whole, cases: whole.cases.slice(Number(range[1]), Number(range[2])) };
const ledger = loadLedger(ledgerDirFor(whole), whole);
const names = parsed.values.strategies?.split(',') ?? REPORT_STRATEGIES;
const spent = new Map(names.map((n) => [n, 0]));
const timed = (name, s) => ({
  ...s,
  assemble(input) {
    const t = process.hrtime.bigint();
    const add = () => spent.set(name, spent.get(name) + Number(process.hrtime.bigint() - t) / 1e6);
    const out = s.assemble(input);
    if (out !== null && typeof out === 'object' && typeof out.then === 'function') return out.finally(add);
    add();
    return out;
  },
});
const strategies = [];
for (const n of names) strategies.push(timed(n, (await built(`strategies/${n}.js`)).default));
const t = process.hrtime.bigint();
await runStudy({ corpus, ledger, where: { in: 'thread', strategies } });
const whole_ms = Number(process.hrtime.bigint() - t) / 1e6;
const all = [...spent.values()].reduce((a, b) => a + b, 0);
console.log(`${corpus.cases.length} cases: ${corpus.cases.map((c) => c.name).join(' ')}`);
for (const [n, ms] of [...spent].sort((a, b) => b[1] - a[1]))
  console.log(`${n.padEnd(26)} ${ms.toFixed(0).padStart(8)} ms`);
console.log(`${'strategies'.padEnd(26)} ${all.toFixed(0).padStart(8)} ms`);
console.log(
  `${'the study'.padEnd(26)} ${whole_ms.toFixed(0).padStart(8)} ms (the harness: ${(whole_ms - all).toFixed(0)} ms)`,
);
