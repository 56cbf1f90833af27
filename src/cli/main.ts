/**
 * The whole CLI as a function: arguments in, exit code out, text through `io`. The bin calls it
 * with the real process; tests call it directly. Each command lives in `commands/`, its options
 * beside its handler; this file only lists them and turns errors into exit codes.
 */
import yargs from 'yargs';
import { InputError, UsageError } from '../harness/input/errors.js';
import { type Command, type Context, packageVersion } from './command.js';
import { bench } from './commands/bench.js';
import { check } from './commands/check.js';
import { compare } from './commands/compare.js';
import { compile } from './commands/compile.js';
import { conformance } from './commands/conformance.js';
import { generate } from './commands/generate.js';
import { merge } from './commands/merge.js';
import { report } from './commands/report.js';
import { strategies } from './commands/strategies.js';
import { study } from './commands/study.js';
import { survey } from './commands/survey.js';
import { trace } from './commands/trace.js';
import { validate } from './commands/validate.js';
import { verify } from './commands/verify.js';
import { EXIT, type ExitCode, type Io, processIo } from './io.js';

/** In the order `--help` lists them. */
const COMMANDS: readonly Command[] = [
  compile,
  validate,
  check,
  conformance,
  trace,
  study,
  verify,
  compare,
  report,
  generate,
  merge,
  bench,
  survey,
  strategies,
];

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
      throw err ?? new UsageError(msg);
    })
    .demandCommand(1, 'name a command');
  for (const c of COMMANDS)
    parser = c.register(parser, ctx, (result) => {
      code = result;
    });
  try {
    await parser.parseAsync([...args], {}, (err, _argv, output) => {
      if (output && !err) io.out(`${output}\n`);
    });
    return await code;
  } catch (e) {
    return reportError(e, io);
  }
}

function reportError(e: unknown, io: Io): number {
  if (e instanceof InputError) {
    io.err(`ctxbench: ${e.line}\n`);
    return EXIT.badInput;
  }
  if (e instanceof UsageError || (e instanceof Error && e.name === 'YError')) {
    io.err(`ctxbench: ${(e as Error).message.split('\n')[0]} (see ctxbench --help)\n`);
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
  return EXIT.checkFailed;
}

/** Any thrown value as text, even one with no prototype or a throwing toString. */
function safeText(x: unknown): string {
  try {
    return String(x);
  } catch {
    return Object.prototype.toString.call(x);
  }
}
