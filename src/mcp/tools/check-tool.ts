/** The `check` tool: every problem and warning of a pool, a request or a policy. */
import { findingsJSON, lintGiven, tally } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import { count } from '../../harness/format.js';
import { jsonText } from '../../harness/output/index.js';
import { object, recordsSchema, type Tool, text } from './tool.js';

export const checkTool: Tool = {
  name: 'check',
  description:
    "Every problem and warning of a pool, a request or a policy (any of them, together checked against each other), as the JSON list ctxbench check --json prints (every finding's file is `arguments`, its record the argument's); then a count.",
  schema: () => {
    const { properties, $defs } = recordsSchema();
    return object(
      { ...properties, strict: { type: 'boolean', description: 'warnings count as problems' } },
      [],
      $defs,
    );
  },
  run: (args) => {
    const given = { candidates: args.candidates, request: args.request, policy: args.policy };
    if (Object.values(given).every((v) => v === undefined))
      throw new UsageError('check needs candidates, a request or a policy');
    const t = tally(lintGiven(given, 'arguments'), args.strict === true);
    return Promise.resolve(
      text(
        jsonText(findingsJSON(t.findings)),
        `check: ${count(t.problems, 'problem')}, ${count(t.warnings, 'warning')}`,
      ),
    );
  },
};
