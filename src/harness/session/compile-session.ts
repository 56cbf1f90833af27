/**
 * The `compile` pipeline, apart from its printing: a session with one strategy (the compiler in
 * this thread, any other in a process of its own), its inputs read and checked from three files
 * or from each line of a batch, and one compilation object per input.
 */
import {
  type CompilerPolicy,
  type ContextRequest,
  isPlainObject,
  type RealTokenizer,
} from '../../compiler/index.js';
import {
  checkInputs,
  Findings,
  type InputFiles,
  identitiesOf,
  type Lint,
  ledgerDirFor,
  lintBatchShape,
  loadCandidates,
  loadLedger,
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
  warmTokenAudit,
} from '../corpus/index.js';
import { InputError, OptionError, UsageError } from '../errors.js';
import type { WarmHosts } from '../hosts/index.js';
import { caseInputs, Hosts, type Inputs, pickStrategies, type StrategyHosts } from '../hosts/index.js';
import type {
  BudgetName,
  Corpus,
  CorpusCase,
  HostedStrategy,
  Compiled as MeasuredCompilation,
  StrategyRef,
} from '../types.js';
import { type CompilationJSON, compileHosted, compileOne, compileStrategy } from './compile-one.js';

/** One compilation's output object, or why the strategy gave none. */
export type Compiled = CompilationJSON | { readonly error: string };

export interface CompileOptions {
  readonly strategy: string;
  /** Per compilation, in milliseconds, for a strategy in its own process. */
  readonly timeout: number;
  /** Tokens to compile into in place of each request's own; undefined keeps them. */
  readonly budget?: number | undefined;
  /** Each policy as the caller wants it (a real tokenizer for the overhead, say). */
  readonly policy: (p: CompilerPolicy) => CompilerPolicy;
  readonly lint: Lint;
  /** A truth file no strategy process may read unless it reads the ledger. */
  readonly ledger?: string | undefined;
  /**
   * Whether the compilations are audited in real tokens (`compile`'s JSON), so that both
   * vocabularies load from the start, beside the reading; false where only `measured` is asked
   * (`pack`), which counts nothing in them. True when not given.
   */
  readonly audited?: boolean | undefined;
  /**
   * Processes kept warm between sessions (the MCP runner's): the strategy's process is taken from
   * them and given back when the session closes. Without them the session starts its own.
   */
  readonly warm?: WarmHosts | undefined;
  /** HostOptions.counts: the tokenizer the strategy's process loads while the inputs are read. */
  readonly counts?: RealTokenizer | undefined;
  /** StrategyInput.anytime for every compilation of an object (MCP `compile`). */
  readonly anytime?: boolean | undefined;
}

/** A strategy ready to compile, and its process; close it when done. */
export class CompileSession {
  readonly strategy: HostedStrategy;
  private readonly hosts: StrategyHosts;
  private readonly o: CompileOptions;

  private constructor(strategy: HostedStrategy, hosts: StrategyHosts, o: CompileOptions) {
    this.strategy = strategy;
    this.hosts = hosts;
    this.o = o;
  }

  static async open(o: CompileOptions): Promise<CompileSession> {
    if (o.budget !== undefined && !(Number.isSafeInteger(o.budget) && o.budget >= 0))
      throw new OptionError('budget', 'must be a whole number of tokens >= 0');
    const ref = strategyNamed(o.strategy);
    // The vocabularies load in their thread while the inputs are read and compiled here.
    if (o.audited !== false) warmTokenAudit();
    const hosts =
      o.warm?.lease() ??
      new Hosts({
        timeout: o.timeout,
        keep: 1,
        secrets: o.ledger === undefined ? [] : [o.ledger],
        counts: o.counts,
      });
    try {
      return new CompileSession(await compileStrategy(ref, hosts), hosts, o);
    } catch (e) {
      hosts.close();
      throw e;
    }
  }

  close(): void {
    this.hosts.close();
  }

  private withBudget(request: ContextRequest): ContextRequest {
    return this.o.budget === undefined ? request : { ...request, usable_token_budget: this.o.budget };
  }

  /** One compilation of three input files (and the truth file, for a strategy that reads it). */
  async files(files: InputFiles): Promise<{ readonly out: Compiled; readonly candidates: number }> {
    const inputs = this.fileInputs(files);
    const out = await compileOne(this.strategy, inputs, files, this.hosts, 'files');
    return { out, candidates: inputs.candidates.length };
  }

  /** Three input files read and checked for this session's strategy, budget and policy. */
  fileInputs(files: InputFiles): Inputs {
    const { strategy, o } = this;
    const inputs: Inputs = {
      request: this.withBudget(loadRequest(files.request, o.lint)),
      ...loadCandidates(files.candidates, { lint: o.lint }),
      policy: o.policy(loadPolicy(files.policy, o.lint)),
    };
    // The compiler checks its own inputs; located here only when another strategy will run.
    if (strategy.name !== 'compiler')
      checkInputs(inputs.request, inputs.candidates, inputs.policy, files, o.lint);
    else settle(orderRoles(inputs.candidates, inputs.policy, files.candidates), o.lint);
    if (strategy.readsLedger === true && o.ledger === undefined)
      throw new UsageError(`${strategy.name} reads the ledger: give --ledger F (a truth file)`);
    const ledger =
      strategy.readsLedger === true && o.ledger !== undefined
        ? readLedger(o.ledger, identitiesOf(inputs.candidates), o.lint)
        : undefined;
    return { ...inputs, ledger };
  }

  /**
   * One compilation of inputs built in memory (`pack`'s pool), measured: the bundle's candidates
   * and its trace, not the JSON `compile` prints. The inputs are the caller's, already legal.
   */
  measured(inputs: Inputs, key: string): Promise<MeasuredCompilation> {
    return compileHosted(this.hosts, this.strategy, key, inputs);
  }

  /**
   * Each non-blank line of a batch file compiled, in order, with where it was (`file:line`). A
   * bad line is `{"error": "file:line: ..."}` and the rest go on; only an unreadable file throws.
   */
  async *batch(file: string): AsyncGenerator<{ readonly where: string; readonly out: Compiled }> {
    // A problem of a line is told with `ctxbench check` on the whole file, which lists every line's.
    const lint: Lint = { ...this.o.lint, checkPath: file };
    for (const [k, line] of readTextLines(file).entries()) {
      if ('text' in line && line.text.trim() === '') continue;
      const where = `${file}:${k + 1}`;
      try {
        if ('problem' in line) throw new InputError(where, line.problem);
        yield { where, out: await this.line(where, line.text, lint) };
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        yield { where, out: { error: e.line } };
      }
    }
  }

  /** One line of a batch: its inputs read and checked, or an InputError naming the line. */
  private line(where: string, text: string, lint: Lint): Promise<Compiled> {
    const parsed = parseJson(text);
    if ('problem' in parsed) throw new InputError(where, parsed.problem);
    return this.object(where, parsed.value, lint);
  }

  /**
   * One `{"request", "candidates", "policy"}` object (a batch line's, an MCP call's) compiled, its
   * inputs checked as a batch line's are; an InputError names `where`.
   */
  async object(where: string, o: unknown, lint: Lint = this.o.lint): Promise<Compiled> {
    const inputs = this.inputs(where, o, lint);
    const files: InputFiles = { request: where, candidates: where, policy: where };
    return compileOne(this.strategy, inputs, files, this.hosts, where);
  }

  /**
   * A `{"request", "candidates", "policy"}` object's inputs for this session's strategy: read and
   * checked as a batch line's are, the session's budget and policy applied, and its `ledger` for a
   * strategy that reads one. An InputError names `where`.
   */
  inputs(where: string, o: unknown, lint: Lint = this.o.lint): Inputs {
    const { strategy } = this;
    const inputs = checkedInputs(where, o, lint, (read) => ({
      ...read,
      request: this.withBudget(read.request),
      policy: this.o.policy(read.policy),
    }));
    const raw = o as Readonly<Record<string, unknown>>;
    const ledger =
      strategy.readsLedger === true && raw.ledger !== undefined
        ? readLedger(where, identitiesOf(inputs.candidates), lint, raw.ledger)
        : undefined;
    if (strategy.readsLedger === true && ledger === undefined)
      throw new InputError(where, `${strategy.name} needs a "ledger"`);
    return { ...inputs, ledger, ...(this.o.anytime === true ? { anytime: true } : {}) };
  }
}

/** A session opened as `o` asks, `use`d, and closed whatever happens. */
export async function withSession<T>(o: CompileOptions, use: (s: CompileSession) => Promise<T>): Promise<T> {
  const session = await CompileSession.open(o);
  try {
    return await use(session);
  } finally {
    session.close();
  }
}

/**
 * A `{"request", "candidates", "policy"}` object's records (a batch line, an MCP call's arguments),
 * read as a batch line's are, then, as `adjust` leaves them, checked together; an InputError names
 * `where`.
 */
export function checkedInputs(
  where: string,
  o: unknown,
  lint: Lint,
  adjust: (read: Inputs) => Inputs = (read) => read,
): Inputs {
  if (!isPlainObject(o)) throw new InputError(where, 'not a JSON object');
  const inputs = adjust(recordsOf(where, o, lint));
  const files: InputFiles = { request: where, candidates: where, policy: where };
  checkInputs(inputs.request, inputs.candidates, inputs.policy, files, lint);
  return inputs;
}

/** The records of a `{"request", "candidates", "policy"}` object: its shape, then each record. */
function recordsOf(where: string, o: Readonly<Record<string, unknown>>, lint: Lint): Inputs {
  const shape = new Findings(where);
  lintBatchShape(o, shape);
  settle(shape, lint);
  return {
    request: toRequest(where, o.request, lint),
    ...toCandidates(where, o.candidates, { lint }),
    policy: toPolicy(where, o.policy, lint),
  };
}

/** One registered strategy's file; an unknown name stops in `pickStrategies`, listing the known. */
const strategyNamed = (name: string): StrategyRef => pickStrategies([name])[0] as StrategyRef;

/** A truth file (or a batch line's `ledger`), every problem found before it is read. */
function readLedger(file: string, identities: ReadonlySet<string>, lint: Lint, inline?: unknown) {
  const raw = inline === undefined ? readJsonFile(file) : inline;
  return truthFrom(file, raw, identities, lint, inline === undefined ? undefined : 'ledger');
}

/**
 * One case of a corpus at one budget (a budget name or a number of tokens), compiled by one
 * strategy in a process of its own: what `trace` shows. The ledger's folder is kept from the
 * process unless the strategy reads it, and then it gets that case's truth alone.
 */
export async function compileCase(
  corpus: Corpus,
  name: string,
  budget: BudgetName | number,
  o: Pick<CompileOptions, 'strategy' | 'timeout' | 'policy' | 'lint'>,
): Promise<{ readonly kase: CorpusCase; readonly inputs: Inputs; readonly compiled: MeasuredCompilation }> {
  const ref = strategyNamed(o.strategy);
  const kase = corpus.cases.find((c) => c.name === name);
  if (kase === undefined)
    throw new UsageError(`unknown case "${name}" (known: ${corpus.cases.map((c) => c.name).join(', ')})`);
  // The corpus checked every case's inputs when it was loaded.
  const inputs = caseInputs(kase, budget, o.policy(corpus.policy), undefined);
  const ledgerDir = ledgerDirFor(corpus);
  const hosts = new Hosts({ timeout: o.timeout, keep: 1, secrets: [ledgerDir] });
  try {
    const [strategy] = (await hosts.describe([ref])) as [HostedStrategy];
    const ledger =
      strategy.readsLedger === true ? loadLedger(ledgerDir, corpus, o.lint).get(kase.name) : undefined;
    return { kase, inputs, compiled: await compileHosted(hosts, strategy, kase.name, { ...inputs, ledger }) };
  } finally {
    hosts.close();
  }
}
