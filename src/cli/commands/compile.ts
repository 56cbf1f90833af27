import { UsageError } from '../../harness/errors.js';
import { guardOutput, jsonText, writeFileAtomic } from '../../harness/output/index.js';
import type { Compiled } from '../../harness/study/index.js';
import { defineCommand, strictOption, timeoutOption } from '../command.js';
import { EXIT, type Io } from '../io.js';
import { openSession, tokenizerOption } from '../tokenizer.js';

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
    if (a.output !== undefined)
      guardOutput({
        path: a.output,
        kind: 'file',
        option: '--output',
        inputs: [a.request, a.candidates, a.policy, a.batch, a.ledger],
      });
    const session = await openSession(a, io);
    try {
      let invalid = false;
      if (a.batch === undefined) {
        if (a.request === undefined || a.candidates === undefined || a.policy === undefined)
          throw new UsageError('compile needs --request, --candidates and --policy (or --batch F.jsonl)');
        const { out, candidates } = await session.files({
          request: a.request,
          candidates: a.candidates,
          policy: a.policy,
        });
        if ('error' in out) {
          io.err(`ctxbench: ${out.error}\n`);
          return EXIT.checkFailed;
        }
        const text = outputJSON(out, candidates);
        if (a.output === undefined) io.out(text);
        else writeFileAtomic(a.output, text);
        invalid = warnInvalid(out, session.strategy.name, io);
      } else {
        // With --output, the lines are written there whole, or not at all.
        const written: string[] = [];
        for await (const { where, out } of session.batch(a.batch)) {
          if (warnInvalid(out, session.strategy.name, io, where)) invalid = true;
          const text = `${JSON.stringify(out)}\n`;
          if (a.output === undefined) io.out(text);
          else written.push(text);
        }
        if (a.output !== undefined) writeFileAtomic(a.output, written.join(''));
      }
      // Exit 0 whatever the validators say is the contract; 4 only for whoever asks.
      return invalid && a.strict ? EXIT.invalid : EXIT.ok;
    } finally {
      session.close();
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
