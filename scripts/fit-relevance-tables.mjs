// The tables docs/real-data.md prints of a fitted relevance model (scripts/fit-relevance.mjs), as
// Markdown, from what relevance-model.json holds: the page's figures come from the file a test
// reads, not from a copy.

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const signed = (x) => `${x < 0 ? '-' : '+'}${Math.abs(x).toFixed(3)}`;
const int = (n) => n.toLocaleString('en-US');

/** The calibration table of one part: predicted against observed by bin of chance. */
export function calibrationTable(part) {
  const lines = ['| chance | files | mean predicted | observed |', '| --- | ---: | ---: | ---: |'];
  for (const b of part.bins.filter((b) => b.files > 0))
    lines.push(
      `| ${b.from} to ${b.to} | ${int(b.files)} | ${(100 * b.predicted).toFixed(2)}% | ${(100 * b.observed).toFixed(2)}% |`,
    );
  return lines.join('\n');
}

/** The ablation: each variant's accuracy and its rate of cases with every gold file whole, per limit. */
export function ablationTable(model) {
  const lines = [
    '| variant | Acc@1 | Acc@3 | Acc@5 | top-k 13k | top-k 27k | top-k 50k | greedy 13k | greedy 27k | greedy 50k | knapsack 13k | knapsack 27k | knapsack 50k |',
    `| --- |${' ---: |'.repeat(12)}`,
  ];
  for (const a of model.ablation)
    lines.push(
      `| ${a.variant} | ${[...a.acc_at_1_3_5, ...a.topk_whole, ...a.greedy_whole, ...a.knapsack_whole].map(pct).join(' | ')} |`,
    );
  return lines.join('\n');
}

export function tables(model, sources) {
  const oof = model.calibration.out_of_fold['swe-bench'];
  const self = model.calibration.never_fitted.self;
  return [
    `# ${sources['swe-bench']}: the relevance model's tables`,
    '',
    '## Weights',
    '',
    '| feature | weight |',
    '| --- | ---: |',
    ...model.features.map((f, i) => `| \`${f}\` | ${signed(model.weights[i])} |`),
    '',
    `## Ridge (out-of-fold mean log share of a needed file)`,
    '',
    '| ridge | mean log share |',
    '| ---: | ---: |',
    ...model.fitted.ridges.map((r) => `| ${r.ridge} | ${r.out_of_fold_log_share.toFixed(4)} |`),
    '',
    `## Out-of-fold calibration (${int(oof.files)} files, ${oof.needed} needed, ${oof.expected.toFixed(1)} expected; log loss ${oof.log_loss.toPrecision(3)} against ${oof.base_log_loss.toPrecision(3)})`,
    '',
    calibrationTable(oof),
    '',
    `## This repository's commits, never fitted on (${int(self.files)} files, ${self.needed} needed, ${self.expected.toFixed(1)} expected; log loss ${self.log_loss.toPrecision(3)} against ${self.base_log_loss.toPrecision(3)})`,
    '',
    calibrationTable(self),
    '',
    '## Ablation',
    '',
    ablationTable(model),
    '',
    `Knapsack with the floor ${model.floor}: ${model.knapsack_with_floor.map(pct).join(', ')}`,
    '',
    `Knapsack over every form (compiler-v2's objective): ${model.knapsack_every_form?.map(pct).join(', ') ?? 'not measured (no cached candidates)'}`,
    '',
  ].join('\n');
}
