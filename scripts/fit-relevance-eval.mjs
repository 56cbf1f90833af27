// The fit and its out-of-fold figures, for scripts/fit-relevance.mjs (issue 49). Every figure
// here is out of fold with the folds grouped by repository: each of the nine repositories of
// SWE-bench Lite is scored by a model fitted on the other eight. Deterministic: the
// folds, the fits (Newton from zero) and the orders (ties by path) depend on the data alone.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { exactKnapsack, formsKnapsack } from './fit-relevance-knapsack.mjs';
import { tables } from './fit-relevance-tables.mjs';

/** The budgets the SWE-bench paper counts its limits in, and ingest's SWE-bench budgets. */
export const LIMITS = [13_000, 27_000, 50_000];
/** Ridges tried on every feature; the one with the best out-of-fold log-likelihood is kept. */
const RIDGES = [0.1, 1, 10];
/** The floor: a gold file's out-of-fold chance falls below it in at most this share of cases. */
const FLOOR_MISSES = 0.01;

/** Cases of the rows, in order of first appearance: features as rows of numbers. */
export function casesOf(data, source) {
  const out = new Map();
  for (const r of data.rows) {
    if (r[0] !== source) continue;
    let c = out.get(r[1]);
    if (c === undefined) {
      c = { name: r[1], ...data.cases[r[1]], paths: [], needed: [], tokens: [], xs: [] };
      out.set(r[1], c);
    }
    c.paths.push(r[2]);
    c.needed.push(r[3] === 1);
    c.tokens.push(r[4]);
    c.xs.push(r.slice(5));
  }
  return [...out.values()];
}

/** The files of a case in order of `key`, highest first, ties by path. */
export function order(c, key) {
  const idx = c.paths.map((_, i) => i);
  return idx.sort(
    (a, b) => key[b] - key[a] || (c.paths[a] < c.paths[b] ? -1 : c.paths[a] > c.paths[b] ? 1 : 0),
  );
}

/** Whether a case's gold files are all taken by a greedy fill in `ranked` order under `limit`. */
export function filled(c, ranked, limit) {
  if (c.needed.filter(Boolean).length < c.gold) return false;
  let room = limit - (c.task ?? 0);
  let left = c.gold;
  for (const i of ranked) {
    if (c.tokens[i] > room) continue;
    room -= c.tokens[i];
    if (c.needed[i] && --left === 0) return true;
  }
  return false;
}

/** The measures of one variant's chances (`chance[c]` per file of case c). */
export function measures(cases, chance, floor = 0) {
  const n = cases.length;
  const acc = [1, 3, 5].map(
    (k) =>
      cases.filter((c, j) => {
        if (c.needed.filter(Boolean).length < c.gold) return false;
        const top = order(c, chance[j]).slice(0, k);
        return top.filter((i) => c.needed[i]).length === c.gold;
      }).length / n,
  );
  const topk = LIMITS.map((l) => cases.filter((c, j) => filled(c, order(c, chance[j]), l)).length / n);
  // The compiler's objective, simulated: full texts by chance per token (greedy), and exactly.
  const kept = (j) => chance[j].map((p) => (p < floor ? -1 : p));
  const greedy = LIMITS.map(
    (l) =>
      cases.filter((c, j) => {
        const density = kept(j).map((p, i) => (p < 0 ? -1 : p / Math.max(1, c.tokens[i])));
        return filled(
          c,
          order(c, density).filter((i) => density[i] >= 0),
          l,
        );
      }).length / n,
  );
  const knapsack = LIMITS.map(
    (l) =>
      cases.filter((c, j) => {
        if (c.needed.filter(Boolean).length < c.gold) return false;
        const chosen = exactKnapsack(c, kept(j), l - (c.task ?? 0));
        return c.needed.every((y, i) => !y || chosen.has(i));
      }).length / n,
  );
  return { acc, topk, greedy, knapsack };
}

/** Columns kept of each row. */
const project = (xs, keep) => xs.map((x) => keep.map((i) => x[i]));

export async function fitAndReport(data, { root, work, sources }) {
  const built = (m) => import(pathToFileURL(path.join(root, 'dist/src/harness', m)).href);
  const { FEATURES, FAMILIES } = await built('ingest/relevance/relevance-features.js');
  const { calibration, fitConditional, fitLogistic } = await built('ingest/relevance/relevance-fit.js');
  const { logShares } = await built('ingest/relevance/relevance-model.js');
  const swe = casesOf(data, 'swe-bench');
  const self = casesOf(data, 'self');
  const repos = [...new Set(swe.map((c) => c.repo))].sort();
  const group = (c, keep) => ({ rows: project(c.xs, keep), needed: c.needed });
  const say = (line) => process.stderr.write(`${line}\n`);

  /** Out-of-fold log shares of every case, the model fitted on the other repositories. */
  const outOfFold = (keep, ridge, fit = 'conditional') => {
    const shares = new Array(swe.length);
    for (const repo of repos) {
      const train = swe.filter((c) => c.repo !== repo);
      if (fit === 'conditional') {
        const f = fitConditional(
          train.map((c) => group(c, keep)),
          ridge,
        );
        swe.forEach((c, j) => {
          if (c.repo === repo) shares[j] = logShares(project(c.xs, keep), f.weights);
        });
      } else {
        // The model before issue 49: one logistic regression per file, its log odds as the score.
        const f = fitLogistic(
          train.flatMap((c) => project(c.xs, keep).map((x, i) => ({ x, needed: c.needed[i] }))),
          ridge,
        );
        swe.forEach((c, j) => {
          if (c.repo !== repo) return;
          shares[j] = project(c.xs, keep).map((x) => {
            const z = f.intercept + f.weights.reduce((s, w, i) => s + w * x[i], 0);
            return -Math.log1p(Math.exp(-z));
          });
        });
      }
    }
    return shares;
  };
  const logLikelihood = (shares) =>
    swe.reduce((s, c, j) => s + c.needed.reduce((t, y, i) => t + (y ? shares[j][i] : 0), 0), 0) /
    swe.reduce((s, c) => s + c.needed.filter(Boolean).length, 0);

  const every = FEATURES.map((_, i) => i);
  const ridges = RIDGES.map((ridge) => {
    const shares = outOfFold(every, ridge);
    const ll = logLikelihood(shares);
    say(`ridge ${ridge}: out-of-fold mean log share of a needed file ${ll.toFixed(4)}`);
    return { ridge, ll, m: measures(swe, shares) };
  });
  const { ridge } = ridges.reduce((a, b) => (b.ll > a.ll ? b : a));

  const variants = [
    { name: 'every feature', keep: every },
    ...Object.entries(FAMILIES).map(([family, fs]) => ({
      name: `without ${family}`,
      keep: every.filter((i) => !fs.includes(FEATURES[i])),
    })),
    {
      name: 'names only (the features before issue 49)',
      keep: FAMILIES.names.map((f) => FEATURES.indexOf(f)),
    },
    { name: 'every feature, one logistic per file', keep: every, fit: 'logistic' },
    {
      name: 'names only, one logistic per file (the model before)',
      keep: FAMILIES.names.map((f) => FEATURES.indexOf(f)),
      fit: 'logistic',
    },
  ];
  let chosen;
  const ablation = variants.map((v) => {
    const shares = outOfFold(v.keep, ridge, v.fit);
    // The chance is the share itself (relevance-model.ts says why no calibration is laid over it).
    const chance = shares.map((s) => s.map(Math.exp));
    if (v.keep === every && v.fit === undefined) chosen = { shares, chance };
    const m = measures(swe, chance);
    say(
      `${v.name}: acc ${m.acc.map((a) => a.toFixed(3))} topk ${m.topk.map((a) => a.toFixed(3))} greedy ${m.greedy.map((a) => a.toFixed(3))} knapsack ${m.knapsack.map((a) => a.toFixed(3))}`,
    );
    return { name: v.name, ...m };
  });

  // The floor: the highest power of ten below which at most FLOOR_MISSES of the cases' gold files fall.
  const goldChances = swe
    .flatMap((c, j) => chosen.chance[j].filter((_, i) => c.needed[i]))
    .sort((a, b) => a - b);
  const lowest = goldChances[Math.floor(FLOOR_MISSES * goldChances.length)] ?? 0;
  // Spelt as `1e-N`: 10 ** -N is not always the double nearest to it.
  const floor = lowest > 0 ? Number(`1e${Math.floor(Math.log10(lowest))}`) : 0;
  const withFloor = measures(swe, chosen.chance, floor);
  // compiler-v2's choice with its outlines and references too, where the ingest that made the
  // features kept the cases' candidates (runs/relevance/swe-bench/): the forms' tokens read there.
  const formsOf = (c) => {
    const file = path.join(work, 'swe-bench', `${c.name}.candidates.json`);
    if (!fs.existsSync(file)) return null;
    const forms = new Map();
    for (const x of JSON.parse(fs.readFileSync(file, 'utf8')).candidates) {
      if (x.requirement === 'MANDATORY') continue;
      forms.set(x.content_identity, {
        ...forms.get(x.content_identity),
        [x.representation_id]: x.token_count,
      });
    }
    return forms;
  };
  const everyForm = swe.map(formsOf);
  const formsWhole = everyForm.includes(null)
    ? null
    : LIMITS.map(
        (l) =>
          swe.filter((c, j) => {
            const whole = formsKnapsack(c, chosen.chance[j], l - (c.task ?? 0), everyForm[j]);
            return c.needed.every((y, i) => !y || whole.has(c.paths[i]));
          }).length / swe.length,
      );
  if (formsWhole !== null) say(`knapsack over every form: ${formsWhole.map((a) => a.toFixed(3))}`);

  // The committed model: every instance, the chosen ridge.
  const fit = fitConditional(
    swe.map((c) => group(c, every)),
    ridge,
  );
  const round = (x) => Number(x.toPrecision(6));
  const model = {
    features: [...FEATURES],
    weights: fit.weights.map(round),
    floor,
  };
  const calibrated = (cases, chance) => {
    const c = calibration(cases.flatMap((k, j) => chance[j].map((p, i) => ({ p, needed: k.needed[i] }))));
    return {
      cases: cases.length,
      files: c.files,
      needed: c.needed,
      expected: round(c.expected),
      log_loss: round(c.logLoss),
      base_log_loss: round(c.baseLogLoss),
      bins: c.bins.map((b) => ({ ...b, predicted: round(b.predicted), observed: round(b.observed) })),
    };
  };
  const { chancesOf } = await built('ingest/relevance/relevance-model.js');
  const selfChance = self.map((c) => chancesOf(c.xs, model));
  const written = {
    ...model,
    fitted: {
      on: `${sources['swe-bench']}: the ${swe.length} instances of ${repos.length} repositories`,
      model:
        "conditional logit (softmax of w·x over a task's files), Newton from zero; chance = the file's share",
      ridge,
      newton_steps: fit.steps,
      folds: 'leave one repository out',
      ridges: ridges.map((r) => ({ ridge: r.ridge, out_of_fold_log_share: round(r.ll) })),
      floor: `the highest power of ten under the out-of-fold chance of all but ${FLOOR_MISSES * 100}% of gold files`,
    },
    calibration: {
      out_of_fold: { 'swe-bench': calibrated(swe, chosen.chance) },
      never_fitted: { self: calibrated(self, selfChance) },
    },
    ablation: ablation.map((a) => ({
      variant: a.name,
      acc_at_1_3_5: a.acc.map(round),
      topk_whole: a.topk.map(round),
      greedy_whole: a.greedy.map(round),
      knapsack_whole: a.knapsack.map(round),
    })),
    knapsack_with_floor: withFloor.knapsack.map(round),
    knapsack_every_form: formsWhole?.map(round) ?? null,
  };
  const file = path.join(root, 'src/harness/ingest/relevance/relevance-model.json');
  fs.writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
  fs.writeFileSync(path.join(work, 'tables.md'), tables(written, sources));
  say(`${path.relative(root, file)} written; tables in ${path.relative(root, path.join(work, 'tables.md'))}`);
}
