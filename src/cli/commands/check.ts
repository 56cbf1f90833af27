import { findingLine, findingsJSON, tally, walk } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import { count } from '../../harness/format.js';
import { jsonText } from '../../harness/output/index.js';
import { defineCommand, strictOption } from '../command.js';
import { EXIT } from '../io.js';

/**
 * Every problem and warning of a corpus folder or of one file, one line each, then a summary.
 * Where the other commands stop at the first problem, this one reads on: it is what their
 * `(and N more problems: ctxbench check ...)` points to. Exit 0 when clean (warnings alone
 * included, unless `--strict`), 1 with problems; 2 only for a path that is not there.
 */
export const check = defineCommand({
  examples: [
    ['$0 check corpus/compiler-v1', 'every case, the policy, the manifest and the ledger'],
    ['$0 check pool.candidates.json --policy policy.json', 'one pool, its order roles against a policy'],
    ['$0 check batch.jsonl --json', 'every line of a batch file, as a JSON list'],
  ],
  options: (y) =>
    y
      .positional('path', { type: 'string', demandOption: true, describe: 'a corpus folder or one file' })
      .option('policy', {
        type: 'string',
        describe:
          "the policy a lone pool is laid out by (default: the one beside it), or a corpus's replacement",
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the findings as a JSON list' })
      .option('strict', strictOption),
  run: (a, { io }) => {
    if (a.path === undefined || a.path === '') throw new UsageError('check needs a corpus folder or a file');
    const found = walk(a.path, a.policy);
    const { findings, problems, warnings, unlisted } = tally(found.files, a.strict);
    if (a.json) io.out(jsonText(findingsJSON(findings)));
    else {
      for (const f of findings) io.out(`${findingLine(f)}\n`);
      if (unlisted > 0) io.out(`check: ${count(unlisted, 'more finding')} not listed\n`);
      const what = found.cases === undefined ? '1 file' : count(found.cases, 'case');
      io.out(`check: ${what}, ${count(problems, 'problem')}, ${count(warnings, 'warning')}\n`);
    }
    return problems > 0 ? EXIT.checkFailed : EXIT.ok;
  },
});
