/**
 * The layout's promises, checked on the source text: the compiler imports nothing outside
 * itself, strategies reach only the kit (and an engine), the hidden ledger stays hidden, no
 * import cycle exists between files (type-only imports included), every harness folder says what
 * it is for, commands do not import each other, and every section a comment cites exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FAILURE_REASONS,
  GATE_CODES,
  GREEDY_CLASSES,
  REQUIRED_MISSING_MODES,
  REQUIREMENT_CLASSES,
  TRACE_DECISIONS,
} from '../src/compiler/index.js';
import { BUDGETS, EVAL_CLASSES, PUBLISHED_ORDER, VIOLATION_KINDS } from '../src/harness/vocabulary.js';
import { ROOT } from './helpers/corpus.js';

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;
const SRC = path.join(ROOT, 'src');
const HARNESS = path.join(SRC, 'harness');
const COMPILER = path.join(SRC, 'compiler');

/** Every .ts file under a folder. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f))
    .sort();

/** The project files a module imports directly (`.js` specifiers map to `.ts`; JSON data stays). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (!spec?.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
    if (fs.existsSync(target)) out.push(target);
  }
  return out;
}

/** Constant data a strategy may ship beside it (the weighted packer's weights). */
const besideIt = (strategy: string, target: string) =>
  target.endsWith('.json') && path.dirname(target) === path.dirname(strategy);

/** Every project file a module reaches through relative imports. */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const target of importsOf(file)) reach(target, seen);
  return seen;
}

/** Bare (package or node:) imports of a set of files. */
const externals = (files: Iterable<string>) =>
  [...files]
    .flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(IMPORT)].map((m) => m[1] as string))
    .filter((s) => !s.startsWith('.'));

const rel = (f: string) => path.relative(ROOT, f);
const strategyFiles = filesUnder(path.join(ROOT, 'strategies'));
const LEDGER = path.join(HARNESS, 'corpus/ledger.ts');
/** The packages the peers run (issue 20), pinned in package.json. */
const PEER_PACKAGES = ['@vscode/prompt-tsx', '@langchain/core', 'graphology', 'graphology-metrics'];

describe('strategies reach only the plug-in kit', () => {
  const door = path.join(HARNESS, 'kit/index.ts');
  it.each(strategyFiles.map((f) => [path.basename(f), f]))(
    "%s imports the kit's index, nothing else",
    (_n, file) => {
      for (const target of importsOf(file))
        expect(besideIt(file, target) || target === door, rel(target)).toBe(true);
    },
  );

  it.each(strategyFiles.map((f) => [path.basename(f), f]))(
    '%s reaches no loader, run, output or ledger code, and no file system',
    (_n, file) => {
      const reached = [...reach(file)];
      for (const forbidden of ['input', 'run', 'output', 'report', 'checks', 'generate', 'bench', 'score'])
        expect(
          reached.filter((r) => r.startsWith(path.join(HARNESS, forbidden) + path.sep)).map(rel),
        ).toEqual([]);
      expect(reached.filter((r) => r.startsWith(path.join(SRC, 'cli')))).toEqual([]);
      // The compiler hashes with node:crypto; exact solves with HiGHS (WebAssembly, no I/O); the
      // peers of issue 20 run their upstream packages, which the strategy's process may read.
      const allowed = (s: string) =>
        s === 'node:crypto' || s === 'highs' || PEER_PACKAGES.some((p) => s === p || s.startsWith(`${p}/`));
      expect(externals(reached).filter((s) => !allowed(s))).toEqual([]);
    },
  );

  it('the oracle reads the ledger only as its input, like every other strategy', () => {
    for (const file of strategyFiles) expect([...reach(file)], path.basename(file)).not.toContain(LEDGER);
  });

  it('the import scan does find the ledger where it is imported', () => {
    expect([...reach(path.join(HARNESS, 'study/index.ts'))]).toContain(LEDGER);
    expect([...reach(path.join(SRC, 'cli/commands/study.ts'))]).toContain(LEDGER);
  });
});

describe('the compiler core imports nothing outside itself', () => {
  const files = filesUnder(COMPILER);

  it('reaches only its own folder and Node built-ins', () => {
    for (const f of files)
      for (const r of reach(f)) expect(r.startsWith(COMPILER + path.sep), rel(r)).toBe(true);
    for (const spec of externals(files)) expect(spec.startsWith('node:'), spec).toBe(true);
  });

  it('knows no evaluation vocabulary', () => {
    const text = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    for (const token of ['eval_class', 'oracle_', 'DISTRACTOR', 'HARMFUL', 'ledger'])
      expect(text).not.toContain(token);
  });
});

describe('one source for each vocabulary', () => {
  const lists: Record<string, readonly string[]> = {
    REQUIREMENT_CLASSES,
    TRACE_DECISIONS,
    FAILURE_REASONS,
    GATE_CODES,
    REQUIRED_MISSING_MODES,
    GREEDY_CLASSES,
    BUDGETS,
    EVAL_CLASSES,
    VIOLATION_KINDS,
    PUBLISHED_ORDER,
  };
  const sources = [...filesUnder(SRC), ...strategyFiles].filter((f) => !f.endsWith('vocabulary.ts'));

  it.each(Object.entries(lists))('%s is spelt out only in a vocabulary module', (_name, words) => {
    // Three neighbours of a list (two in a list of two), quoted and joined as a union or an
    // array would join them. A sampling table that repeats words is data, not a word list.
    const run = Math.min(3, words.length);
    const pairs = words.slice(0, words.length - run + 1).map(
      (_, k) =>
        new RegExp(
          words
            .slice(k, k + run)
            .map((w) => `'${w}'`)
            .join('\\s*[|,]\\s*'),
        ),
    );
    for (const f of sources) {
      const text = fs.readFileSync(f, 'utf8');
      for (const pair of pairs) expect(text, rel(f)).not.toMatch(pair);
    }
  });

  it('the check sees a list spelt out again', () => {
    expect("type X = 'MANDATORY' | 'REQUIRED';").toMatch(/'MANDATORY'\s*[|,]\s*'REQUIRED'/);
  });
});

/** The first cycle found in the import graph of these files, or null. */
function findCycle(files: readonly string[]): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null;
    if (state.get(f) === 'open') return [...stack.slice(stack.indexOf(f)), f];
    state.set(f, 'open');
    stack.push(f);
    for (const t of importsOf(f)) {
      const cycle = visit(t);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(f, 'done');
    return null;
  };
  for (const f of files) {
    const cycle = visit(f);
    if (cycle) return cycle;
  }
  return null;
}

describe('no import cycles', () => {
  it('between any two files of src/ and strategies/, type-only imports included', () => {
    const cycle = findCycle([...filesUnder(SRC), ...strategyFiles]);
    expect(cycle?.map(rel) ?? null).toBeNull();
  });

  it('the cycle finder finds a cycle where there is one', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.cycle-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.js';\nexport type B = A;\n");
      expect(findCycle([path.join(dir, 'a.ts')])?.map((f) => path.basename(f))).toEqual([
        'a.ts',
        'b.ts',
        'a.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the harness in folders by concern', () => {
  const folders = fs
    .readdirSync(HARNESS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  it('has the folders a newcomer looks for', () => {
    expect(folders.sort()).toEqual([...ORDER].sort());
  });

  it.each(folders)('%s/index.ts opens with a one-line purpose and names what it exports', (folder) => {
    const text = fs.readFileSync(path.join(HARNESS, folder, 'index.ts'), 'utf8');
    expect(text.split('\n')[0]).toMatch(/^\/\*\* [A-Z][^*]+\. \*\/$/);
    expect(text).not.toMatch(/export \*/);
  });

  it('only index files and modules of one concern: no module over 300 lines', () => {
    const long = [...filesUnder(SRC), ...strategyFiles]
      .map((f) => [rel(f), fs.readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([, n]) => n > 300);
    expect(long).toEqual([]);
  });
});

/** Lowest first: a harness folder imports only folders before it in this list. */
const ORDER = [
  'kit',
  'corpus',
  'metrics',
  'output',
  'report',
  'runfolder',
  'audit',
  'compare',
  'study',
  'generate',
  'ingest',
  'bench',
];

/** The harness folder a file lies in, or null (a root module of the harness, or outside it). */
function folderOf(file: string, harness: string): string | null {
  const parts = path.relative(harness, file).split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? (parts[0] as string) : null;
}

/**
 * Every import that enters another harness folder past its index.ts, reaches into the compiler
 * past its index, or climbs the folder order: one line each.
 */
function doorProblems(files: readonly string[], harness: string, order: readonly string[]): string[] {
  const problems: string[] = [];
  const compiler = path.join(path.dirname(harness), 'compiler');
  for (const file of files) {
    const own = folderOf(file, harness);
    for (const target of importsOf(file)) {
      // The one exception: the errors every command can raise are built at start-up, before
      // the compiler's stages load, so they quote through its JSON module alone.
      const early = file === path.join(harness, 'errors.ts');
      if (target.startsWith(compiler + path.sep) && target !== path.join(compiler, 'index.ts') && !early)
        problems.push(`${rel(file)} imports ${rel(target)} past the compiler's index`);
      const folder = folderOf(target, harness);
      if (folder === null || folder === own) continue;
      if (target !== path.join(harness, folder, 'index.ts'))
        problems.push(`${rel(file)} imports ${rel(target)} past ${folder}/index.ts`);
      if (own !== null && order.indexOf(folder) >= order.indexOf(own))
        problems.push(`${rel(file)}: ${own} imports ${folder}, which does not come before it`);
    }
  }
  return problems;
}

/** The names each import statement of `files` takes from `index`. */
function namesTakenFrom(index: string, files: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const file of files)
    for (const [, list, spec] of fs
      .readFileSync(file, 'utf8')
      .matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g))
      if (path.resolve(path.dirname(file), spec as string).replace(/\.js$/, '.ts') === index)
        for (const name of (list as string).split(',')) names.add(bareName(name));
  return names;
}

const bareName = (item: string) =>
  item
    .trim()
    .replace(/^type\s+/, '')
    .split(/\s+as\s+/)[0] as string;

describe('each harness folder is entered through its index, in one direction', () => {
  const code = [
    ...filesUnder(HARNESS),
    ...filesUnder(path.join(SRC, 'cli')),
    ...filesUnder(path.join(SRC, 'mcp')),
  ];

  it('docs/development.md gives this order, and names every folder in its layout', () => {
    const page = fs.readFileSync(path.join(ROOT, 'docs/development.md'), 'utf8');
    expect(page).toContain(`\n${ORDER.join('  <  ')}\n`);
    const layout = page.slice(page.indexOf('src/harness/ '), page.indexOf('src/cli/ '));
    expect(ORDER.filter((f) => !layout.includes(`\n  ${f}/ `))).toEqual([]);
  });

  it('the order names every folder once', () => {
    const folders = fs
      .readdirSync(HARNESS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect([...ORDER].sort()).toEqual(folders.sort());
  });

  it("no import of the harness or the CLI passes a folder's index or climbs the order", () => {
    expect(doorProblems(code, HARNESS, ORDER)).toEqual([]);
  });

  it.each(ORDER.filter((f) => f !== 'kit'))(
    '%s/index.ts exports only what another folder or the CLI imports',
    (folder) => {
      const index = path.join(HARNESS, folder, 'index.ts');
      const outside = code.filter((f) => !f.startsWith(path.join(HARNESS, folder) + path.sep));
      const taken = namesTakenFrom(index, outside);
      const exported = [...fs.readFileSync(index, 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)]
        .flatMap((m) => (m[1] as string).split(','))
        .map(bareName)
        .filter((n) => n !== '');
      expect(exported.length).toBeGreaterThan(0);
      expect(exported.filter((n) => !taken.has(n))).toEqual([]);
    },
  );

  it('the check sees an import past an index and one that climbs the order', () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'test', '.doors-'));
    const harness = path.join(dir, 'harness');
    try {
      for (const f of ['low/index.ts', 'low/inner.ts', 'high/index.ts', 'high/a.ts'])
        fs.mkdirSync(path.dirname(path.join(harness, f)), { recursive: true });
      fs.writeFileSync(path.join(harness, 'low/inner.ts'), 'export const x = 1;\n');
      fs.writeFileSync(path.join(harness, 'low/index.ts'), "import '../high/index.js';\n");
      fs.writeFileSync(path.join(harness, 'high/index.ts'), 'export const y = 2;\n');
      fs.writeFileSync(path.join(harness, 'high/a.ts'), "import { x } from '../low/inner.js';\n");
      const files = ['low/index.ts', 'high/a.ts'].map((f) => path.join(harness, f));
      const found = doorProblems(files, harness, ['low', 'high']);
      expect(found.some((p) => p.includes('past low/index.ts'))).toBe(true);
      expect(found.some((p) => p.includes('low imports high'))).toBe(true);
      expect(found).toHaveLength(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the CLI', () => {
  const commands = filesUnder(path.join(SRC, 'cli/commands'));

  it('has one module per command, and no command imports another', () => {
    expect(commands.length).toBeGreaterThanOrEqual(11);
    for (const file of commands)
      for (const target of importsOf(file))
        expect(path.dirname(target), `${rel(file)} imports ${rel(target)}`).not.toBe(path.dirname(file));
  });
});

describe('comments cite documents the repository holds', () => {
  const docs = fs.readFileSync(path.join(ROOT, 'docs/compiler.md'), 'utf8');
  const sections = new Set([...docs.matchAll(/^#{2,3} §(\d+(?:\.\d+)?) /gm)].map((m) => m[1]));
  const code = [...filesUnder(SRC), ...strategyFiles, ...filesUnder(path.join(ROOT, 'test'))];

  it('no comment or document cites the external specification', () => {
    const docs = ['README.md', 'docs/compiler.md', 'docs/adding-a-strategy.md'].map((f) =>
      path.join(ROOT, f),
    );
    const citing = [...code, ...docs].filter((f) =>
      /spec\/(compiler|study|harness)\.md/.test(fs.readFileSync(f, 'utf8')),
    );
    expect(citing.map(rel)).toEqual([]);
  });

  it('every docs/compiler.md section a comment cites exists', () => {
    expect(sections.size).toBeGreaterThan(15);
    for (const f of code) {
      for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
        if (!line.includes('docs/compiler.md') && !line.includes('§')) continue;
        for (const [, n] of line.matchAll(/§(\d+(?:\.\d+)?)/g))
          expect(sections.has(n as string), `${rel(f)}: §${n}`).toBe(true);
      }
    }
  });
});
