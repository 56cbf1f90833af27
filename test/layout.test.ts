/**
 * The layout's promises, checked on the source text: the compiler imports nothing outside
 * itself, strategies reach only the kit (and an engine), the hidden ledger stays hidden, no
 * import cycle exists between files (type-only imports included), every harness folder says what
 * it is for, commands do not import each other, tests enter through the doors as the code does
 * (a short list aside), and every section a comment cites exists.
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
import { newDir, tempDir } from './helpers/temp.js';

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
/** Data shipped beside a strategy, a part of it (`x.part.ts` of `x`), or the peer a `<peer>+gates` wraps. */
const besideIt = (strategy: string, target: string) => {
  const stem = (f: string) => path.basename(f).replace(/\.[^.]+$/, '');
  const [own, other] = [stem(strategy), stem(target)];
  return (
    path.dirname(target) === path.dirname(strategy) &&
    (target.endsWith('.json') || other.startsWith(`${own}.`) || own === `${other}+gates`)
  );
};

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
/** Where the checks' own fixtures are written. */
const scratch = tempDir('layout');
const strategyFiles = filesUnder(path.join(ROOT, 'strategies'));
const LEDGER = path.join(HARNESS, 'corpus/ledger.ts');
/** The harness's folders as the tree has them. */
const HARNESS_FOLDERS = fs
  .readdirSync(HARNESS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
/**
 * The packages the peers run (issue 20), bm25's analyzer (issue 35) and the tree-sitter runtime
 * aider-repomap's tags parse with (issue 36), pinned in package.json.
 */
const PEER_PACKAGES = [
  'web-tree-sitter',
  '@vscode/prompt-tsx',
  '@langchain/core',
  'graphology',
  'graphology-metrics',
  'stemmer',
  'unicode-default-word-boundary',
];

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
    '%s reaches no harness folder but the kit, no ledger code, and no file system',
    (_n, file) => {
      const reached = [...reach(file)];
      // Every folder of the harness but the kit, read from the tree, so no folder named here is gone.
      expect(HARNESS_FOLDERS).toContain('kit');
      for (const forbidden of HARNESS_FOLDERS.filter((f) => f !== 'kit'))
        expect(
          reached.filter((r) => r.startsWith(path.join(HARNESS, forbidden) + path.sep)).map(rel),
        ).toEqual([]);
      expect(reached.filter((r) => r.startsWith(path.join(SRC, 'cli')))).toEqual([]);
      // The compiler hashes with node:crypto; exact solves with HiGHS (WebAssembly, no I/O); the
      // peers of issue 20 run their upstream packages, and bm25 its analyzer's, which the
      // strategy's process may read. The grammars' loader finds their WebAssembly by module
      // resolution (node:module, node:path), which reads nothing itself.
      const allowed = (s: string) =>
        ['node:crypto', 'highs', 'node:module', 'node:path'].includes(s) ||
        PEER_PACKAGES.some((p) => s === p || s.startsWith(`${p}/`));
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
    const dir = newDir('cycle', scratch);
    fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
    fs.writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.js';\nexport type B = A;\n");
    expect(findCycle([path.join(dir, 'a.ts')])?.map((f) => path.basename(f))).toEqual([
      'a.ts',
      'b.ts',
      'a.ts',
    ]);
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

  it('no two modules of src/ share a file name, doors aside (a name means one thing)', () => {
    const byName = new Map<string, string[]>();
    for (const f of filesUnder(SRC).filter((f) => path.basename(f) !== 'index.ts'))
      byName.set(path.basename(f), [...(byName.get(path.basename(f)) ?? []), rel(f)]);
    expect([...byName.values()].filter((fs) => fs.length > 1)).toEqual([]);
  });

  it('no folder of src/ holds more than 25 files flat: a larger room is split by what it holds', () => {
    const folders = [
      SRC,
      ...fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' }).map((f) => path.join(SRC, f)),
    ].filter((d) => fs.statSync(d).isDirectory());
    const crowded = folders
      .map(
        (d) => [rel(d), fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isFile()).length] as const,
      )
      .filter(([, n]) => n > 25);
    expect(folders.length).toBeGreaterThan(20);
    expect(crowded).toEqual([]);
  });

  it('ingest starts no strategy process: nothing under ingest/ reaches hosts/, session/ or study/', () => {
    const reached = filesUnder(path.join(HARNESS, 'ingest')).flatMap((f) => [...reach(f)]);
    const above = ['hosts', 'session', 'study'].map((f) => path.join(HARNESS, f) + path.sep);
    expect(reached.length).toBeGreaterThan(30);
    expect([...new Set(reached.filter((r) => above.some((a) => r.startsWith(a))).map(rel))]).toEqual([]);
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
  'ingest',
  'report',
  'runfolder',
  'audit',
  'compare',
  'hosts',
  'session',
  'study',
  'generate',
  'pack',
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
    const harness = path.join(newDir('doors', scratch), 'harness');
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
  });
});

/** A file's lines: as `wc -l` counts them, and a last line without its newline too. */
const linesOf = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** A command is its options, one call and its printing: the work is the harness's. */
const MOST_COMMAND_LINES = 100;

/**
 * Every import from one front end into the other (src/cli and src/mcp), bar the one that starts
 * the server: the `mcp` command entering src/mcp through its index. One line each.
 */
function frontEndCrossings(src: string, files: readonly string[]): string[] {
  const [cli, mcp] = [path.join(src, 'cli'), path.join(src, 'mcp')];
  const starts = [path.join(cli, 'commands/mcp.ts'), path.join(mcp, 'index.ts')];
  const crossings: string[] = [];
  for (const file of files)
    for (const target of importsOf(file)) {
      const [from, to] = [file, target].map((f) =>
        f.startsWith(cli + path.sep) ? 'cli' : f.startsWith(mcp + path.sep) ? 'mcp' : null,
      );
      if (from === null || to === null || from === to) continue;
      if (file === starts[0] && target === starts[1]) continue;
      crossings.push(`${path.relative(src, file)} imports ${path.relative(src, target)}`);
    }
  return crossings;
}

describe('the CLI', () => {
  const commands = filesUnder(path.join(SRC, 'cli/commands'));

  it('has one module per command, and no command imports another', () => {
    expect(commands.length).toBeGreaterThanOrEqual(11);
    for (const file of commands)
      for (const target of importsOf(file))
        expect(path.dirname(target), `${rel(file)} imports ${rel(target)}`).not.toBe(path.dirname(file));
  });

  it(`keeps each command to ${MOST_COMMAND_LINES} lines: parse, one call, print`, () => {
    const long = commands
      .map((f) => [rel(f), linesOf(fs.readFileSync(f, 'utf8'))] as const)
      .filter(([, n]) => n > MOST_COMMAND_LINES);
    expect(long).toEqual([]);
  });

  it('counts lines as an editor numbers them', () => {
    expect([linesOf(''), linesOf('a\n'), linesOf('a\nb'), linesOf('a\nb\n')]).toEqual([0, 1, 2, 2]);
  });
});

describe('two front ends side by side', () => {
  const both = [...filesUnder(path.join(SRC, 'cli')), ...filesUnder(path.join(SRC, 'mcp'))];

  it('src/cli and src/mcp do not import each other, but for the mcp command starting the server', () => {
    expect(frontEndCrossings(SRC, both)).toEqual([]);
  });

  it('the check sees the one import it allows, and an import past the index or the other way', () => {
    const mcpCommand = path.join(SRC, 'cli/commands/mcp.ts');
    expect(importsOf(mcpCommand)).toContain(path.join(SRC, 'mcp/index.ts'));
    const dir = newDir('fronts', scratch);
    const src = path.join(dir, 'src');
    try {
      const files: Record<string, string> = {
        'cli/commands/mcp.ts': "import '../../mcp/index.js';\nimport '../../mcp/server.js';\n",
        'cli/commands/pack.ts': "import '../../mcp/index.js';\n",
        'mcp/index.ts': "import './server.js';\n",
        'mcp/server.ts': "import '../cli/io.js';\n",
        'cli/io.ts': '',
      };
      for (const [f, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(src, f)), { recursive: true });
        fs.writeFileSync(path.join(src, f), text);
      }
      const found = frontEndCrossings(
        src,
        Object.keys(files).map((f) => path.join(src, f)),
      );
      expect(found.sort()).toEqual([
        `${path.join('cli/commands/mcp.ts')} imports ${path.join('mcp/server.ts')}`,
        `${path.join('cli/commands/pack.ts')} imports ${path.join('mcp/index.ts')}`,
        `${path.join('mcp/server.ts')} imports ${path.join('cli/io.ts')}`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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

/**
 * Where a test may see inside a folder of src/, each with why; every other import of a test
 * enters through the doors (a harness folder's index.ts, src/compiler/index.ts, src/mcp/index.ts,
 * the CLI's `run` and its I/O), and test/helpers/, the tests' own adapter, may reach inside.
 *
 * OWN_UNITS: a folder's own unit tests (test/<folder>/, mirroring src/<folder>/) may see inside
 * that folder alone, for the units of its private algorithms, one at a time.
 */
const OWN_UNITS: Readonly<Record<string, string>> = {
  'harness/ingest': 'git plumbing, gitignore rules, outlines, imports, relevance and case selection',
  'harness/corpus': "each record's lint, the schemas held against it, the tokenizer's long-run cuts",
  'harness/study': 'the matrix and its re-check, shards',
  'harness/hosts': 'the registry, printed output, links, grants, the cut of texts',
  'harness/pack': 'its working tree listed beside git',
  'harness/report': 'the grid, HTML escaping, text tables, localization, survey rates, the README headline',
  'harness/metrics': "McNemar's test, common prefixes, the catalogue's tables",
  'harness/output': 'the background writer, line files, durations',
  'harness/bench': 'one pair of processes measured',
  'harness/runfolder': "a folder's digest under limits small enough to reach",
  mcp: "the head of a message too long to keep, and the runners' queue",
};

/** Tests outside a folder's own that see inside it: the file, the folders, and why. */
const SEES_INSIDE: Readonly<Record<string, { readonly folders: readonly string[]; readonly why: string }>> = {
  'test/compiler/overhead-tokenizer.test.ts': {
    folders: ['harness/corpus'],
    why: "the harness's real counters registered again after a fake one",
  },
  'test/harness/frame.test.ts': {
    folders: ['harness/audit'],
    why: "the frame check's own lines, on every forged content (docs/reliability.md figures)",
  },
  'test/harness/audit/compare.test.ts': {
    folders: ['harness/compare'],
    why: 'two rows compared field by field',
  },
  'test/harness/hosts/registry.test.ts': {
    folders: ['harness/session'],
    why: "a strategy's answer measured as the study measures it, for the registry's own strategies",
  },
  'test/harness/pack/ignore-rules.test.ts': {
    folders: ['harness/ingest'],
    why: "the gitignore matcher's own automaton, beside pack's listing of a working tree",
  },
  'test/harness/study/groups.test.ts': {
    folders: ['harness/hosts'],
    why: 'the registry order the study runs its strategies in',
  },
  'test/harness/study/layout-own.test.ts': {
    folders: ['harness/session'],
    why: "one compilation's answer measured as compile measures it, beside the study's",
  },
  'test/harness/study/texts.test.ts': {
    folders: ['harness/hosts', 'harness/session'],
    why: "a strategy's texts cut where they enter, measured as the study measures them",
  },
  'test/harness/audit/extras.test.ts': {
    folders: ['harness/audit', 'harness/study'],
    why: "extras derived without waiting for the exact engine, and every cell checked again by the run folder's cell check",
  },
  'test/cli/pack-cache.test.ts': {
    folders: ['harness/pack'],
    why: "pack's cache opened directly: its bound over many packs, and entries signed with its own key but of the wrong shapes",
  },
  'test/cli/pack-cache-trust.test.ts': {
    folders: ['harness/pack'],
    why: "pack's cache opened directly: links planted where it and its key write, the user's key read to forge with",
  },
  'test/cli/pack-cache-routes.test.ts': {
    folders: ['harness/pack'],
    why: "pack's cache opened directly: the user's key read to forge as another machine would, packs that all read the folder before any writes, leftovers of killed packs against its bound",
  },
  'test/cli/ingest-swe-bench.test.ts': {
    folders: ['harness/ingest'],
    why: 'the size below which a content stays inline in its candidate line',
  },
  'test/harness/metrics/catalogue.test.ts': {
    folders: ['harness/compare'],
    why: "the headers of compare's table, taken from the catalogue",
  },
  'test/harness/metrics/ranges.test.ts': {
    folders: ['harness/generate'],
    why: 'generated corpora written as `generate` writes them, every row held to its range',
  },
  'test/harness/report/survey.test.ts': {
    folders: ['harness/metrics'],
    why: "the Wilson interval worked out by hand, beneath the survey's rates",
  },
  'test/harness/report/labels.test.ts': {
    folders: ['harness/metrics'],
    why: "the catalogue's own label lists, against every report module's source",
  },
  'test/strategies/bm25-analyzer.test.ts': {
    folders: ['harness/kit'],
    why: "bm25's analyzer, piece by piece, against Lucene's",
  },
  'test/harness/report/swe-bench.test.ts': {
    folders: ['harness/runfolder'],
    why: 'reports derived from the committed rows with the committed prefix figures',
  },
  'test/harness/report/real-data.test.ts': {
    folders: ['harness/ingest', 'harness/runfolder'],
    why: "the page's stated model against the committed one, and reports derived with the committed prefix figures",
  },
  'test/strategies/compiler-ingested.test.ts': {
    folders: ['harness/ingest'],
    why: "the compilers on a pool ingest builds in this thread, and the policy's floor against the committed model's",
  },
  'test/strategies/exact-held-levels.test.ts': {
    folders: ['harness/kit'],
    why: "the integer program's levels with the solver made to say infeasible",
  },
  'test/strategies/exact-ilp.test.ts': {
    folders: ['harness/kit'],
    why: "the integer program's cost terms against the ruler's price",
  },
  'test/strategies/highs-remembered.test.ts': {
    folders: ['harness/kit'],
    why: 'the solves HiGHS remembers, given again only where they would end the same',
  },
};

/** The CLI's door: `run`, what bin/ctxbench.js calls, and the I/O and exit codes it takes. */
const CLI_DOORS = ['main.ts', 'io.ts'];

/** The folder of src/ an import enters (`harness/<f>`, `compiler`, `mcp`, `cli`) and its doors; null for the harness's root modules. */
function doorOf(target: string, src: string): { readonly folder: string; readonly doors: string[] } | null {
  const parts = path.relative(src, target).split(path.sep);
  const [top, sub] = parts;
  if (parts.length < 2 || top === '..') return null;
  if (top === 'harness')
    return parts.length > 2
      ? { folder: `harness/${sub}`, doors: [path.join(src, 'harness', sub as string, 'index.ts')] }
      : null;
  const doors = top === 'cli' ? CLI_DOORS : ['index.ts'];
  return { folder: top as string, doors: doors.map((d) => path.join(src, top as string, d)) };
}

/** Each import of a test (test/helpers/ aside) that passes a door the lists do not open: one line each. */
function testDoorProblems(
  tests: string,
  src: string,
  own: Readonly<Record<string, unknown>>,
  inside: Readonly<Record<string, { readonly folders: readonly string[] }>>,
): string[] {
  const problems: string[] = [];
  for (const file of filesUnder(tests)) {
    const name = path.relative(path.dirname(tests), file).split(path.sep).join('/');
    if (name.startsWith('test/helpers/')) continue;
    for (const target of importsOf(file)) {
      const door = doorOf(target, src);
      if (door === null || door.doors.includes(target)) continue;
      if (door.folder in own && name.startsWith(`test/${door.folder}/`)) continue;
      if (inside[name]?.folders.includes(door.folder)) continue;
      problems.push(
        `${name} imports ${path.relative(path.dirname(src), target)} past ${path.relative(path.dirname(src), door.doors[0] as string)}`,
      );
    }
  }
  return problems;
}

describe('tests enter through the doors too', () => {
  const TESTS = path.join(ROOT, 'test');

  it('no test but the helpers imports past a door the lists above do not open', () => {
    expect(testDoorProblems(TESTS, SRC, OWN_UNITS, SEES_INSIDE)).toEqual([]);
  });

  it('every entry of the lists is still needed', () => {
    for (const folder of Object.keys(OWN_UNITS)) {
      const without = Object.fromEntries(Object.entries(OWN_UNITS).filter(([f]) => f !== folder));
      expect(testDoorProblems(TESTS, SRC, without, SEES_INSIDE).length, folder).toBeGreaterThan(0);
    }
    for (const [file, { folders }] of Object.entries(SEES_INSIDE))
      for (const folder of folders) {
        const narrowed = { ...SEES_INSIDE, [file]: { folders: folders.filter((f) => f !== folder) } };
        const found = testDoorProblems(TESTS, SRC, OWN_UNITS, narrowed);
        expect(
          found.some((p) => p.startsWith(`${file} imports src/${folder}/`)),
          `${file}: ${folder}`,
        ).toBe(true);
      }
  });

  it('the check names the file and the import, and honours both lists', () => {
    const root = newDir('test-doors', scratch);
    const write = (f: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), text);
    };
    for (const f of [
      'harness/low/index.ts',
      'harness/low/inner.ts',
      'harness/types.ts',
      'mcp/index.ts',
      'mcp/head.ts',
      'cli/main.ts',
      'cli/commands/x.ts',
    ])
      write(`src/${f}`, 'export const x = 1;\n');
    const imports = (...specs: string[]) => specs.map((s) => `import { x } from '${s}';\n`).join('');
    write(
      'test/a.test.ts',
      imports(
        '../src/harness/low/inner.js',
        '../src/harness/low/index.js',
        '../src/harness/types.js',
        '../src/cli/main.js',
        '../src/cli/commands/x.js',
      ),
    );
    write(
      'test/harness/low/own.test.ts',
      imports('../../../src/harness/low/inner.js', '../../../src/mcp/head.js'),
    );
    write('test/listed.test.ts', imports('../src/mcp/head.js'));
    write('test/helpers/h.ts', imports('../../src/harness/low/inner.js'));
    const tests = path.join(root, 'test');
    const src = path.join(root, 'src');
    expect(testDoorProblems(tests, src, {}, {}).sort()).toEqual([
      'test/a.test.ts imports src/cli/commands/x.ts past src/cli/main.ts',
      'test/a.test.ts imports src/harness/low/inner.ts past src/harness/low/index.ts',
      'test/harness/low/own.test.ts imports src/harness/low/inner.ts past src/harness/low/index.ts',
      'test/harness/low/own.test.ts imports src/mcp/head.ts past src/mcp/index.ts',
      'test/listed.test.ts imports src/mcp/head.ts past src/mcp/index.ts',
    ]);
    const listed = { 'test/listed.test.ts': { folders: ['mcp'] } };
    expect(testDoorProblems(tests, src, { 'harness/low': '' }, listed).sort()).toEqual([
      'test/a.test.ts imports src/cli/commands/x.ts past src/cli/main.ts',
      'test/a.test.ts imports src/harness/low/inner.ts past src/harness/low/index.ts',
      'test/harness/low/own.test.ts imports src/mcp/head.ts past src/mcp/index.ts',
    ]);
  });
});
