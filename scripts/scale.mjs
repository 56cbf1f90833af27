#!/usr/bin/env node
// The scale goals of issue 5, measured as whole processes side by side on the same generated
// files: a bare `node` process that only JSON-parses the input files, against `ctxbench compile`
// on them (parse, read, compile, validate, write the result). Alternating runs, medians, peak
// memory of each process. Usage: node scripts/scale.mjs [sizes=10000,100000] [runs=3]
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
const parseOnly = path.join(work, 'parse-only.mjs');
fs.writeFileSync(
  parseOnly,
  `import fs from 'node:fs';
for (const f of ['request.json', 'candidates.json', 'policy.json']) JSON.parse(fs.readFileSync(process.argv[2] + '/' + f, 'utf8'));
process.stderr.write('ctxbench-maxrss-kb ' + process.resourceUsage().maxRSS + '\\n');
`,
);

// The library on its own: parse, read the records, compile. No validation, no output.
const libraryOnly = path.join(work, 'library-only.mjs');
fs.writeFileSync(
  libraryOnly,
  `import fs from 'node:fs';
const { compileContext, readCandidate, readPolicy, readRequest } = await import(${JSON.stringify(path.join(root, 'dist/src/compiler/index.js'))});
const read = (f) => JSON.parse(fs.readFileSync(process.argv[2] + '/' + f, 'utf8'));
const out = compileContext(readRequest(read('request.json')), read('candidates.json').candidates.map(readCandidate), readPolicy(read('policy.json')));
if (out.result.trace.entries.length === 0) process.exit(3);
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
  return { ms, rss };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const results = [];
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
for (const n of sizes) {
  const dir = path.join(work, `pool-${n}`);
  const g = spawnSync(
    process.execPath,
    [bin, 'generate', '--seed', `scale-${n}`, '--candidates', String(n), '--out', dir],
    { encoding: 'utf8' },
  );
  if (g.status !== 0) throw new Error(g.stderr);
  const mb = fs.statSync(path.join(dir, 'candidates.json')).size / 1e6;
  const parse = [];
  const library = [];
  const compile = [];
  for (let k = 0; k < runs; k++) {
    parse.push(timed([parseOnly, dir]));
    library.push(timed([libraryOnly, dir]));
    compile.push(
      timed([
        bin,
        'compile',
        '--request',
        `${dir}/request.json`,
        '--candidates',
        `${dir}/candidates.json`,
        '--policy',
        `${dir}/policy.json`,
        '--output',
        path.join(work, 'out.json'),
      ]),
    );
  }
  const p = median(parse.map((x) => x.ms));
  const l = median(library.map((x) => x.ms));
  const c = median(compile.map((x) => x.ms));
  const peak = (xs) => Math.round(Math.max(...xs.map((x) => x.rss)) / 1024);
  results.push({
    candidates: n,
    input_mb: +mb.toFixed(1),
    parse_ms: Math.round(p),
    library_ms: Math.round(l),
    library_ratio: +(l / p).toFixed(2),
    compile_ms: Math.round(c),
    ratio: +(c / p).toFixed(2),
    parse_rss_mb: peak(parse),
    library_rss_mb: peak(library),
    compile_rss_mb: peak(compile),
  });
  console.log(JSON.stringify(results.at(-1)));
}
const [a, b] = [results.find((r) => r.candidates === 10000), results.find((r) => r.candidates === 100000)];
if (a && b) {
  console.log(
    `growth 10,000 -> 100,000 candidates: CLI ${(b.compile_ms / a.compile_ms).toFixed(1)}x, library ${(b.library_ms / a.library_ms).toFixed(1)}x`,
  );
}
console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, node ${process.version}`);
