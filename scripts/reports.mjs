#!/usr/bin/env node
// `npm run reports` (after `npm run build`): every committed report from fresh runs of the
// strategies REPORT_STRATEGIES names (src/harness/vocabulary.ts), never of whatever else is
// registered, so a plug-in in strategies/ changes none of them. reports/ and the README's
// headline table from the reference corpus; reports/compiler-v2/ and docs/findings.md from
// corpus v2; reports/agent-200/ from a generated corpus of agent pools (AGENT_REPORT), which the
// findings read too, with the committed rows of reports/swe-bench-lite/. Tests fail when any of
// them drifts from what the code produces.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { ctxbench, root } from './cli.mjs';

const built = (module) => import(pathToFileURL(path.join(root, 'dist/src/harness', module)).href);
const { AGENT_REPORT, REPORT_STRATEGIES, SWE_BENCH_LITE } = await built('vocabulary.js');
const { headlineMarkdown, withHeadline } = await built('report/readme-headline.js');
const strategies = REPORT_STRATEGIES.join(',');

ctxbench('study', '--strategies', strategies, '--out', 'runs/reference', '--force', '--quiet');
ctxbench('report', 'runs/reference', '--out', 'reports');
// The headline `study` printed, from the summary it wrote: the same stats, the same table.
const summary = JSON.parse(fs.readFileSync(path.join(root, 'reports/summary.json'), 'utf8'));
const readme = path.join(root, 'README.md');
fs.writeFileSync(readme, withHeadline(fs.readFileSync(readme, 'utf8'), headlineMarkdown(summary)));
process.stderr.write('headline table written to README.md\n');
const v2 = ['--corpus', 'corpus/compiler-v2', '--out', 'runs/compiler-v2'];
ctxbench('study', '--strategies', strategies, ...v2, '--force', '--quiet');
ctxbench('report', 'runs/compiler-v2', '--out', 'reports/compiler-v2');
const agent = AGENT_REPORT;
const agentCorpus = `runs/corpora/${agent.name}`;
ctxbench(
  'generate',
  ...['--seed', agent.seed, '--candidates', String(agent.candidates), '--cases', String(agent.cases)],
  ...['--profile', agent.profile, '--out', agentCorpus, '--force', '--quiet'],
);
const agentRun = `runs/${agent.name}`;
ctxbench(
  'study',
  '--strategies',
  strategies,
  '--corpus',
  agentCorpus,
  '--out',
  agentRun,
  '--force',
  '--quiet',
);
ctxbench('report', agentRun, '--out', `reports/${agent.name}`);
// The SWE-bench run's rows as committed (`npm run swe-bench` makes them, in an hour): the findings
// read its localization figures from them, without the repositories.
const swe = `runs/${SWE_BENCH_LITE.name}`;
fs.mkdirSync(path.join(root, swe), { recursive: true });
fs.writeFileSync(
  path.join(root, swe, 'rows.jsonl'),
  gunzipSync(fs.readFileSync(path.join(root, 'reports', SWE_BENCH_LITE.name, 'rows.jsonl.gz'))),
);
ctxbench(
  'findings',
  'runs/compiler-v2',
  'runs/reference',
  agentRun,
  swe,
  '--template',
  'docs/findings.template.md',
  '--out',
  'docs/findings.md',
);
