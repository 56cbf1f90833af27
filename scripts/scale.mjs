#!/usr/bin/env node
// Scale, measured as whole processes side by side on the same generated files: a bare `node`
// process that only JSON-parses the input files, against the compiler run on them, the library
// alone (parse, read, compile) and the whole CLI (`ctxbench compile`: parse, read, check,
// compile, validate, write). Two strategies, `compiler` (the reference) and `compiler-v2`, at two
// budgets: medium, where a legal bundle exists, and tight, where none does; every line says
// whether the compile returned a bundle or refused. Alternating runs, medians, peak memory.
// Usage: node scripts/scale.mjs [sizes=10000,100000] [runs=3]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/ctxbench.js');
const sizes = (process.argv[2] ?? '10000,100000').split(',').map(Number);
const runs = Number(process.argv[3] ?? 3);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxbench-scale-'));
const V2 = { pricing: 'rendered', mandatory_form: 'planned', required_missing: 'refuse' };

const parseOnly = path.join(work, 'parse-only.mjs');
fs.writeFileSync(
  parseOnly,
  `import fs from 'node:fs';
const [dir, request] = process.argv.slice(2);
for (const f of [request, 'candidates.json', 'policy.json']) JSON.parse(fs.readFileSync(dir + '/' + f, 'utf8'));
process.stderr.write('ctxbench-maxrss-kb ' + process.resourceUsage().maxRSS + '\\n');
`,
);

// The library on its own: parse, read the records, compile. No validation, no output.
const libraryOnly = path.join(work, 'library-only.mjs');
fs.writeFileSync(
  libraryOnly,
  `import fs from 'node:fs';
const { compileContext, readCandidate, readPolicy, readRequest } = await import(${JSON.stringify(path.join(root, 'dist/src/compiler/index.js'))});
const [dir, request, v2] = process.argv.slice(2);
const read = (f) => JSON.parse(fs.readFileSync(dir + '/' + f, 'utf8'));
const policy = { ...readPolicy(read('policy.json')), ...(v2 === 'v2' ? ${JSON.stringify(V2)} : {}) };
const out = compileContext(readRequest(read(request)), read('candidates.json').candidates.map(readCandidate), policy);
process.stderr.write('ctxbench-outcome ' + (out.bundle ? 'bundle' : 'refusal ' + out.result.failure.reason) + '\\n');
process.stderr.write('ctxbench-maxrss-kb ' + process.resourceUsage().maxRSS + '\\n');
`,
);

function timed(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    env: { ...process.env, CTXBENCH_REPORT_RSS: '1' },
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  const rss = Number(/ctxbench-maxrss-kb (\d+)/.exec(r.stderr)?.[1] ?? Number.NaN);
  const outcome = /ctxbench-outcome (.*)/.exec(r.stderr)?.[1];
  return { ms, rss, outcome };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const peak = (xs) => Math.round(Math.max(...xs.map((x) => x.rss)) / 1024);

process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
for (const n of sizes) {
  const dir = path.join(work, `pool-${n}`);
  const g = spawnSync(
    process.execPath,
    [bin, 'generate', '--seed', `scale-${n}`, '--candidates', String(n), '--out', dir],
    {
      encoding: 'utf8',
    },
  );
  if (g.status !== 0) throw new Error(g.stderr);
  const tight = Number(/tight (\d+)/.exec(g.stdout)?.[1]);
  const request = JSON.parse(fs.readFileSync(path.join(dir, 'request.json'), 'utf8'));
  fs.writeFileSync(
    path.join(dir, 'request-tight.json'),
    JSON.stringify({ ...request, usable_token_budget: tight }),
  );
  const mb = fs.statSync(path.join(dir, 'candidates.json')).size / 1e6;
  for (const [budget, file] of [
    ['medium', 'request.json'],
    ['tight', 'request-tight.json'],
  ]) {
    for (const strategy of ['compiler', 'compiler-v2']) {
      const parse = [];
      const library = [];
      const cli = [];
      let outcome;
      for (let k = 0; k < runs; k++) {
        parse.push(timed([parseOnly, dir, file]));
        const lib = timed([libraryOnly, dir, file, strategy === 'compiler-v2' ? 'v2' : 'reference']);
        outcome = lib.outcome;
        library.push(lib);
        const args = [
          'compile',
          '--strategy',
          strategy,
          '--request',
          `${dir}/${file}`,
          '--candidates',
          `${dir}/candidates.json`,
        ];
        cli.push(
          timed([bin, ...args, '--policy', `${dir}/policy.json`, '--output', path.join(work, 'out.json')]),
        );
      }
      const p = median(parse.map((x) => x.ms));
      const l = median(library.map((x) => x.ms));
      const c = median(cli.map((x) => x.ms));
      console.log(
        JSON.stringify({
          candidates: n,
          input_mb: +mb.toFixed(1),
          strategy,
          budget,
          outcome,
          parse_ms: Math.round(p),
          library_ms: Math.round(l),
          library_ratio: +(l / p).toFixed(2),
          cli_ms: Math.round(c),
          cli_ratio: +(c / p).toFixed(2),
          parse_rss_mb: peak(parse),
          library_rss_mb: peak(library),
          cli_rss_mb: peak(cli),
        }),
      );
    }
  }
}
console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, node ${process.version}`);
