import { UsageError } from '../../harness/errors.js';
import { guardOutput, writeFileAtomic } from '../../harness/output/index.js';
import { type Compiled, compiledJSON, invalidLines, withSession } from '../../harness/session/index.js';
import { defineCommand, strictOption, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';
import { sessionOptions, tokenizerOption } from '../tokenizer.js';

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
    const inputs = [a.request, a.candidates, a.policy, a.batch, a.ledger];
    if (a.output !== undefined) guardOutput({ path: a.output, kind: 'file', option: '--output', inputs });
    return withSession(sessionOptions(a, io), async (session) => {
      // A compilation the validators reject is said on stderr, whatever the exit code.
      let invalid = false;
      const warn = (out: Compiled, where?: string) => {
        for (const line of invalidLines(out, session.strategy.name, where)) {
          io.err(line);
          invalid = true;
        }
      };
      const print = (text: string) =>
        a.output === undefined ? io.out(text) : writeFileAtomic(a.output, text);
      if (a.batch === undefined) {
        if (a.request === undefined || a.candidates === undefined || a.policy === undefined)
          throw new UsageError('compile needs --request, --candidates and --policy (or --batch F.jsonl)');
        const files = { request: a.request, candidates: a.candidates, policy: a.policy };
        const { out, candidates } = await session.files(files);
        if ('error' in out) {
          io.err(`ctxbench: ${out.error}\n`);
          return EXIT.checkFailed;
        }
        print(compiledJSON(out, candidates));
        warn(out);
      } else {
        // With --output, the lines are written there whole, or not at all.
        const lines: string[] = [];
        for await (const { where, out } of session.batch(a.batch)) {
          warn(out, where);
          if (a.output === undefined) io.out(`${JSON.stringify(out)}\n`);
          else lines.push(`${JSON.stringify(out)}\n`);
        }
        if (a.output !== undefined) print(lines.join(''));
      }
      // Exit 0 whatever the validators say is the contract; 4 only for whoever asks.
      return invalid && a.strict ? EXIT.invalid : EXIT.ok;
    });
  },
});
