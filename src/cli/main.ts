/**
 * The whole CLI as a function: arguments in, exit code out, text through `io`. The bin calls it
 * with the real process; tests call it directly. Each command lives in `commands/`, its options
 * beside its handler; this file only lists them and turns errors into exit codes.
 */
import yargs from 'yargs';
import { InputError, UsageError } from '../harness/errors.js';
import { packageVersion } from '../harness/paths.js';
// Types alone: command.ts reaches the report folder, which only a running command needs.
import type { Context, Listed } from './command.js';
import { EXIT, type ExitCode, type Io, processIo } from './io.js';

/**
 * Every command, in the order `--help` lists them. A command's module (and all it imports: the
 * compiler, the strategies' hosts, the tokenizers, the chart renderer) is loaded only when that
 * command runs, so `--help` and `--version` start at once.
 */
const COMMANDS: readonly Listed[] = [
  {
    name: 'compile',
    describe: 'one compilation: {bundle, result, rendered_text, validation} as JSON',
    load: async () => (await import('./commands/compile.js')).compile,
  },
  {
    name: 'validate [run]',
    describe:
      'check a stored compilation, or a whole run folder, against its inputs, re-deriving everything it claims',
    load: async () => (await import('./commands/validate.js')).validate,
  },
  {
    name: 'check <path>',
    describe: 'every problem and warning of a corpus folder or one input file, one line each',
    load: async () => (await import('./commands/check.js')).check,
  },
  {
    name: 'explain',
    describe: 'why one candidate is in or out of a compilation, and what would admit it',
    load: async () => (await import('./commands/explain.js')).explain,
  },
  {
    name: 'conformance',
    describe: 'recompile the 42 golden cases of the Python reference and compare',
    load: async () => (await import('./commands/conformance.js')).conformance,
  },
  {
    name: 'trace <case>',
    describe: "a case's decision trace: blocking candidates first, then every candidate",
    load: async () => (await import('./commands/trace.js')).trace,
  },
  {
    name: 'study',
    describe: 'run every case x budget x strategy, score against the ledger, write a run folder',
    load: async () => (await import('./commands/study.js')).study,
  },
  {
    name: 'verify <run>',
    describe:
      "compare a run's rows of the published strategies it holds with the published run (run-001, or a run folder)",
    load: async () => (await import('./commands/verify.js')).verify,
  },
  {
    name: 'compare <a> [b]',
    describe:
      'the compilations that changed between two run folders (or two strategies of one), the headline deltas per strategy, and which differences are significant',
    load: async () => (await import('./commands/compare.js')).compare,
  },
  {
    name: 'report <run>',
    describe: "regenerate report.md, report.html, summary.json and rows.csv from a run folder's rows",
    load: async () => (await import('./commands/report.js')).report,
  },
  {
    name: 'findings <runs..>',
    describe: 'a findings document from a template whose every figure the runs fill',
    load: async () => (await import('./commands/findings.js')).findings,
  },
  {
    name: 'generate',
    describe: 'write a synthetic case (or with --cases a corpus with its ledger) from a seed',
    load: async () => (await import('./commands/generate.js')).generate,
  },
  {
    name: 'ingest [repository]',
    describe:
      "a git repository's history (or SWE-bench's instances) as a corpus: each case a commit, its parent the pool, its changes the ledger",
    load: async () => (await import('./commands/ingest.js')).ingestCommand,
  },
  {
    name: 'pack <dir>',
    describe: 'the context for one task under one budget, from a working tree, as Markdown, XML or JSON',
    load: async () => (await import('./commands/pack.js')).packCommand,
  },
  {
    name: 'merge <dirs..>',
    describe: 'join shard run folders into the run folder of the whole matrix',
    load: async () => (await import('./commands/merge.js')).merge,
  },
  {
    name: 'bench',
    describe: 'time every strategy on every case, the whole study and generated pools (tinybench)',
    load: async () => (await import('./commands/bench.js')).bench,
  },
  {
    name: 'survey <runs..>',
    describe:
      'refusals, false refusals, illegal and incomplete bundles and gaps against exact, per run, with 95% intervals',
    load: async () => (await import('./commands/survey.js')).survey,
  },
  {
    name: 'mcp',
    describe: 'serve the compiler to an MCP client (an agent or an editor) over stdio',
    load: async () => (await import('./commands/mcp.js')).mcp,
  },
  {
    name: 'strategies',
    describe: 'list the registered strategies',
    load: async () => (await import('./commands/strategies.js')).strategies,
  },
];

/**
 * What `ctxbench --help` shows under Examples: the first commands a newcomer runs, from the
 * reference study to their own corpus. Each command's own help has more. A command here is at
 * most 55 characters, half the help's width, so that yargs never wraps it (a test holds that).
 */
const EXAMPLES: readonly (readonly [command: string, what: string])[] = [
  ['$0 study', 'the reference study, into runs/compiler-v1'],
  ['$0 verify runs/compiler-v1', 'its rows against the published run-001'],
  ['$0 trace dependency-trap --budget tight', "one case's decisions, a row per candidate"],
  ['$0 check my-corpus', 'every problem of your own corpus at once'],
  ['$0 study --corpus my-corpus --out runs/mine', 'every strategy on it'],
  ['$0 generate --seed s1 --candidates 40 --out one', 'a synthetic case of 40 candidates'],
  ['$0 compare runs/before runs/after', 'what changed between two runs'],
  ['$0 study --help', "a command's own options and examples"],
];
/** Under every help page: what a script may rely on (docs/exit-codes.md). */
const EXIT_CODES =
  'Exit codes: 0 done, 1 a check failed, 2 bad usage or input, 3 internal error (a bug), 4 compile --strict: the compilation fails validation, 130/143 stopped by SIGINT/SIGTERM. See docs/exit-codes.md.';

export async function run(args: readonly string[], io: Io = processIo): Promise<number> {
  let code: Promise<ExitCode> | ExitCode = EXIT.ok;
  const ctx: Context = { io, argv: args, version: packageVersion };
  let parser = yargs([...args])
    .scriptName('ctxbench')
    .usage('$0 <command> [options]\n\nMeasure context-assembly strategies side by side, reproducibly.')
    .version(packageVersion())
    .help()
    .strict()
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((msg, err) => {
      throw err ?? new UsageError(invalidValues(unknownOnce(msg)));
    })
    .demandCommand(1, 'name a command')
    .example(EXAMPLES.map(([command, what]) => [command, what]))
    .epilogue(EXIT_CODES);
  withoutHelpCache(parser);
  const done = (result: ExitCode | Promise<ExitCode>) => {
    code = result;
  };
  // The command is the first word; only its module is loaded, the others are listed for --help.
  const word = args.find((a) => !a.startsWith('-'));
  const chosen = COMMANDS.find((c) => c.name.split(' ')[0] === word);
  try {
    const command = await chosen?.load();
    for (const c of COMMANDS)
      parser =
        c === chosen && command !== undefined
          ? command.register(parser, c, ctx, done)
          : parser.command(c.name, c.describe);
    await parser.parseAsync([...args], {}, (err, _argv, output) => {
      if (output && !err) io.out(`${output}\n`);
    });
    return await code;
  } catch (e) {
    // A usage error points to the help page of the command it was made in, where its flags are.
    const help = chosen === undefined ? 'ctxbench --help' : `ctxbench ${word} --help`;
    return reportError(e, io, help);
  }
}

/** What the pinned yargs keeps behind `getInternalMethods`, left out of its types. */
interface YargsInternals {
  getInternalMethods(): { getUsageInstance(): { cacheHelpMessage: () => void } };
}

/**
 * Once a command's handler has started, yargs renders the whole help page and keeps it, in case
 * the command fails later: about 0.15 s of CPU (cliui measuring every cell's width) on every run,
 * for a page nobody reads, since a failure here is one line of ctxbench's own (`.fail` above).
 * yargs has no switch for it, so the pinned version's internal method is made a no-op; `--help`
 * renders the page as before. The instance is the same object through every command.
 */
export function withoutHelpCache<T>(parser: T): T {
  (parser as unknown as YargsInternals).getInternalMethods().getUsageInstance().cacheHelpMessage = () => {};
  return parser;
}

/**
 * yargs names an unknown flag twice, as typed and camel-cased (`bogus-flag, bogusFlag`): keep
 * each flag once, as typed.
 */
function unknownOnce(message: string): string {
  const m = /^(Unknown arguments?): (.*)$/.exec(message);
  if (m === null) return message;
  const names = (m[2] as string).split(', ');
  const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const kept = names.filter(
    (n) => !names.some((other) => other !== n && other.includes('-') && camel(other) === n),
  );
  return `${kept.length === 1 ? 'Unknown argument' : 'Unknown arguments'}: ${kept.join(', ')}`;
}

/**
 * yargs lists each value outside its choices on a line of its own, below a first line that names
 * nothing (`Invalid values:`): one line, each flag with what it takes.
 */
function invalidValues(message: string): string {
  const [first, ...rest] = message.split('\n');
  if (first?.trim() !== 'Invalid values:') return message;
  const each = rest.flatMap((line) => {
    const m = /Argument: (.+?), Given: (.+?), Choices: (.+)$/.exec(line.trim());
    return m === null ? [] : [`--${m[1]} ${m[2]} is not one of ${m[3]}`];
  });
  return each.length === 0 ? message : `invalid value: ${each.join('; ')}`;
}

function reportError(e: unknown, io: Io, help: string): number {
  if (e instanceof InputError) {
    io.err(`ctxbench: ${e.line}\n`);
    return EXIT.badInput;
  }
  if (e instanceof UsageError || (e instanceof Error && e.name === 'YError')) {
    io.err(`ctxbench: ${(e as Error).message.split('\n')[0]} (see ${help})\n`);
    return EXIT.badInput;
  }
  if (e instanceof RangeError && /Invalid string length|longer than/.test(e.message)) {
    io.err(
      'ctxbench: too large: the output would exceed the 512 MiB one string can hold (see docs/reliability.md, "Limits")\n',
    );
    return EXIT.badInput;
  }
  const message = e instanceof Error ? e.message : safeText(e);
  io.err(`ctxbench: internal error: ${message.split('\n')[0]}\n`);
  if (process.env.CTXBENCH_DEBUG) io.err(`${(e as Error).stack}\n`);
  return EXIT.internal;
}

/** Any thrown value as text, even one with no prototype or a throwing toString. */
function safeText(x: unknown): string {
  try {
    return String(x);
  } catch {
    return Object.prototype.toString.call(x);
  }
}
