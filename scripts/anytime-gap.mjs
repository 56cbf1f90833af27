#!/usr/bin/env node
// `node scripts/anytime-gap.mjs CORPUS [--certify]` (after `npm run build`): compiler-v2's answer
// now, as `pack` and MCP ask for it (StrategyInput.anytime), on every case of a corpus at each of
// its budgets: the distance from the optimum it tells (extras.within_percent), its median, 95th
// percentile and how often it is 0, and the CPU it took beside the study's certification. With
// --certify, each is also certified as a study does, and the optimum it misses is measured: the
// share of the optimum's earned relevance the answer now does not earn. Issue 50's closing note.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { root } from './cli.mjs';

const built = (module) => import(pathToFileURL(path.join(root, 'dist', module)).href);
const { loadCorpus } = await built('src/harness/corpus/index.js');
const { caseInputs, strategyInput } = await built('src/harness/hosts/index.js');
const { default: v2 } = await built('strategies/compiler-v2.js');

const { values, positionals } = parseArgs({
  options: { certify: { type: 'boolean' } },
  allowPositionals: true,
});
if (positionals.length !== 1) {
  process.stderr.write('usage: node scripts/anytime-gap.mjs CORPUS [--certify]\n');
  process.exit(2);
}
const corpus = loadCorpus(path.resolve(positionals[0]));
const earned = (x) => (x === undefined ? 0 : x.objective.preferred + x.objective.discretionary);
const rows = [];
for (const kase of corpus.cases)
  for (const budget of Object.keys(kase.budgets)) {
    const input = strategyInput(v2, caseInputs(kase, budget, corpus.policy, undefined));
    const t = process.cpuUsage();
    const now = await v2.assemble({ ...input, anytime: true });
    const cpu = process.cpuUsage(t);
    const row = {
      case: kase.name,
      budget,
      within: now.extras?.within_percent ?? null,
      ms: (cpu.user + cpu.system) / 1000,
    };
    if (values.certify) {
      const c = process.cpuUsage();
      const proven = await v2.assemble(input);
      const used = process.cpuUsage(c);
      row.certifyMs = (used.user + used.system) / 1000;
      const best = earned(proven.extras);
      row.missed = best > 0 ? (100 * (best - earned(now.extras))) / best : 0;
    }
    rows.push(row);
    process.stderr.write(
      `${kase.name} ${budget}: within ${row.within}%${row.missed === undefined ? '' : `, missed ${row.missed.toFixed(2)}%`}\n`,
    );
  }

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const line = (label, xs, unit) =>
  `${label}: median ${quantile(xs, 0.5).toFixed(2)}${unit}, 95th percentile ${quantile(xs, 0.95).toFixed(2)}${unit}, largest ${Math.max(...xs).toFixed(2)}${unit}`;
const bundles = rows.filter((r) => r.within !== null);
const withins = bundles.map((r) => r.within);
console.log(
  `${corpus.cases.length} cases, ${rows.length} compilations, ${bundles.length} bundles (the rest refusals)`,
);
console.log(line('within (told)', withins, '%'));
console.log(
  `told 0 (proven optimal by the short search): ${withins.filter((w) => w === 0).length} of ${withins.length}`,
);
console.log(
  line(
    'CPU, answer now',
    rows.map((r) => r.ms),
    ' ms',
  ),
);
if (values.certify) {
  const missed = bundles.map((r) => r.missed);
  console.log(line('missed (against the proven optimum)', missed, '%'));
  console.log(`missed nothing: ${missed.filter((m) => m <= 1e-9).length} of ${missed.length}`);
  console.log(
    line(
      'CPU, certified',
      rows.map((r) => r.certifyMs),
      ' ms',
    ),
  );
}
