/** The `explain` tool: why one candidate is in or out of a compilation, and what would admit it. */
import { UsageError } from '../../harness/errors.js';
import { jsonText } from '../../harness/output/index.js';
import { explainCandidate } from '../../harness/session/index.js';
import { callSession, compilingSchema, records, type Tool, text } from './tool.js';

export const explainTool: Tool = {
  name: 'explain',
  description:
    'Why one candidate is in or out of the compilation of a pool, in words from the trace, and what would admit it (the gate, another form, a budget found by compiling again, naming it required), as JSON.',
  schema: () =>
    compilingSchema({ candidate: { type: 'string', description: 'the candidate_id to explain' } }, [
      'candidate',
    ]),
  run: (args, o, warm) =>
    callSession(args, o, warm, async (session) => {
      if (typeof args.candidate !== 'string')
        throw new UsageError('explain needs "candidate", a candidate id');
      const e = await explainCandidate(session, session.inputs('arguments', records(args)), args.candidate);
      return text(
        jsonText(e),
        `${e.candidate_id}: ${e.why}. What would admit it: ${e.would_take.join('; ')}.`,
      );
    }),
};
