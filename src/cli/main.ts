import fs from 'node:fs';
import yargs from 'yargs';
import { InputError, UsageError } from '../harness/errors.js';
import { fromRoot } from '../harness/files.js';
import { benchCommand } from './bench.js';
import { compileCommand } from './compile.js';
import { conformanceCommand } from './conformance.js';
import { GENERATE_SHAPE, generateCommand } from './generate.js';
import { EXIT, type Io, processIo } from './io.js';
import { mergeCommand } from './merge.js';
import { reportCommand } from './report.js';
import { strategiesCommand } from './strategies.js';
import { DEFAULT_PUBLISHED, studyCommand } from './study.js';
import { traceCommand } from './trace.js';
import { validateCommand } from './validate.js';
import { verifyCommand } from './verify.js';

const version = (): string => JSON.parse(fs.readFileSync(fromRoot('package.json'), 'utf8')).version;

const DEFAULT_CORPUS = 'corpus/compiler-v1';
const DEFAULT_GOLDEN = 'test/fixtures/golden/python-v0.1.0';

/**
 * The whole CLI as a function: arguments in, exit code out, text through `io`. The bin calls it
 * with the real process; tests call it directly.
 */
export async function run(args: readonly string[], io: Io = processIo): Promise<number> {
  let code: number = EXIT.ok;
  const done = async (c: number | Promise<number>) => {
    code = await c;
  };
  const parser = yargs([...args])
    .scriptName('ctxbench')
    .usage('$0 <command> [options]\n\nMeasure context-assembly strategies side by side, reproducibly.')
    .version(version())
    .help()
    .strict()
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    })
    .demandCommand(1, 'name a command')
    .command(
      'compile',
      'one compilation: {bundle, result, rendered_text, validation} as JSON',
      (y) =>
        y
          .option('request', { type: 'string', describe: 'request JSON file' })
          .option('candidates', {
            type: 'string',
            describe: 'candidates JSON file ({"candidates": [...]} or a list)',
          })
          .option('policy', { type: 'string', describe: 'policy JSON file' })
          .option('output', { type: 'string', describe: 'write the JSON here instead of stdout' })
          .option('batch', {
            type: 'string',
            describe: 'JSONL file of {"request", "candidates", "policy"} lines',
          })
          .option('strategy', {
            type: 'string',
            default: 'compiler',
            describe: 'the strategy that assembles',
          })
          .option('ledger', {
            type: 'string',
            describe: 'a truth file, for a strategy that reads the ledger',
          }),
      (a) => done(compileCommand(a, io)),
    )
    .command(
      'validate',
      'run the independent validators on a stored compilation',
      (y) =>
        y
          .option('compilation', {
            type: 'string',
            describe: 'a file with "result" and "bundle" (compile output)',
          })
          .option('request', { type: 'string' })
          .option('candidates', { type: 'string' })
          .option('policy', { type: 'string' }),
      (a) => done(validateCommand(a, io)),
    )
    .command(
      'conformance',
      'recompile the 42 golden cases of the Python reference and compare',
      (y) =>
        y
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print {"cases", "mismatches", "details"}',
          })
          .option('corpus', { type: 'string', default: fromRoot(DEFAULT_CORPUS) })
          .option('golden', { type: 'string', default: fromRoot(DEFAULT_GOLDEN) }),
      (a) => done(conformanceCommand(a, io)),
    )
    .command(
      'trace <case>',
      "a case's decision trace as a table",
      (y) =>
        y
          .positional('case', { type: 'string', demandOption: true })
          .option('budget', {
            type: 'string',
            demandOption: true,
            describe: 'tight, medium, roomy or a number',
          })
          .option('strategy', { type: 'string', default: 'compiler' })
          .option('corpus', { type: 'string', default: fromRoot(DEFAULT_CORPUS) }),
      (a) => done(traceCommand({ ...a, case: a.case as string }, io)),
    )
    .command(
      'study',
      'run every case x budget x strategy, score against the ledger, write a run folder',
      (y) =>
        y
          .option('corpus', { type: 'string', default: fromRoot(DEFAULT_CORPUS), describe: 'corpus folder' })
          .option('strategies', {
            type: 'string',
            describe: 'comma-separated subset (default: all registered)',
          })
          .option('policy', { type: 'string', describe: "a policy file replacing the corpus's" })
          .option('out', { type: 'string', describe: 'run folder (default runs/<corpus name>)' })
          .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' })
          .option('jobs', { type: 'number', default: 1, describe: 'worker threads (same bytes as one job)' })
          .option('timeout', {
            type: 'number',
            default: 120_000,
            describe: 'with --jobs: ms after which a compilation is stopped and becomes an error row',
          })
          .option('shard', { type: 'string', describe: 'i/n: run only the i-th of n slices of the matrix' }),
      (a) => done(studyCommand({ ...a, version: version(), argv: ['ctxbench', ...args] }, io)),
    )
    .command(
      'verify <run>',
      "compare a run's rows of the six published strategies with the published run",
      (y) =>
        y
          .positional('run', { type: 'string', demandOption: true, describe: 'run folder' })
          .option('published', {
            type: 'string',
            default: DEFAULT_PUBLISHED(),
            describe: 'published run folder',
          }),
      (a) => done(verifyCommand({ run: a.run as string, published: a.published }, io)),
    )
    .command(
      'report <run>',
      "regenerate report.md, summary.json and rows.csv from a run folder's rows",
      (y) =>
        y
          .positional('run', { type: 'string', demandOption: true })
          .option('out', { type: 'string', describe: 'write the reports here instead of the run folder' }),
      (a) => done(reportCommand({ run: a.run as string, out: a.out }, io)),
    )
    .command(
      'generate',
      'write a synthetic case (or with --cases a corpus with its ledger) from a seed',
      (y) =>
        y
          .option('seed', {
            type: 'string',
            demandOption: true,
            describe: 'any string; same seed, same bytes',
          })
          .option('candidates', { type: 'number', demandOption: true, describe: 'candidates per case' })
          .option('out', { type: 'string', demandOption: true, describe: 'folder to write' })
          .option('cases', { type: 'number', describe: 'write a corpus of this many cases' })
          .option('policy', { type: 'string', describe: 'policy file (default compiler-policy-v1)' })
          .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' })
          .epilogue(GENERATE_SHAPE),
      (a) => done(generateCommand(a, io)),
    )
    .command(
      'merge <dirs..>',
      'join shard run folders into the run folder of the whole matrix',
      (y) =>
        y
          .positional('dirs', { type: 'string', array: true, demandOption: true })
          .option('out', { type: 'string', demandOption: true, describe: 'the merged run folder' })
          .option('force', { type: 'boolean', default: false }),
      (a) =>
        done(
          mergeCommand(
            {
              dirs: a.dirs as string[],
              out: a.out,
              force: a.force,
              version: version(),
              argv: ['ctxbench', ...args],
            },
            io,
          ),
        ),
    )
    .command(
      'bench',
      'time every strategy on every case, the whole study and generated pools (tinybench)',
      (y) =>
        y
          .option('corpus', { type: 'string', default: fromRoot(DEFAULT_CORPUS) })
          .option('strategies', { type: 'string', describe: 'comma-separated subset (default: all)' })
          .option('sizes', { type: 'string', default: '100,1000,10000', describe: 'generated pool sizes' })
          .option('time', { type: 'number', default: 200, describe: 'milliseconds of samples per task' })
          .option('save', { type: 'string', describe: 'write the results as JSON' })
          .option('baseline', {
            type: 'string',
            describe: 'compare with a saved run; exit 1 on a regression',
          }),
      (a) => done(benchCommand({ ...a, version: version() }, io)),
    )
    .command(
      'strategies',
      'list the registered strategies',
      (y) => y.option('json', { type: 'boolean', default: false }),
      (a) => done(strategiesCommand(a, io)),
    );
  try {
    await parser.parseAsync([...args], {}, (err, _argv, output) => {
      if (output && !err) io.out(`${output}\n`);
    });
    return code;
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
  const message = e instanceof Error ? e.message : String(e);
  io.err(`ctxbench: internal error: ${message.split('\n')[0]}\n`);
  if (process.env.CTXBENCH_DEBUG) io.err(`${(e as Error).stack}\n`);
  return EXIT.checkFailed;
}
