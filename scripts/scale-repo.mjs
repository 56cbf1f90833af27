#!/usr/bin/env node
// A synthetic git repository for timing `ctxbench ingest` at scale: N files (TypeScript, Python,
// Go, Rust and Markdown, 1-20 KB each, importing one another) and M commits, most of them a
// change to 1-6 source files (so that a few hundred are eligible cases), some adding files, some
// merges of a side branch, some dependency bumps and documentation edits. The same arguments give
// the same repository, byte for byte and commit id for commit id: the randomness is seeded
// (seedrandom, the seed printed) and every date is fixed. The history is written by one
// `git fast-import` process: one `git commit` per commit would take minutes.
// Usage: node scripts/scale-repo.mjs <dir> [files=2000] [commits=600] [seed=scale-repo]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import seedrandom from 'seedrandom';

const [dir, filesArg = '2000', commitsArg = '600', seed = 'scale-repo'] = process.argv.slice(2);
const FILES = Number(filesArg);
const COMMITS = Number(commitsArg);
if (
  dir === undefined ||
  !Number.isInteger(FILES) ||
  FILES < 10 ||
  !Number.isInteger(COMMITS) ||
  COMMITS < 2
) {
  process.stderr.write('usage: node scripts/scale-repo.mjs <dir> [files>=10] [commits>=2] [seed]\n');
  process.exit(2);
}
if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
  process.stderr.write(`scale-repo: ${dir} is not empty\n`);
  process.exit(2);
}
process.stderr.write(`scale-repo: ${FILES} files, ${COMMITS} commits, seed ${JSON.stringify(seed)}\n`);

const rng = seedrandom(seed);
const int = (lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
const pick = (xs) => xs[Math.floor(rng() * xs.length)];
const chance = (p) => rng() < p;

const WORDS = (
  'account address agent alert archive audit batch bucket buffer cache channel chunk client cluster ' +
  'config context cursor digest domain draft entry event export feature fetch filter flag frame graph ' +
  'group handler header index invoice item job journal kernel key label layer ledger limit link list ' +
  'loader lock log manifest mapper message metric mirror module node notice offset order owner packet ' +
  'page parser patch path payload peer plan policy pool port profile queue quota range reader record ' +
  'region registry report request resolver route rule schema scope segment session shard signal ' +
  'snapshot source span stage state store stream table tag task tenant thread ticket token trace ' +
  'tracker update upload user vault version view window worker writer zone'
).split(' ');
const VERBS =
  'build check clear close collect compute create decode encode fetch find flush format handle load merge normalize open parse prune read refresh render reset resolve retry save scan send sort split sync validate write'.split(
    ' ',
  );
const cap = (w) => w[0].toUpperCase() + w.slice(1);
const camel = () => `${pick(VERBS)}${cap(pick(WORDS))}${chance(0.4) ? cap(pick(WORDS)) : ''}`;
const snake = () => `${pick(VERBS)}_${pick(WORDS)}${chance(0.4) ? `_${pick(WORDS)}` : ''}`;
const typeName = () => `${cap(pick(WORDS))}${cap(pick(WORDS))}`;
const sentence = (n) => {
  const ws = Array.from({ length: n }, () => pick(WORDS));
  return `${cap(ws.join(' '))}.`;
};

// One block of code (a function, a type), the unit a change rewrites.
const BLOCK = {
  ts() {
    const name = camel();
    const lines = [
      `/** ${sentence(int(5, 12))} */`,
      `export function ${name}(input: ${typeName()}, limit = ${int(1, 500)}): number {`,
    ];
    for (let i = int(4, 24); i > 0; i--)
      lines.push(
        pick([
          `  const ${pick(WORDS)}${i} = input.${pick(WORDS)}.filter((x) => x.${pick(WORDS)} > limit);`,
          `  if (input.${pick(WORDS)} === undefined) return ${int(0, 9)};`,
          `  for (const ${pick(WORDS)} of input.${pick(WORDS)}s) total += ${pick(WORDS)}.size;`,
          `  // ${sentence(int(4, 10))}`,
          `  total = Math.max(total, input.${pick(WORDS)}?.length ?? 0);`,
        ]),
      );
    lines.push('  return total;', '}');
    if (chance(0.3))
      lines.push(
        '',
        `export interface ${typeName()} {`,
        ...Array.from(
          { length: int(2, 8) },
          () => `  readonly ${pick(WORDS)}: ${pick(['string', 'number', 'boolean', 'string[]'])};`,
        ),
        '}',
      );
    return lines.join('\n');
  },
  py() {
    const lines = chance(0.3) ? [`class ${typeName()}:`, `    """${sentence(int(5, 12))}"""`, ''] : [];
    const indent = lines.length > 0 ? '    ' : '';
    lines.push(
      `${indent}def ${snake()}(${indent === '' ? '' : 'self, '}${pick(WORDS)}, limit=${int(1, 500)}):`,
      `${indent}    """${sentence(int(5, 12))}"""`,
      `${indent}    total = 0`,
    );
    for (let i = int(4, 24); i > 0; i--)
      lines.push(
        `${indent}    ${pick([
          `for ${pick(WORDS)} in ${pick(WORDS)}s: total += len(${pick(WORDS)})`,
          `if ${pick(WORDS)} is None: return ${int(0, 9)}`,
          `# ${sentence(int(4, 10))}`,
          `total = max(total, ${int(0, 99)})`,
        ])}`,
      );
    lines.push(`${indent}    return total`);
    return lines.join('\n');
  },
  go() {
    const t = typeName();
    const lines = [`// ${t} ${sentence(int(5, 12)).toLowerCase()}`, `type ${t} struct {`];
    for (let i = int(2, 6); i > 0; i--)
      lines.push(`\t${cap(pick(WORDS))} ${pick(['string', 'int', 'bool', '[]byte'])}`);
    lines.push(
      '}',
      '',
      `// ${cap(camel())} ${sentence(int(4, 10)).toLowerCase()}`,
      `func (x *${t}) ${cap(camel())}(limit int) (int, error) {`,
      '\ttotal := 0',
    );
    for (let i = int(4, 24); i > 0; i--)
      lines.push(
        `\t${pick([
          `if x == nil { return ${int(0, 9)}, nil }`,
          `total += len(x.${cap(pick(WORDS))}) // ${pick(WORDS)}`,
          `for i := 0; i < limit; i++ { total += i }`,
        ])}`,
      );
    lines.push('\treturn total, nil', '}');
    return lines.join('\n');
  },
  rs() {
    const t = typeName();
    const lines = [`/// ${sentence(int(5, 12))}`, `pub struct ${t} {`];
    for (let i = int(2, 6); i > 0; i--)
      lines.push(`    pub ${pick(WORDS)}: ${pick(['String', 'u64', 'bool', 'Vec<u8>'])},`);
    lines.push(
      '}',
      '',
      `impl ${t} {`,
      `    /// ${sentence(int(4, 10))}`,
      `    pub fn ${snake()}(&self, limit: usize) -> usize {`,
      '        let mut total = 0;',
    );
    for (let i = int(4, 24); i > 0; i--)
      lines.push(
        `        ${pick([
          `if limit == ${int(0, 99)} { return ${int(0, 9)}; }`,
          `total += self.${pick(WORDS)}.len(); // ${pick(WORDS)}`,
          `for i in 0..limit { total += i; }`,
        ])}`,
      );
    lines.push('        total', '    }', '}');
    return lines.join('\n');
  },
  md() {
    const lines = [`## ${cap(pick(WORDS))} ${pick(WORDS)}`, ''];
    for (let i = int(2, 6); i > 0; i--)
      lines.push(Array.from({ length: int(2, 6) }, () => sentence(int(6, 16))).join(' '), '');
    return lines.join('\n');
  },
};

const LANGS = [
  ['ts', 0.35],
  ['py', 0.25],
  ['go', 0.15],
  ['rs', 0.1],
  ['md', 0.15],
];
const pickLang = () => {
  let r = rng();
  for (const [l, w] of LANGS) {
    r -= w;
    if (r < 0) return l;
  }
  return 'md';
};

// Folders per language, a few dozen each, so that imports cross folders.
const folders = { ts: [], py: [], go: [], rs: [], md: [] };
for (let i = 0; i < 20; i++) folders.ts.push(`web/src/${pick(WORDS)}${i}`);
for (let i = 0; i < 15; i++) folders.py.push(`py/app/${pick(WORDS)}${i}`);
for (let i = 0; i < 12; i++) folders.go.push(`svc/${pick(WORDS)}${i}`);
for (let i = 0; i < 6; i++) folders.rs.push(`crates/${pick(WORDS)}${i}/src`);
for (let i = 0; i < 8; i++) folders.md.push(`docs/${pick(WORDS)}${i}`);

/** Every file ever made: path, language, import header and blocks. */
const files = new Map();
const byLang = { ts: [], py: [], go: [], rs: [], md: [] };
const GO_MODULE = 'example.com/scale';

function header(lang, file) {
  const others = byLang[lang].filter((p) => p !== file);
  const n = others.length === 0 ? 0 : int(1, Math.min(5, others.length));
  const targets = [...new Set(Array.from({ length: n }, () => pick(others)))].sort();
  const stem = (p) => path.posix.basename(p).replace(/\.[^.]+$/, '');
  switch (lang) {
    case 'ts':
      return targets
        .map((t) => {
          let rel = path.posix.relative(path.posix.dirname(file), t).replace(/\.ts$/, '.js');
          if (!rel.startsWith('.')) rel = `./${rel}`;
          return `import { ${camel()} } from '${rel}';`;
        })
        .join('\n');
    case 'py':
      return targets
        .map((t) => `from ${t.replace(/\.py$/, '').replaceAll('/', '.')} import ${snake()}`)
        .join('\n');
    case 'go': {
      const pkgs = [...new Set(targets.map((t) => path.posix.dirname(t)))].filter(
        (d) => d !== path.posix.dirname(file),
      );
      return `package ${path.posix.basename(path.posix.dirname(file)).replace(/\d+$/, '')}\n\nimport (\n\t"fmt"\n${pkgs.map((d) => `\t"${GO_MODULE}/${d}"`).join('\n')}\n)`;
    }
    case 'rs':
      return targets
        .filter((t) => path.posix.dirname(t) === path.posix.dirname(file))
        .map((t) => `use crate::${stem(t)}::${typeName()};`)
        .join('\n');
    default:
      return `# ${cap(pick(WORDS))} ${pick(WORDS)}\n\n${sentence(int(8, 20))}`;
  }
}

const render = (f) => `${[f.header, ...f.blocks].join('\n\n')}\n`;
const size = (f) => f.blocks.reduce((n, b) => n + b.length + 2, f.header.length + 1);

function newFile(lang) {
  let file;
  do {
    const test = lang !== 'md' && chance(0.12);
    const stem = lang === 'py' || lang === 'rs' ? snake() : lang === 'md' ? pick(WORDS) : camel();
    const suffix = {
      ts: test ? '.test.ts' : '.ts',
      py: '.py',
      go: test ? '_test.go' : '.go',
      rs: '.rs',
      md: '.md',
    }[lang];
    file = `${pick(folders[lang])}/${lang === 'py' && test ? 'test_' : ''}${stem}${suffix}`;
  } while (files.has(file));
  // Log-uniform between 1 and 20 KB: many small files, a few large ones.
  const target = 1024 * 20 ** rng();
  const f = { path: file, lang, header: header(lang, file), blocks: [] };
  while (size(f) < target) f.blocks.push(BLOCK[lang]());
  files.set(file, f);
  byLang[lang].push(file);
  return f;
}

// ---- the history, as a fast-import stream --------------------------------------------------------

const out = [];
const T0 = 1_700_000_000;
let mark = 0;
let time = T0;
const AUTHORS = [
  'Ada Lovelace <ada@example.com>',
  'Alan Turing <alan@example.com>',
  'Grace Hopper <grace@example.com>',
  'Edsger Dijkstra <edsger@example.com>',
];
const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
const modify = (p, text) => `M 100644 inline ${p}\n${data(text)}`;

function commit(branch, message, ops, { from, merge } = {}) {
  mark += 1;
  time += int(600, 7200);
  const who = pick(AUTHORS);
  out.push(
    `commit refs/heads/${branch}\nmark :${mark}\nauthor ${who} ${time} +0000\ncommitter ${who} ${time} +0000\n${data(message)}`,
  );
  if (from !== undefined) out.push(`from :${from}\n`);
  if (merge !== undefined) out.push(`merge :${merge}\n`);
  out.push(...ops, '\n');
  return mark;
}

/** Rewrite, add or drop a block or two of a file (never to empty), and its text as written. */
function change(f) {
  for (let n = int(1, 2); n > 0; n--) {
    const r = rng();
    const at = int(0, Math.max(0, f.blocks.length - 1));
    if (r < 0.6 && f.blocks.length > 0) f.blocks[at] = BLOCK[f.lang]();
    else if (r < 0.85 || f.blocks.length < 2) f.blocks.splice(at, 0, BLOCK[f.lang]());
    else f.blocks.splice(at, 1);
  }
  return modify(f.path, render(f));
}

const subjectFor = (paths) => {
  const p = pick(paths);
  const base = path.posix.basename(p);
  return pick([
    `fix: ${pick(VERBS)} ${pick(WORDS)} before ${pick(WORDS)} in ${base}`,
    `${pick(VERBS)} the ${pick(WORDS)} ${pick(WORDS)} when the ${pick(WORDS)} is empty`,
    `feat(${pick(WORDS)}): ${camel()} takes a ${pick(WORDS)} limit`,
    `refactor ${camel()} out of ${p}`,
    `Handle ${typeName()} without a ${pick(WORDS)}`,
  ]);
};

// Plan: how many commits add files, and how many files the first commit holds.
const kinds = Array.from({ length: COMMITS - 1 }, () => {
  const r = rng();
  return r < 0.68 ? 'change' : r < 0.8 ? 'add' : r < 0.87 ? 'merge' : r < 0.92 ? 'bump' : 'docs';
});
const adds = kinds.map((k) => (k === 'add' ? int(1, 5) : 0));
const later = adds.reduce((a, b) => a + b, 0);
const initial = Math.max(10, FILES - later);

let version = [1, 0, 0];
const manifest = () =>
  `${JSON.stringify({ name: 'scale', version: '1.0.0', dependencies: { lodash: `^4.17.${version[0]}`, zod: `^3.${version[1]}.${version[2]}` } }, null, 2)}\n`;

const first = [];
for (let i = 0; i < initial; i++) first.push(newFile(pickLang()));
let main = commit('main', 'Initial import\n', [
  modify('go.mod', `module ${GO_MODULE}\n\ngo 1.21\n`),
  modify('package.json', manifest()),
  modify('package-lock.json', '{}\n'),
  ...first.map((f) => modify(f.path, render(f))),
]);
let made = initial;
const sourcePaths = () => [...files.keys()].filter((p) => !p.endsWith('.md'));

for (const [k, kind] of kinds.entries()) {
  if (kind === 'change') {
    const paths = [...new Set(Array.from({ length: int(1, 6) }, () => pick(sourcePaths())))];
    const body = chance(0.5) ? `\n\n${sentence(int(8, 20))} ${sentence(int(8, 20))}` : '';
    main = commit(
      'main',
      `${subjectFor(paths)}${body}\n`,
      paths.map((p) => change(files.get(p))),
      { from: main },
    );
  } else if (kind === 'add') {
    const n = Math.min(adds[k], FILES - made);
    const fresh = Array.from({ length: n }, () => newFile(pickLang()));
    made += n;
    // Adding files often comes with a change to the file that uses them.
    const ops = fresh.map((f) => modify(f.path, render(f)));
    if (chance(0.5)) ops.push(change(files.get(pick(sourcePaths()))));
    main = commit(
      'main',
      `add ${fresh.map((f) => path.posix.basename(f.path)).join(', ') || 'nothing'}\n`,
      ops,
      { from: main },
    );
  } else if (kind === 'merge') {
    // A side branch of one or two commits, merged back: the merge carries the side's files.
    let side = main;
    const touched = new Set();
    for (let n = int(1, 2); n > 0; n--) {
      const paths = [...new Set(Array.from({ length: int(1, 3) }, () => pick(sourcePaths())))];
      for (const p of paths) touched.add(p);
      side = commit(
        'side',
        `${subjectFor(paths)}\n`,
        paths.map((p) => change(files.get(p))),
        { from: side },
      );
    }
    main = commit(
      'main',
      `Merge branch 'side' into main\n`,
      [...touched].sort().map((p) => modify(p, render(files.get(p)))),
      {
        from: main,
        merge: side,
      },
    );
  } else if (kind === 'bump') {
    const before = manifest();
    version = [version[0] + 1, version[1] + (chance(0.5) ? 1 : 0), version[2]];
    const subject =
      before === manifest()
        ? 'chore(deps): refresh lock file'
        : `chore(deps): bump lodash to 4.17.${version[0]}`;
    main = commit(
      'main',
      `${subject}\n`,
      [
        modify('package.json', manifest()),
        modify('package-lock.json', `{"lockfileVersion": ${version[0]}}\n`),
      ],
      { from: main },
    );
  } else {
    const docs = byLang.md.length > 0 ? [pick(byLang.md)] : [];
    main = commit(
      'main',
      `docs: ${pick(VERBS)} the ${pick(WORDS)} notes\n`,
      docs.map((p) => change(files.get(p))),
      { from: main },
    );
  }
}
out.push(`reset refs/heads/main\nfrom :${main}\n\n`);

// ---- write it -----------------------------------------------------------------------------------

fs.mkdirSync(dir, { recursive: true });
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_DATE: `${T0} +0000`,
  GIT_COMMITTER_DATE: `${T0} +0000`,
};
const git = (args, input) => {
  const r = spawnSync('git', ['-C', dir, ...args], {
    env,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'],
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`git ${args[0]} failed (${r.status})`);
  return r.stdout.toString('utf8');
};
git(['init', '--quiet', '--initial-branch=main']);
git(['fast-import', '--quiet'], out.join(''));
git(['reset', '--quiet', '--hard', 'main']);
git(['branch', '-D', '--quiet', 'side']);
const head = git(['rev-parse', 'HEAD']).trim();
const count = git(['rev-list', '--count', 'HEAD']).trim();
const tracked = git(['ls-files'])
  .split('\n')
  .filter((l) => l !== '').length;
process.stderr.write(`scale-repo: ${dir} at ${head.slice(0, 12)}: ${count} commits, ${tracked} files\n`);
