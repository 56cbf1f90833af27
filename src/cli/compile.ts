import fs from 'node:fs';
import { checkInputs, compileOne, type Inputs } from '../harness/compile.js';
import { InputError, UsageError } from '../harness/errors.js';
import { jsonText, writeFileAtomic } from '../harness/files.js';
import {
  loadCandidates,
  loadPolicy,
  loadRequest,
  toCandidates,
  toPolicy,
  toRequest,
} from '../harness/inputs.js';
import { readTruth, truthFrom } from '../harness/ledger.js';
import { pickStrategies } from '../harness/registry.js';
import type { Strategy } from '../harness/types.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface CompileArgs {
  readonly request?: string | undefined;
  readonly candidates?: string | undefined;
  readonly policy?: string | undefined;
  readonly output?: string | undefined;
  readonly batch?: string | undefined;
  readonly strategy: string;
  readonly ledger?: string | undefined;
}

const identitiesOf = (inputs: Pick<Inputs, 'candidates'>) =>
  new Set(inputs.candidates.map((c) => c.content_identity));

/** Indented for people; past a thousand candidates, compact (pipe through `jq` to read it). */
const outputJSON = (x: unknown, candidates: number): string =>
  candidates > 1000 ? `${JSON.stringify(x)}\n` : jsonText(x);

/**
 * One compilation by any registered strategy (the compiler by default); exit 0 whether it built a
 * bundle, refused, or built one the validators reject.
 */
export async function compileCommand(a: CompileArgs, io: Io): Promise<ExitCode> {
  const [strategy] = (await pickStrategies([a.strategy])) as [Strategy];
  if (a.batch !== undefined) return compileBatch(a.batch, strategy, io);
  if (a.request === undefined || a.candidates === undefined || a.policy === undefined) {
    throw new UsageError('compile needs --request, --candidates and --policy (or --batch F.jsonl)');
  }
  const files = { request: a.request, candidates: a.candidates, policy: a.policy };
  const inputs: Inputs = {
    request: loadRequest(files.request),
    ...loadCandidates(files.candidates),
    policy: loadPolicy(files.policy),
  };
  // The compiler checks its own inputs; located here only when another strategy will run.
  if (strategy.name !== 'compiler') checkInputs(inputs.request, inputs.candidates, inputs.policy, files);
  if (strategy.readsLedger === true && a.ledger === undefined) {
    throw new UsageError(`${strategy.name} reads the ledger: give --ledger F (a truth file)`);
  }
  const ledger =
    strategy.readsLedger === true && a.ledger ? readTruth(a.ledger, identitiesOf(inputs)) : undefined;
  const out = compileOne(strategy, { ...inputs, ledger }, files);
  if ('error' in out) {
    io.err(`ctxbench: ${out.error}\n`);
    return EXIT.checkFailed;
  }
  const text = outputJSON(out, inputs.candidates.length);
  if (a.output === undefined) io.out(text);
  else writeFileAtomic(a.output, text);
  return EXIT.ok;
}

/**
 * One output line per input line, in order. A bad line becomes `{"error": ...}` and the rest go
 * on; only an unreadable file stops the command.
 */
function compileBatch(file: string, strategy: Strategy, io: Io): ExitCode {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(file, `cannot read file (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const [k, line] of lines.entries()) {
    const where = `${file}:${k + 1}`;
    let out: unknown;
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      if (typeof o !== 'object' || o === null || Array.isArray(o))
        throw new InputError(where, 'not a JSON object');
      const inputs = {
        request: toRequest(where, o.request),
        ...toCandidates(where, o.candidates),
        policy: toPolicy(where, o.policy),
      };
      checkInputs(inputs.request, inputs.candidates, inputs.policy, {
        request: where,
        candidates: where,
        policy: where,
      });
      const ledger =
        strategy.readsLedger === true && o.ledger !== undefined
          ? truthFrom(where, o.ledger, identitiesOf(inputs))
          : undefined;
      if (strategy.readsLedger === true && ledger === undefined)
        throw new InputError(where, `${strategy.name} needs a "ledger"`);
      out = compileOne(strategy, { ...inputs, ledger }, { request: where, candidates: where, policy: where });
    } catch (e) {
      if (e instanceof InputError) out = { error: e.line };
      else if (e instanceof SyntaxError) out = { error: `${where}: not valid JSON (${e.message})` };
      else throw e;
    }
    io.out(`${JSON.stringify(out)}\n`);
  }
  return EXIT.ok;
}
