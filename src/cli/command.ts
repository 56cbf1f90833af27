/**
 * What every command module is made of: its name and options, declared next to its handler.
 * `main.ts` only lists the commands; no command imports another.
 */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import type { Lint } from '../harness/corpus/index.js';
import { UsageError } from '../harness/errors.js';
import { fromRoot } from '../harness/paths.js';
import {
  isDataFormat,
  renderTable,
  TABLE_FORMATS,
  type Table,
  type TableFormat,
} from '../harness/report/index.js';
import type { ExitCode, Io } from './io.js';

/** What a handler gets besides its options. */
export interface Context {
  readonly io: Io;
  /** The command line as typed, for manifests. */
  readonly argv: readonly string[];
  /** The package version. */
  readonly version: () => string;
}

/** A command, its generics erased so that `main.ts` can hold a list of them. */
export interface Command {
  readonly register: (
    parser: Argv,
    listed: Listed,
    ctx: Context,
    done: (code: ExitCode | Promise<ExitCode>) => void,
  ) => Argv;
}

/**
 * A command as `main.ts` lists it: its name as yargs takes it (with positionals, `trace <case>`),
 * the line `--help` prints, and its module, loaded only when that command runs.
 */
export interface Listed {
  readonly name: string;
  readonly describe: string;
  readonly load: () => Promise<Command>;
}

export interface CommandSpec<A> {
  /** Command lines with what they do, for the command's help page (`$0` is `ctxbench`). */
  readonly examples: readonly (readonly [command: string, what: string])[];
  readonly options: (y: Argv) => Argv<A>;
  readonly run: (args: ArgumentsCamelCase<A>, ctx: Context) => ExitCode | Promise<ExitCode>;
}

export function defineCommand<A>(spec: CommandSpec<A>): Command {
  let lists: ReadonlySet<string> = new Set();
  let known: Known = { flags: new Set(), booleans: new Set() };
  return {
    register: (parser, listed, ctx, done) =>
      parser.command(
        listed.name,
        listed.describe,
        (y) => {
          for (const [command, what] of spec.examples) y.example(command, what);
          const built = spec.options(y);
          // yargs 17 has getOptions() at run time but leaves it out of its types.
          const options = (built as unknown as { getOptions(): YargsOptions }).getOptions();
          lists = new Set(options.array);
          known = { flags: new Set(Object.keys(options.key)), booleans: new Set(options.boolean) };
          return built;
        },
        (a) =>
          done(
            (() => {
              refuseEmpty(ctx.argv, known);
              refuseRepeats(ctx.argv, a, lists);
              return spec.run(a, ctx);
            })(),
          ),
      ),
  };
}

/** What yargs 17 knows of a command's options, as far as the checks here read it. */
interface YargsOptions {
  readonly array: string[];
  readonly boolean: string[];
  readonly key: Record<string, unknown>;
}

/** A command's option names (as declared and camel-cased) and which of them are flags without a value. */
interface Known {
  readonly flags: ReadonlySet<string>;
  readonly booleans: ReadonlySet<string>;
}

const camelCase = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * No option is given an empty value: `--cache "$DIR"` with DIR unset reads as `--cache ''`, which
 * yargs takes as '' (the current folder, once resolved) and `--budget ''` as 0, so a typo would
 * run on something no one asked for. An empty or blank value, `--name=` or `--name ''`, or a value
 * missing at the end of the line or before the next option, is bad usage, told in one line naming
 * the option. Checked once for every command, on the words as typed, since yargs has filled them
 * in by now. A flag without a value (`--quiet`) is not asked for one.
 */
function refuseEmpty(words: readonly string[], known: Known): void {
  for (const [i, word] of words.entries()) {
    if (word === '--') return;
    const m = /^--([^=]+)(=(.*))?$/s.exec(word);
    if (m === null || m[1] === undefined) continue;
    const name = m[1];
    const key = known.flags.has(name) ? name : camelCase(name);
    if (!known.flags.has(key)) continue; // unknown, or `--no-x`: yargs says what it says
    const given = m[2] !== undefined ? (m[3] as string) : known.booleans.has(key) ? null : words[i + 1];
    if (given === null) continue;
    // A word starting with a dash is the next option, as yargs reads it, unless it is a number.
    const missing = given === undefined || (m[2] === undefined && /^-(?!\d|\.\d)/.test(given));
    if (missing || given.trim() === '')
      throw new UsageError(
        `--${name} is given ${missing ? 'no' : 'an empty'} value: give one, or leave it out`,
      );
  }
}

/**
 * Every command's options are given at most once, the lists (`merge <dirs..>`) aside: yargs
 * gathers a repeated option into a list, which no handler expects, and lets the last of a repeated
 * flag win (`--no-force --force`), so which one was meant cannot be told. The one place this is
 * checked, for every command: on the words as typed, since yargs has merged them by now.
 */
function refuseRepeats(
  words: readonly string[],
  args: Record<string, unknown>,
  lists: ReadonlySet<string>,
): void {
  const times = new Map<string, number>();
  for (const word of words) {
    if (word === '--') break;
    const m = /^--(?:no-)?([^=]+)/.exec(word);
    if (m === null) continue;
    const flag = (m[1] as string).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    times.set(flag, (times.get(flag) ?? 0) + 1);
  }
  const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  for (const [flag, n] of times)
    if (n > 1 && !lists.has(flag) && !lists.has(camel(flag)))
      throw new UsageError(`--${flag} is given ${n} times: give it once`);
  // Whatever else yargs gathered into a list (an alias and its name, say) is a repeat too.
  for (const [key, value] of Object.entries(args)) {
    if (key === '_' || key === '$0' || lists.has(key) || !Array.isArray(value)) continue;
    throw new UsageError(
      `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is given ${value.length} times: give it once`,
    );
  }
}

/** `a,b , c` as a list; undefined stays undefined (the default applies). */
export const splitList = (list: string | undefined): string[] | undefined =>
  list === undefined
    ? undefined
    : list
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/** `--timeout`, for every command that runs a strategy in a process of its own. */
export const timeoutOption = {
  type: 'number',
  default: 120_000,
  describe:
    "ms after which a compilation is stopped and becomes an error, from the input sent to the answer read; starting the strategy's process and loading its module do not count",
} as const;

/** The value of `--timeout`, checked. */
export function timeoutOf(ms: number): number {
  if (!Number.isFinite(ms) || ms < 1) throw new UsageError('--timeout must be a number of milliseconds >= 1');
  return ms;
}

/** `--memory`: the heap of each strategy process, in MiB (hosts.ts, DEFAULT_MEMORY when absent). */
export const memoryOption = {
  type: 'number',
  describe:
    'MiB of heap for each strategy process (default 4096); a strategy that needs more is an error row saying it ran out of memory',
} as const;

/** The value of `--memory`, checked: below 16 MiB Node cannot start. */
export function memoryOf(mib: number | undefined): number | undefined {
  if (mib === undefined) return undefined;
  if (!Number.isInteger(mib) || mib < 16 || mib > 1_048_576)
    throw new UsageError('--memory must be a whole number of MiB from 16 to 1048576');
  return mib;
}

/** `--strict`, for every command that reads input files (docs/formats.md, "Warnings"). */
export const strictOption = {
  type: 'boolean',
  default: false,
  describe: 'treat warnings (unknown fields and order roles, values out of range) as errors',
} as const;

/** How a command treats warnings: on stderr, one line each, or as errors under `--strict`. */
export const lintOf = (strict: boolean, io: Io): Lint => ({
  strict,
  warn: (line) => io.err(`ctxbench: ${line}\n`),
});

/** Defaults of the package's own data, resolved against the package root. */
export const DEFAULTS = {
  corpus: () => fromRoot('corpus/compiler-v1'),
  golden: () => fromRoot('test/fixtures/golden/python-v0.1.0'),
  published: () => fromRoot('corpus/compiler-v1/published'),
};

/**
 * `--format`, wherever a table is printed. One rule for every command: the format is the table's;
 * a command's `--json`, where it has one, stays its whole document (a contract), and `--format
 * json` is the table alone, a row an object.
 */
export const formatOption = {
  choices: TABLE_FORMATS,
  default: 'text' as TableFormat,
  describe:
    'how to print the table: text (aligned), md, csv or json (an object per row); under csv and json stdout holds the table alone, the lines around it go to stderr',
} as const;

/** `--json` prints a whole document, `--format` a table: asked for both, which one is meant is unclear. */
export function oneOutput(json: boolean, format: TableFormat): void {
  if (json && format !== 'text')
    throw new UsageError(`--json and --format ${format} both say what to print: give one`);
}

/** Where a command prints: its table in the format asked for, and the lines around it. */
export interface TableOutput {
  /** Lines for people: stdout beside a text or md table; stderr under csv and json; none under --quiet there. */
  note(text: string): void;
  table(t: Table): void;
}

export function tableOutput(io: Io, format: TableFormat, quiet = false): TableOutput {
  const data = isDataFormat(format);
  return {
    note(text) {
      // Blank lines set a note off from the table on stdout; on stderr they would only be gaps.
      if (!data) io.out(text);
      else if (!quiet) io.err(text.replace(/^\n+/, '').replace(/\n+$/, '\n'));
    },
    table: (t) => io.out(renderTable(t, format)),
  };
}

/** `--quiet`, wherever long work shows progress on stderr. */
export const quietOption = {
  type: 'boolean',
  default: false,
  describe: 'no progress on stderr (a terminal shows one updating line, a log only the last)',
} as const;

/** `--quiet` where a table is printed too: what csv and json move to stderr goes quiet with the progress. */
export const quietTableOption = {
  ...quietOption,
  describe: `${quietOption.describe}, nor under --format csv or json the lines around the table`,
} as const;

/** `--corpus`: help shows where the default lies in the package, not this machine's path. */
export const corpusOption = {
  type: 'string',
  default: DEFAULTS.corpus(),
  defaultDescription: 'corpus/compiler-v1, the reference corpus',
  describe: 'corpus folder (cases, policy, manifest)',
} as const;
