/**
 * The bad inputs of docs/reliability.md, "Clear errors for bad input", as a table: each a
 * command line that must stop with exit 2 and one line naming the file or option and the field,
 * leaving nothing behind. test/cli/bad-input-classes.test.ts runs them; `badInputCounts` gives
 * the figures of the docs table (how many were tried, by class).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEEP, nested, PAST_EXACT } from './break-it.js';
import { CORPUS_DIR, ROOT } from './corpus.js';

export const CLASSES = [
  'output place',
  'repeated option',
  'wrong kind of element',
  'nesting too deep',
  'number past exact counting',
] as const;
export type BadClass = (typeof CLASSES)[number];

/** What a case's files are made in: a corpus copy with its ledger, a run folder, a scratch folder. */
export interface Places {
  readonly tmp: string;
  /** A copy of the reference corpus with its ledger inside. */
  readonly corpus: string;
  /** A finished run folder (one case, the dump strategy). */
  readonly run: string;
}

export interface BadInput {
  readonly class: BadClass;
  readonly what: string;
  /** The command line, and what its one line of stderr must name. */
  readonly make: (p: Places) => {
    readonly args: string[];
    readonly names: string[];
    /** Paths that must not exist afterwards. */
    readonly absent?: string[];
    /** Paths (files or folders) whose bytes must be the same afterwards. */
    readonly untouched?: string[];
  };
}

const REQUEST = path.join(CORPUS_DIR, 'budget-slack.request.json');
const CANDIDATES = path.join(CORPUS_DIR, 'budget-slack.candidates.json');
const POLICY = path.join(CORPUS_DIR, 'compiler-policy-v1.json');
const read = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(file, 'utf8'));

/** A file in the scratch folder holding `text`. */
function file(p: Places, name: string, text: string): string {
  const f = path.join(p.tmp, name);
  fs.writeFileSync(f, text);
  return f;
}

/** A copy of the corpus with one file replaced, for the study cases. */
function corpusWith(p: Places, name: string, rel: string, text: string): string {
  const dir = path.join(p.tmp, name);
  fs.cpSync(p.corpus, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
  return dir;
}

const compileWith = (request: string, candidates: string, policy = POLICY) => [
  'compile',
  '--request',
  request,
  '--candidates',
  candidates,
  '--policy',
  policy,
];

export const BAD_INPUTS: readonly BadInput[] = [
  // Output places: the user's data and ctxbench itself are never replaced or written into.
  {
    class: 'output place',
    what: 'study --out is its own --corpus, with --force',
    make: (p) => ({
      args: ['study', '--corpus', p.corpus, '--out', p.corpus, '--force', '--strategies', 'dump'],
      names: ['--out', p.corpus, 'inputs'],
      untouched: [p.corpus],
    }),
  },
  {
    class: 'output place',
    what: "study --out is the corpus's ledger",
    make: (p) => ({
      args: ['study', '--out', path.join(p.corpus, 'ledger'), '--force', '--strategies', 'dump'],
      names: ['--out', 'a ledger'],
      untouched: [p.corpus],
    }),
  },
  {
    class: 'output place',
    what: 'study --out lies inside its corpus',
    make: (p) => ({
      args: ['study', '--corpus', p.corpus, '--out', path.join(p.corpus, 'run'), '--strategies', 'dump'],
      names: ['--out', 'lies inside'],
      absent: [path.join(p.corpus, 'run')],
    }),
  },
  {
    class: 'output place',
    what: 'study --out holds its corpus',
    make: (p) => ({
      args: ['study', '--corpus', p.corpus, '--out', p.tmp, '--force', '--strategies', 'dump'],
      names: ['--out', 'holds'],
      untouched: [p.corpus],
    }),
  },
  {
    class: 'output place',
    what: 'study --out through a link into a corpus',
    make: (p) => {
      const link = path.join(p.tmp, 'link-to-corpus');
      if (!fs.existsSync(link)) fs.symlinkSync(p.corpus, link);
      return {
        args: ['study', '--out', path.join(link, 'run'), '--strategies', 'dump'],
        names: ['--out', 'a corpus'],
        absent: [path.join(p.corpus, 'run')],
      };
    },
  },
  {
    class: 'output place',
    what: 'merge --out replaces a corpus it does not read',
    make: (p) => ({
      args: ['merge', p.run, '--out', p.corpus, '--force'],
      names: ['--out', 'is a corpus'],
      untouched: [p.corpus],
    }),
  },
  {
    class: 'output place',
    what: 'merge --out is one of its shards',
    make: (p) => ({
      args: ['merge', p.run, '--out', p.run, '--force'],
      names: ['--out', 'inputs'],
      untouched: [p.run],
    }),
  },
  {
    class: 'output place',
    what: 'study --out is the package root',
    make: () => ({
      args: ['study', '--out', ROOT, '--force', '--strategies', 'dump'],
      names: ['--out', 'ctxbench itself'],
      untouched: [path.join(ROOT, 'corpus/compiler-v1')],
    }),
  },
  {
    class: 'output place',
    what: "generate --out inside ctxbench's docs/",
    make: () => ({
      args: ['generate', '--seed', 's', '--candidates', '5', '--out', path.join(ROOT, 'docs/generated')],
      names: ['--out', 'docs/'],
      absent: [path.join(ROOT, 'docs/generated')],
    }),
  },
  {
    class: 'output place',
    what: "report --out into ctxbench's strategies/",
    make: (p) => ({
      args: ['report', p.run, '--out', path.join(ROOT, 'strategies')],
      names: ['--out', 'strategies/'],
      absent: [path.join(ROOT, 'strategies/report.md')],
    }),
  },
  {
    class: 'output place',
    what: 'survey --out into a corpus',
    make: (p) => ({
      args: ['survey', p.run, '--out', p.corpus],
      names: ['--out', 'a corpus'],
      absent: [path.join(p.corpus, 'survey.md')],
    }),
  },
  {
    class: 'output place',
    what: "bench --save over ctxbench's package.json",
    make: () => ({
      args: ['bench', '--save', path.join(ROOT, 'package.json')],
      names: ['--save', "ctxbench's own files"],
      untouched: [path.join(ROOT, 'package.json')],
    }),
  },
  {
    class: 'output place',
    what: 'compile --output is its --candidates',
    make: (p) => {
      const c = file(p, 'own-candidates.json', fs.readFileSync(CANDIDATES, 'utf8'));
      return {
        args: [...compileWith(REQUEST, c), '--output', c],
        names: ['--output', 'inputs'],
        untouched: [c],
      };
    },
  },
  {
    class: 'output place',
    what: 'compile --output is a hard link to its --request',
    make: (p) => {
      const r = file(p, 'own-request.json', fs.readFileSync(REQUEST, 'utf8'));
      const link = path.join(p.tmp, 'hard-link.json');
      if (!fs.existsSync(link)) fs.linkSync(r, link);
      return { args: [...compileWith(r, CANDIDATES), '--output', link], names: ['--output'], untouched: [r] };
    },
  },
  {
    class: 'output place',
    what: 'compile --output is its --batch file',
    make: (p) => {
      const b = file(p, 'own-batch.jsonl', '{}\n');
      return {
        args: ['compile', '--batch', b, '--output', b],
        names: ['--output', 'inputs'],
        untouched: [b],
      };
    },
  },
  {
    class: 'output place',
    what: 'findings --out is its --template',
    make: (p) => {
      const t = file(p, 'template.md', '# {{rows}}\n');
      return {
        args: ['findings', p.run, '--template', t, '--out', t],
        names: ['--out', 'inputs'],
        untouched: [t],
      };
    },
  },
  // Wrong kind of element: found at the first, whatever the list's length.
  {
    class: 'wrong kind of element',
    what: 'candidates a list of numbers',
    make: (p) => ({
      args: compileWith(
        REQUEST,
        file(p, 'numbers.json', `{"candidates": [${Array(1000).fill(1).join(',')}]}`),
      ),
      names: ['numbers.json', 'candidates[0]', 'need an object'],
    }),
  },
  {
    class: 'wrong kind of element',
    what: 'required_ids a list of numbers',
    make: (p) => ({
      args: compileWith(
        file(p, 'ids.json', JSON.stringify({ ...read(REQUEST), required_ids: [1, 2, 3] })),
        CANDIDATES,
      ),
      names: ['ids.json', 'required_ids'],
    }),
  },
  {
    class: 'wrong kind of element',
    what: 'order_roles a list of numbers',
    make: (p) => ({
      args: compileWith(
        REQUEST,
        CANDIDATES,
        file(p, 'roles.json', JSON.stringify({ ...read(POLICY), order_roles: [1] })),
      ),
      names: ['roles.json', 'order_roles'],
    }),
  },
  {
    class: 'wrong kind of element',
    what: 'a manifest budget a list',
    make: (p) => {
      const m = read(path.join(p.corpus, 'manifest.json'));
      (m.budgets as Record<string, unknown>)['budget-slack'] = [1, 2];
      const dir = corpusWith(p, 'list-budget', 'manifest.json', JSON.stringify(m));
      return {
        args: ['study', '--corpus', dir, '--out', path.join(p.tmp, 'no-run'), '--strategies', 'dump'],
        names: ['manifest.json', 'budget-slack', 'budgets'],
        absent: [path.join(p.tmp, 'no-run')],
      };
    },
  },
  {
    class: 'wrong kind of element',
    what: 'a truth file whose identity_truth is a list of numbers',
    make: (p) => {
      const dir = corpusWith(
        p,
        'list-truth',
        'ledger/budget-slack.truth.json',
        '{"identity_truth": [1, 2, 3]}',
      );
      return {
        args: ['study', '--corpus', dir, '--out', path.join(p.tmp, 'no-run'), '--strategies', 'dump'],
        names: ['budget-slack.truth.json', 'identity_truth'],
        absent: [path.join(p.tmp, 'no-run')],
      };
    },
  },
  {
    class: 'wrong kind of element',
    what: 'rows.jsonl of a run read back by compare: a line a number',
    make: (p) => {
      const dir = path.join(p.tmp, 'number-rows');
      fs.cpSync(p.run, dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'rows.jsonl'), '1\n');
      return { args: ['compare', p.run, dir], names: ['rows.jsonl', 'line 1'] };
    },
  },
  // Nesting past the documented limit, valid JSON or not.
  ...(
    [
      [
        'candidates',
        (p: Places) => compileWith(REQUEST, file(p, 'deep-c.json', `{"candidates": ${nested(DEEP)}}`)),
        'deep-c.json',
      ],
      [
        'request',
        (p: Places) => compileWith(file(p, 'deep-r.json', nested(DEEP)), CANDIDATES),
        'deep-r.json',
      ],
      [
        'policy',
        (p: Places) => compileWith(REQUEST, CANDIDATES, file(p, 'deep-p.json', nested(DEEP))),
        'deep-p.json',
      ],
      [
        'unclosed candidates',
        (p: Places) => compileWith(REQUEST, file(p, 'deep-u.json', '['.repeat(DEEP))),
        'deep-u.json',
      ],
      [
        'a field of a candidate',
        (p: Places) => {
          const c = read(CANDIDATES) as { candidates: Record<string, unknown>[] };
          const text = JSON.stringify(c).replace(
            '"candidate_id":"instr-1"',
            `"candidate_id":${nested(DEEP)}`,
          );
          return compileWith(REQUEST, file(p, 'deep-f.json', text));
        },
        'deep-f.json',
      ],
      [
        'validate --compilation',
        (p: Places) => [
          'validate',
          '--compilation',
          file(p, 'deep-v.json', nested(DEEP)),
          '--request',
          REQUEST,
          '--candidates',
          CANDIDATES,
          '--policy',
          POLICY,
        ],
        'deep-v.json',
      ],
      [
        'manifest',
        (p: Places) => [
          'study',
          '--corpus',
          corpusWith(p, 'deep-manifest', 'manifest.json', nested(DEEP)),
          '--out',
          path.join(p.tmp, 'no-run'),
          '--strategies',
          'dump',
        ],
        'manifest.json',
      ],
      [
        'truth file',
        (p: Places) => [
          'study',
          '--corpus',
          corpusWith(p, 'deep-truth', 'ledger/budget-slack.truth.json', nested(DEEP)),
          '--out',
          path.join(p.tmp, 'no-run'),
          '--strategies',
          'dump',
        ],
        'budget-slack.truth.json',
      ],
    ] as const
  ).map(
    ([what, args, name]): BadInput => ({
      class: 'nesting too deep',
      what,
      make: (p) => ({
        args: args(p),
        names: [name, 'nested deeper than 100 levels'],
        absent: [path.join(p.tmp, 'no-run')],
      }),
    }),
  ),
  // Numbers the compiler cannot count exactly.
  {
    class: 'number past exact counting',
    what: 'usable_token_budget 1e300',
    make: (p) => ({
      args: compileWith(
        file(p, 'budget300.json', JSON.stringify({ ...read(REQUEST), usable_token_budget: PAST_EXACT.far })),
        CANDIDATES,
      ),
      names: ['budget300.json', 'usable_token_budget', '2^53 - 1'],
    }),
  },
  {
    class: 'number past exact counting',
    what: 'usable_token_budget 2^53',
    make: (p) => ({
      args: compileWith(
        file(p, 'budget53.json', JSON.stringify({ ...read(REQUEST), usable_token_budget: PAST_EXACT.first })),
        CANDIDATES,
      ),
      names: ['budget53.json', 'usable_token_budget', '2^53 - 1'],
    }),
  },
  {
    class: 'number past exact counting',
    what: 'token_count 1e300',
    make: (p) => {
      const c = read(CANDIDATES) as { candidates: Record<string, unknown>[] };
      (c.candidates[0] as Record<string, unknown>).token_count = PAST_EXACT.far;
      return {
        args: compileWith(REQUEST, file(p, 'count300.json', JSON.stringify(c))),
        names: ['count300.json', 'token_count', '2^53 - 1'],
      };
    },
  },
  {
    class: 'number past exact counting',
    what: "a pool's token counts summing past 2^53",
    make: (p) => {
      const c = read(CANDIDATES) as { candidates: Record<string, unknown>[] };
      for (const x of c.candidates) x.token_count = PAST_EXACT.half;
      return {
        args: compileWith(REQUEST, file(p, 'sum53.json', JSON.stringify(c))),
        names: ['sum53.json', 'sum past 2^53 - 1'],
      };
    },
  },
  {
    class: 'number past exact counting',
    what: 'a manifest budget 1e300',
    make: (p) => {
      const m = read(path.join(p.corpus, 'manifest.json'));
      (m.budgets as Record<string, Record<string, unknown>>)['budget-slack'] = {
        tight: PAST_EXACT.far,
        roomy: 1,
        exact: 1,
      };
      const dir = corpusWith(p, 'budget-manifest', 'manifest.json', JSON.stringify(m));
      return {
        args: ['study', '--corpus', dir, '--out', path.join(p.tmp, 'no-run'), '--strategies', 'dump'],
        names: ['manifest.json', 'budget-slack', '2^53 - 1'],
        absent: [path.join(p.tmp, 'no-run')],
      };
    },
  },
];

/**
 * A repeated option for every command `ctxbench --help` lists (the test holds that each is here):
 * the first word is the command.
 */
export const REPEATED: Readonly<Record<string, readonly string[]>> = {
  compile: ['compile', '--policy', 'a', '--policy', 'b'],
  validate: ['validate', '--compilation', 'a', '--compilation', 'b'],
  check: ['check', 'x', '--policy', 'a', '--policy=b'],
  explain: [
    'explain',
    '--candidate',
    'a',
    '--candidate',
    'b',
    '--request',
    'r',
    '--candidates',
    'c',
    '--policy',
    'p',
  ],
  conformance: ['conformance', '--corpus', 'a', '--corpus', 'b'],
  trace: ['trace', 'x', '--budget', 'tight', '--budget', 'roomy'],
  study: ['study', '--strategies', 'a', '--strategies', 'b'],
  verify: ['verify', 'x', '--published', 'a', '--published', 'b'],
  compare: ['compare', 'a', 'b', '--json', '--no-json'],
  report: ['report', 'x', '--out', 'a', '--out', 'b'],
  findings: ['findings', 'x', '--template', 'a', '--template', 'b'],
  generate: ['generate', '--seed', 'a', '--seed', 'b', '--candidates', '3', '--out', 'x'],
  merge: ['merge', 'a', 'b', '--out', 'x', '--out', 'y'],
  bench: ['bench', '--save', 'a', '--save', 'b'],
  survey: ['survey', 'a', '--out', 'x', '--out', 'y'],
  strategies: ['strategies', '--format', 'md', '--format', 'csv'],
  ingest: ['ingest', 'x', '--out', 'a', '--out', 'b'],
  pack: ['pack', 'x', '--task', 'a', '--task', 'b', '--budget', '10'],
  mcp: ['mcp', '--timeout', '1000', '--timeout', '2000'],
};

export const REPEATED_INPUTS: readonly BadInput[] = Object.entries(REPEATED).map(([command, args]) => ({
  class: 'repeated option',
  what: `${command}: ${args.filter((a) => a.startsWith('--'))[0]} twice`,
  make: () => ({
    args: [...args],
    names: [`--${(args.find((a) => a.startsWith('--')) as string).slice(2).split('=')[0]}`, 'times'],
  }),
}));

/** Every bad input tried, the big file aside (its own test). */
export const ALL_BAD_INPUTS: readonly BadInput[] = [...BAD_INPUTS, ...REPEATED_INPUTS];

/** The docs table's figures: bad inputs tried, by class (the big file counted under its class). */
export function badInputCounts(): Record<BadClass, number> {
  const counts = Object.fromEntries(CLASSES.map((c) => [c, 0])) as Record<BadClass, number>;
  for (const b of ALL_BAD_INPUTS) counts[b.class]++;
  counts['wrong kind of element']++;
  return counts;
}
