/** The `check` tool: every problem and warning of a pool, a request or a policy. */
import { Findings, findingsJSON, lintGiven, loneSurrogate, tally } from '../../harness/corpus/index.js';
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
    // An argument that is not Unicode text is one problem and is read no further, as a file
    // that is not is in `ctxbench check`.
    const unread = new Findings('arguments');
    for (const [name, value] of Object.entries(given)) {
      const lone = value === undefined ? null : loneSurrogate(value);
      if (lone === null) continue;
      unread.error(name, undefined, lone);
      given[name as keyof typeof given] = undefined;
    }
    const t = tally([unread, ...lintGiven(given, 'arguments')], args.strict === true);
    return Promise.resolve(
      text(
        jsonText(findingsJSON(t.findings)),
        `check: ${count(t.problems, 'problem')}, ${count(t.warnings, 'warning')}`,
      ),
    );
  },
};
