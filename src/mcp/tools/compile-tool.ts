/** The `compile` tool: `ctxbench compile` on records passed as arguments. */
import { jsonText } from '../../harness/output/index.js';
import { compiledSummary } from '../../harness/session/index.js';
import {
  CERTIFY,
  callSession,
  certifyOf,
  compilingSchema,
  failed,
  records,
  type Tool,
  text,
} from './tool.js';

export const compileTool: Tool = {
  name: 'compile',
  description:
    "Compile a pool into a bundle for a request, or a named refusal: ctxbench compile's JSON (bundle, result with its trace, rendered text, validation, real token counts), then a one-line summary.",
  schema: () => compilingSchema({ certify: CERTIFY }),
  run: (args, o, warm) =>
    callSession(
      args,
      o,
      warm,
      async (session) => {
        const out = await session.object('arguments', records(args));
        if ('error' in out) return failed(`ctxbench: ${out.error}`);
        return text(jsonText(out), compiledSummary(out));
      },
      certifyOf(args) === false,
    ),
};
