import { UsageError } from '../../harness/errors.js';
import { jsonText } from '../../harness/output/index.js';
import { explainCandidate, withSession } from '../../harness/session/index.js';
import { defineCommand, strictOption, timeoutOption } from '../command.js';
import { EXIT } from '../io.js';
import { sessionOptions, tokenizerOption } from '../tokenizer.js';

/**
 * Why one candidate is in or out of a compilation, and what would admit it: the trace's decision
 * in words, then the gate, the other forms, the least budget found by compiling again, and what
 * naming it required does. The same answer the MCP server's `explain` gives.
 */
export const explain = defineCommand({
  examples: [
    [
      '$0 explain --request r.json --candidates c.json --policy p.json --candidate ref-cheap',
      'why compiler-v2 left ref-cheap out, and what would admit it',
    ],
    [
      '$0 explain --request r.json --candidates c.json --policy p.json --candidate x --strategy exact --json',
      "exact's account, as JSON",
    ],
  ],
  options: (y) =>
    y
      .option('request', { type: 'string', demandOption: true, describe: 'request JSON file' })
      .option('candidates', { type: 'string', demandOption: true, describe: 'candidates JSON file' })
      .option('policy', { type: 'string', demandOption: true, describe: 'policy JSON file' })
      .option('candidate', { type: 'string', demandOption: true, describe: 'the candidate_id to explain' })
      .option('budget', {
        type: 'number',
        describe: "tokens to compile into, in place of the request's usable_token_budget",
      })
      .option('strategy', {
        type: 'string',
        default: 'compiler-v2',
        describe: 'the strategy whose choice to explain',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the whole answer as JSON' })
      .option('tokenizer', tokenizerOption)
      .option('timeout', timeoutOption)
      .option('strict', strictOption),
  run: async (a, { io }) => {
    if (a.candidate === '') throw new UsageError('--candidate needs a candidate id');
    return withSession(sessionOptions(a, io), async (session) => {
      const files = { request: a.request, candidates: a.candidates, policy: a.policy };
      const e = await explainCandidate(session, session.fileInputs(files), a.candidate);
      if (a.json) io.out(jsonText(e));
      else {
        io.out(`${e.candidate_id} (${e.strategy}, budget ${e.budget}): ${e.admitted ? 'in' : 'out'}\n`);
        io.out(`  why: ${e.why}\n`);
        for (const w of e.would_take) io.out(`  would take: ${w}\n`);
      }
      return EXIT.ok;
    });
  },
});
