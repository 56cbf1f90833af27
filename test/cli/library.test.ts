/**
 * The library as a user meets it: from a built copy of the package, linked into the
 * node_modules of a folder of its own, the example of docs/library.md compiles under the project's
 * strict settings and runs as written; `ctxbench` and `ctxbench/kit` resolve, types included; a
 * deep import is refused. The example's code is read from docs/library.md, so the two cannot
 * drift apart.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  compileContext,
  readCandidate,
  readPolicy,
  readRequest,
  renderBundleText,
} from '../../src/compiler/index.js';
import { ROOT } from '../helpers/corpus.js';
import { sharedProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('library');
// The copy the plug-in tests share: its extra strategies are nothing a library user imports.
const project = sharedProject(tmp);

const PAGE = 'docs/library.md';

/** The section of the page under a `## ` heading, up to the next heading of any level. */
function pageSection(heading: string): string {
  const text = fs.readFileSync(path.join(ROOT, PAGE), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${PAGE} has no section "${heading}"`);
  const rest = text.slice(start + heading.length + 5);
  const end = rest.search(/^#{1,6} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

const section = pageSection('An example');
const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
/** The command the page says writes the example's input files. */
const setup = /`npx ctxbench (generate [^`]+)`/.exec(section)?.[1] ?? '';

/** A folder outside the package whose node_modules holds it, as `npm install ctxbench` would. */
function consumer(name: string): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(project.dir, path.join(dir, 'node_modules/ctxbench'));
  // Only for `types: ["node"]`: the example runs on Node's own modules.
  fs.symlinkSync(path.join(ROOT, 'node_modules/@types'), path.join(dir, 'node_modules/@types'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  return dir;
}

/** Type-check and compile files of a consumer folder under the project's own compiler options. */
function tsc(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
  const config = {
    compilerOptions: { ...compilerOptions, noEmit: false, declaration: false, rootDir: '.', outDir: 'out' },
    files: Object.keys(files),
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(config));
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: r.status, output: r.stdout + r.stderr };
}

const node = (dir: string, file: string) => {
  const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** What the example must print: the same compilation, made here from the sources. */
function expected(dir: string): string {
  const json = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const file = json('case/candidates.json') as { candidates: unknown[] };
  const out = compileContext(
    readRequest(json('case/request.json')),
    file.candidates.map((c) => readCandidate(c)),
    readPolicy(json('case/policy.json')),
  );
  return out.bundle !== null
    ? `${format(renderBundleText(out.bundle), out.result.trace.entries.length)}\n`
    : `${format(out.result.failure.reason, out.result.failure.diagnostic)}\n`;
}

describe('the library example of docs/library.md', () => {
  it('the copy builds', () => {
    expect(project.build.status, project.build.output).toBe(0);
  });

  it('is found in docs/library.md, with the command that writes its inputs', () => {
    expect(example).toMatch(/compileContext\(/);
    expect(setup).toMatch(/^generate .*--out \S+$/);
  });

  it('imports only the package and Node built-ins', () => {
    const specifiers = [...example.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const s of specifiers) expect(s).toMatch(/^(ctxbench|ctxbench\/kit|node:[a-z_/]+)$/);
  });

  it('type-checks under the strict settings and prints the compilation, as written', () => {
    const dir = consumer('readme');
    const generated = project.bin(setup.split(' '), dir);
    expect(generated.status, generated.stderr).toBe(0);
    const built = tsc(dir, { 'example.ts': example });
    expect(built.status, built.output).toBe(0);
    const ran = node(dir, 'out/example.js');
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    expect(ran.stdout).toBe(expected(dir));
  });

  it('the example of issue 11 fails both checks, so this test can', () => {
    // Raw JSON into compileContext and a bundle used on `result.success`: what the README said.
    const old = `import { readFileSync } from 'node:fs';
import { compileContext, defaultPolicy, renderBundleText } from 'ctxbench';
const request = JSON.parse(readFileSync('case/request.json', 'utf8'));
const candidates = JSON.parse(readFileSync('case/candidates.json', 'utf8'));
const { bundle, result } = compileContext(request, candidates, defaultPolicy());
if (result.success) console.log(renderBundleText(bundle), result.trace.entries);
else console.log(result.failure.reason, result.failure.diagnostic);
`;
    const dir = consumer('issue-11');
    expect(project.bin(setup.split(' '), dir).status).toBe(0);
    const built = tsc(dir, { 'example.ts': old });
    expect(built.output).toMatch(/error TS2345: Argument of type 'ContextBundle \| null'/);
    const ran = node(dir, 'out/example.js');
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toMatch(/TypeError: .* is not iterable/);
  });
});

describe('the entry points', () => {
  it('package.json exports the compiler and the kit, nothing else', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(project.dir, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.exports)).toEqual(['.', './kit']);
    for (const entry of Object.values(pkg.exports) as Record<string, string>[]) {
      // `types` first: TypeScript takes the first condition that matches.
      expect(Object.keys(entry)).toEqual(['types', 'default']);
      for (const target of Object.values(entry))
        expect(fs.existsSync(path.join(project.dir, target))).toBe(true);
    }
  });

  it('ctxbench and ctxbench/kit resolve in Node; deep imports are refused', () => {
    const dir = consumer('exports');
    fs.writeFileSync(
      path.join(dir, 'probe.mjs'),
      `const tryImport = (s) => import(s).then((m) => Object.keys(m).sort(), (e) => e.code ?? String(e));
const out = {};
for (const s of ['ctxbench', 'ctxbench/kit', 'ctxbench/dist/src/harness/corpus/ledger.js',
  'ctxbench/dist/src/compiler/index.js', 'ctxbench/src/compiler/index.ts', 'ctxbench/package.json'])
  out[s] = await tryImport(s);
console.log(JSON.stringify(out));
`,
    );
    const r = node(dir, 'probe.mjs');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, string[] | string>;
    expect(out.ctxbench).toEqual(
      expect.arrayContaining(['compileContext', 'readCandidate', 'validateBundle']),
    );
    expect(out['ctxbench/kit']).toEqual(
      expect.arrayContaining(['compileContext', 'costOf', 'eligible', 'greedyFill', 'selectionTrace']),
    );
    // The compiler's API does not carry the harness: no loader, no kit.
    expect(out.ctxbench).not.toContain('greedyFill');
    for (const deep of [
      'ctxbench/dist/src/harness/corpus/ledger.js',
      'ctxbench/dist/src/compiler/index.js',
      'ctxbench/src/compiler/index.ts',
      'ctxbench/package.json',
    ])
      expect(out[deep], deep).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  it('both entries carry their types for NodeNext consumers; a deep import does not type-check', () => {
    const dir = consumer('types');
    const good = tsc(dir, {
      'strategy.ts': `import type { ContextCandidate } from 'ctxbench';
import { eligible, greedyFill, rankBy, type Strategy } from 'ctxbench/kit';

const mine: Strategy = {
  name: 'mine',
  description: 'eligible candidates by relevance, greedy fill',
  assemble(input) {
    const open: ContextCandidate[] = input.candidates.filter((c) => eligible(c));
    return { admitted: greedyFill(rankBy(open, (c) => c.relevance), input).map((c) => c.candidate_id) };
  },
};
export default mine;
`,
    });
    expect(good.status, good.output).toBe(0);
    const bad = tsc(dir, {
      'deep.ts': `import { readTruth } from 'ctxbench/dist/src/harness/corpus/ledger.js';\nexport default readTruth;\n`,
    });
    expect(bad.output).toMatch(/deep\.ts.*error TS2307/);
  });
});
