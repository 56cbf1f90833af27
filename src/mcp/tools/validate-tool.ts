/** The `validate` tool: a stored compilation checked against the records it was compiled from. */
import { validateDocumentAwaited, validationText } from '../../harness/audit/index.js';
import { checkedInputs } from '../../harness/session/index.js';
import { object, records, recordsSchema, type Tool, text } from './tool.js';

export const validateTool: Tool = {
  name: 'validate',
  description:
    'Check a stored compilation (compile\'s output) against the records it was compiled from: "valid", or one "INVALID rule: problem" line per violation, as ctxbench validate prints.',
  schema: () => {
    const { properties, $defs } = recordsSchema();
    const compilation = {
      type: 'object',
      description: "compile's output: result, bundle and rendered_text, with what else compile writes",
      required: ['result'],
    };
    return object({ compilation, ...properties }, ['compilation', 'candidates', 'request', 'policy'], $defs);
  },
  // Awaited, as the CLI's validate is: an exact or compiler-v2 result's extras are derived too.
  run: async (args) => {
    const inputs = checkedInputs('arguments', records(args), { strict: false });
    const problems = await validateDocumentAwaited('compilation', args.compilation, inputs);
    return text(validationText(problems));
  },
};
