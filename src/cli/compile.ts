import fs from 'node:fs';
import { compilationJSON, compileLocated } from '../harness/compile.js';
import { InputError, UsageError } from '../harness/errors.js';
import { writeFileAtomic } from '../harness/files.js';
import {
  loadCandidates,
  loadPolicy,
  loadRequest,
  toCandidates,
  toPolicy,
  toRequest,
} from '../harness/inputs.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface CompileArgs {
  readonly request?: string | undefined;
  readonly candidates?: string | undefined;
  readonly policy?: string | undefined;
  readonly output?: string | undefined;
  readonly batch?: string | undefined;
  readonly strategy: string;
}

function requireCompiler(strategy: string): void {
  if (strategy !== 'compiler') throw new UsageError(`unknown strategy "${strategy}" (known: compiler)`);
}

/** One compilation; exit 0 whether it built a bundle, refused, or failed validation. */
export function compileCommand(a: CompileArgs, io: Io): ExitCode {
  requireCompiler(a.strategy);
  if (a.batch !== undefined) return compileBatch(a.batch, io);
  if (a.request === undefined || a.candidates === undefined || a.policy === undefined) {
    throw new UsageError('compile needs --request, --candidates and --policy (or --batch F.jsonl)');
  }
  const files = { request: a.request, candidates: a.candidates, policy: a.policy };
  const request = loadRequest(files.request);
  const candidates = loadCandidates(files.candidates);
  const policy = loadPolicy(files.policy);
  const output = compileLocated(request, candidates, policy, files);
  const text = `${JSON.stringify(compilationJSON(output, request, candidates, policy), null, 2)}\n`;
  if (a.output === undefined) io.out(text);
  else writeFileAtomic(a.output, text);
  return EXIT.ok;
}

/**
 * One output line per input line, in order. A bad line becomes `{"error": ...}` and the rest go
 * on; only an unreadable file stops the command.
 */
function compileBatch(file: string, io: Io): ExitCode {
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
      const request = toRequest(where, o.request);
      const candidates = toCandidates(where, o.candidates);
      const policy = toPolicy(where, o.policy);
      const output = compileLocated(request, candidates, policy, {
        request: where,
        candidates: where,
        policy: where,
      });
      out = compilationJSON(output, request, candidates, policy);
    } catch (e) {
      if (e instanceof InputError) out = { error: e.line };
      else if (e instanceof SyntaxError) out = { error: `${where}: not valid JSON (${e.message})` };
      else throw e;
    }
    io.out(`${JSON.stringify(out)}\n`);
  }
  return EXIT.ok;
}
