#!/usr/bin/env node
// docs/scale.md's projection: the wall time of .github/workflows/swe-bench.yml on SWE-bench Lite
// (300 instances, counted from data/swe-bench/lite.jsonl) and the full test set (2,294, by
// repository as the SWE-bench paper's table 1 gives them), at 10 and 50 jobs, from the figures
// measured on this 2-core machine (docs/scale.md, "Measured"). Prints the Markdown table.
//
//   node scripts/scale-projection.mjs
import fs from 'node:fs';
import path from 'node:path';
import { root } from './cli.mjs';

/** Measured here (docs/scale.md says how); seconds. */
const MEASURED = {
  // `npm ci` on a clean clone (.ci/run).
  install: 40,
  // Reading one base commit of sympy for the index, whatever the slice writes: `ingest --repo
  // sympy/sympy` of all 77 Lite instances took 418.7 s, its slice 1/8 (9 written) 387.2 s.
  readPerCommit: (387.2 - 9 * ((418.7 - 387.2) / 68)) / 77,
  // Writing one case once its repository is read: the same two runs' difference over 68 cases.
  writePerCase: (418.7 - 387.2) / 68,
  // Studying one instance, every registered strategy at --jobs 2: 0.21 s of CPU a compilation
  // over the 140 Lite instances (performance.md, "In minutes"), 81 compilations, on 2 cores.
  studyPerInstance: (0.212 * 81) / 2,
  // The merge job past its install: joining and reporting, as `ctxbench report` on the 140's run
  // folder took (70 s).
  merge: 70,
};
/** Not measurable here (no network to GitHub): one clone of a repository, a minute at most. */
const CLONE = 60;

const lite = fs
  .readFileSync(path.join(root, 'data/swe-bench/lite.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l).repo);
const FULL_TEST = {
  'astropy/astropy': 95,
  'django/django': 850,
  'matplotlib/matplotlib': 184,
  'mwaskom/seaborn': 22,
  'pallets/flask': 11,
  'psf/requests': 44,
  'pydata/xarray': 110,
  'pylint-dev/pylint': 57,
  'pytest-dev/pytest': 119,
  'scikit-learn/scikit-learn': 229,
  'sphinx-doc/sphinx': 187,
  'sympy/sympy': 386,
};
const full = Object.entries(FULL_TEST).flatMap(([repo, n]) => Array(n).fill(repo));

/** The ordered instances' repositories, split as ingest --shard splits them; each job's wall time. */
function jobs(repos, n) {
  const ordered = [...repos].sort();
  const per = new Map();
  for (const r of ordered) per.set(r, (per.get(r) ?? 0) + 1);
  return Array.from({ length: n }, (_, k) => {
    const mine = ordered.slice(
      Math.floor((k * ordered.length) / n),
      Math.floor(((k + 1) * ordered.length) / n),
    );
    const touched = [...new Set(mine)];
    // Every repository priced as sympy per base commit: the largest trees measured here.
    const read = touched.reduce((s, r) => s + CLONE + (per.get(r) ?? 0) * MEASURED.readPerCommit, 0);
    return MEASURED.install + read + mine.length * (MEASURED.writePerCase + MEASURED.studyPerInstance);
  });
}

const minutes = (s) => `${Math.round(s / 60)} min`;
const lines = [
  '| instances | jobs | slowest slice | merge job | whole | one machine |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
];
for (const [name, repos] of [
  ['Lite, 300', lite],
  ['full test set, 2,294', full],
])
  for (const n of [10, 50]) {
    const slowest = Math.max(...jobs(repos, n));
    const merge = MEASURED.install + MEASURED.merge * (repos.length / 140);
    lines.push(
      `| ${name} | ${n} | ${minutes(slowest)} | ${minutes(merge)} | ${minutes(slowest + merge)} | ${minutes(jobs(repos, 1)[0])} |`,
    );
  }
process.stdout.write(
  `read ${MEASURED.readPerCommit.toFixed(1)} s a base commit, write ${MEASURED.writePerCase.toFixed(2)} s a case, ` +
    `study ${MEASURED.studyPerInstance.toFixed(1)} s an instance\n${lines.join('\n')}\n`,
);
