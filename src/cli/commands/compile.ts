import { type CompilerPolicy, type ContextRequest, isPlainObject } from '../../compiler/index.js';
import { InputError, UsageError } from '../../harness/errors.js';
import {
  checkInputs,
  Findings,
  type InputFiles,
  identitiesOf,
  type Lint,
  lintBatchShape,
  loadCandidates,
  loadPolicy,
  loadRequest,
  orderRoles,
  parseJson,
  readJsonFile,
  readTextLines,
  settle,
  toCandidates,
  toPolicy,
  toRequest,
  truthFrom,
} from '../../harness/input/index.js';
import { jsonText, writeFileAtomic } from '../../harness/output/index.js';
import {
  type CompilationJSON,
  compileOne,
  compileStrategy,
  Hosts,
  type Inputs,
  pickStrategies,
} from '../../harness/run/index.js';
import type { HostedStrategy, StrategyRef } from '../../harness/types.js';
import { defineCommand, lintOf, strictOption, timeoutOf, timeoutOption } from '../command.js';
import { EXIT, type ExitCode, type Io } from '../io.js';
import { tokenizerOption, tokenizerSetting } from '../tokenizer.js';

/** Indented for people; past a thousand candidates, compact (pipe through `jq` to read it). */
const outputJSON = (x: unknown, candidates: number): string =>
  candidates > 1000 ? `${JSON.stringify(x)}\n` : jsonText(x);

/**
 * One compilation by any registered strategy (the compiler by default); exit 0 whether it built a
 * bundle, refused, or built one the validators reject (the contract), but a rejected one is always
 * said on stderr, and under `--strict` exits 4 (docs/exit-codes.md).
 */
export const compile = defineCommand({
  examples: [
    ['$0 compile --request r.json --candidates c.json --policy p.json', 'one compilation by the compiler'],
    [
      '$0 compile --request r.json --candidates c.json --policy p.json --strategy exact --budget 900',
      'by exact, at 900 tokens',
    ],
    ['$0 compile --batch pools.jsonl --output out.jsonl', 'one output line per input line'],
    [
      '$0 compile --request r.json --candidates c.json --policy p.json --tokenizer o200k',
      'the overhead priced by o200k instead of the word estimate',
    ],
  ],
  options: (y) =>
    y
      .option('request', { type: 'string', describe: 'request JSON file' })
      .option('candidates', {
        type: 'string',
        describe: 'candidates JSON file ({"candidates": [...]} or a list)',
      })
      .option('policy', { type: 'string', describe: 'policy JSON file' })
      .option('output', {
        type: 'string',
        describe: 'write the JSON (with --batch, the JSON lines) here instead of stdout',
      })
      .option('budget', {
        type: 'number',
        describe: "tokens to compile into, in place of the request's usable_token_budget",
      })
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
      })
      .option('tokenizer', tokenizerOption)
      .option('timeout', timeoutOption)
      .option('strict', {
        ...strictOption,
        describe: `${strictOption.describe} (exit 2), and exit 4 when a compilation fails its own validation`,
      }),
  run: async (a, { io }) => {
    const [ref] = pickStrategies([a.strategy]) as [StrategyRef];
    const hosts = new Hosts({
      timeout: timeoutOf(a.timeout),
      keep: 1,
      secrets: a.ledger === undefined ? [] : [a.ledger],
    });
    try {
      const run: Run = {
        strategy: await compileStrategy(ref, hosts),
        hosts,
        budget: budgetOf(a.budget),
        policy: tokenizerSetting(a.tokenizer),
        lint: lintOf(a.strict, io),
      };
      const code = await (a.batch === undefined
        ? compileFiles(a, run, io)
        : compileBatch(a.batch, a.output, run, io));
      // Exit 0 whatever the validators say is the contract; 4 only for whoever asks.
      return code === EXIT.invalid && !a.strict ? EXIT.ok : code;
    } finally {
      hosts.close();
    }
  },
});

/**
 * Say on stderr that a compilation fails its own validation, one line per problem (for a batch
 * line, `where`, one line for all of its problems), and whether it did.
 */
function warnInvalid(out: Compiled, strategy: string, io: Io, where?: string): boolean {
  if ('error' in out || out.validation.valid) return false;
  const head = `ctxbench: warning: ${where === undefined ? '' : `${where}: `}${strategy}'s compilation fails validation`;
  if (where === undefined) for (const p of out.validation.problems) io.err(`${head}: ${p}\n`);
  else io.err(`${head}: ${out.validation.problems.join('; ')}\n`);
  return true;
}

/** One compilation's output object, or why the strategy gave none. */
type Compiled = CompilationJSON | { readonly error: string };

/** What every compilation of one `compile` command shares. */
interface Run {
  readonly strategy: HostedStrategy;
  readonly hosts: Hosts;
  /** `--budget`, or undefined to keep each request's own. */
  readonly budget: number | undefined;
  /** Each policy as `--tokenizer` leaves it. */
  readonly policy: (p: CompilerPolicy) => CompilerPolicy;
  readonly lint: Lint;
}

/** `--budget`, checked; undefined keeps each request's own. */
function budgetOf(budget: number | undefined): number | undefined {
  if (budget !== undefined && !(Number.isSafeInteger(budget) && budget >= 0))
    throw new UsageError('--budget must be a whole number of tokens >= 0');
  return budget;
}

const withBudget = (request: ContextRequest, budget: number | undefined): ContextRequest =>
  budget === undefined ? request : { ...request, usable_token_budget: budget };

interface FileArgs {
  readonly request?: string | undefined;
  readonly candidates?: string | undefined;
  readonly policy?: string | undefined;
  readonly ledger?: string | undefined;
  readonly output?: string | undefined;
}

/** One compilation of the three input files. */
async function compileFiles(a: FileArgs, run: Run, io: Io): Promise<ExitCode> {
  const { strategy, budget, lint } = run;
  if (a.request === undefined || a.candidates === undefined || a.policy === undefined) {
    throw new UsageError('compile needs --request, --candidates and --policy (or --batch F.jsonl)');
  }
  const files = { request: a.request, candidates: a.candidates, policy: a.policy };
  const inputs: Inputs = {
    request: withBudget(loadRequest(files.request, lint), budget),
    ...loadCandidates(files.candidates, { lint }),
    policy: run.policy(loadPolicy(files.policy, lint)),
  };
  // The compiler checks its own inputs; located here only when another strategy will run.
  if (strategy.name !== 'compiler')
    checkInputs(inputs.request, inputs.candidates, inputs.policy, files, lint);
  else settle(orderRoles(inputs.candidates, inputs.policy, files.candidates), lint);
  if (strategy.readsLedger === true && a.ledger === undefined) {
    throw new UsageError(`${strategy.name} reads the ledger: give --ledger F (a truth file)`);
  }
  const ledger =
    strategy.readsLedger === true && a.ledger
      ? readLedger(a.ledger, identitiesOf(inputs.candidates), lint)
      : undefined;
  const out = await compileOne(strategy, { ...inputs, ledger }, files, run.hosts, 'files');
  if ('error' in out) {
    io.err(`ctxbench: ${out.error}\n`);
    return EXIT.checkFailed;
  }
  const text = outputJSON(out, inputs.candidates.length);
  if (a.output === undefined) io.out(text);
  else writeFileAtomic(a.output, text);
  return warnInvalid(out, strategy.name, io) ? EXIT.invalid : EXIT.ok;
}

/** A truth file (or a batch line's `ledger`), every problem found before it is read. */
function readLedger(file: string, identities: ReadonlySet<string>, lint: Lint, inline?: unknown) {
  const raw = inline === undefined ? readJsonFile(file) : inline;
  return truthFrom(file, raw, identities, lint, inline === undefined ? undefined : 'ledger');
}

/** One line of a batch: its inputs read and checked, or an InputError naming the line. */
function batchLine(where: string, line: string, run: Run): Promise<Compiled> {
  const { strategy, budget, lint } = run;
  const parsed = parseJson(line);
  if ('problem' in parsed) throw new InputError(where, parsed.problem);
  const o = parsed.value;
  if (!isPlainObject(o)) throw new InputError(where, 'not a JSON object');
  const shape = new Findings(where);
  lintBatchShape(o, shape);
  settle(shape, lint);
  const inputs = {
    request: withBudget(toRequest(where, o.request, lint), budget),
    ...toCandidates(where, o.candidates, { lint }),
    policy: run.policy(toPolicy(where, o.policy, lint)),
  };
  const files: InputFiles = { request: where, candidates: where, policy: where };
  checkInputs(inputs.request, inputs.candidates, inputs.policy, files, lint);
  const ledger =
    strategy.readsLedger === true && o.ledger !== undefined
      ? readLedger(where, identitiesOf(inputs.candidates), lint, o.ledger)
      : undefined;
  if (strategy.readsLedger === true && ledger === undefined)
    throw new InputError(where, `${strategy.name} needs a "ledger"`);
  return compileOne(strategy, { ...inputs, ledger }, files, run.hosts, where);
}

/**
 * One output line per input line, in order, blank lines skipped. A bad line becomes
 * `{"error": "file:line: ..."}` and the rest go on; only an unreadable file stops the command.
 * With `output`, the lines are written there whole, or not at all.
 */
async function compileBatch(file: string, output: string | undefined, run: Run, io: Io): Promise<ExitCode> {
  const written: string[] = [];
  let invalid = false;
  // A problem of a line is told with `ctxbench check` on the whole file, which lists every line's.
  const lineRun: Run = { ...run, lint: { ...run.lint, checkPath: file } };
  for (const [k, line] of readTextLines(file).entries()) {
    if ('text' in line && line.text.trim() === '') continue;
    const where = `${file}:${k + 1}`;
    let out: Compiled;
    try {
      if ('problem' in line) throw new InputError(where, line.problem);
      out = await batchLine(where, line.text, lineRun);
    } catch (e) {
      if (e instanceof InputError) out = { error: e.line };
      else throw e;
    }
    if (warnInvalid(out, run.strategy.name, io, where)) invalid = true;
    const text = `${JSON.stringify(out)}\n`;
    if (output === undefined) io.out(text);
    else written.push(text);
  }
  if (output !== undefined) writeFileAtomic(output, written.join(''));
  return invalid ? EXIT.invalid : EXIT.ok;
}
