import { validateStored, validationText } from '../../harness/audit/index.js';
import { UsageError } from '../../harness/errors.js';
import { checkRunFolder, runCheckText } from '../../harness/study/index.js';
import {
  defineCommand,
  lintOf,
  memoryOf,
  memoryOption,
  strictOption,
  timeoutOf,
  timeoutOption,
} from '../command.js';
import { EXIT } from '../io.js';
import { tokenizerOption, tokenizerSetting } from '../tokenizer.js';

const USAGE =
  'validate needs a run folder (validate RUN_DIR) or --compilation, --request, --candidates and --policy, not both';

/**
 * A stored compilation (the output of `compile`, or a golden file) checked against its inputs:
 * first the input checks `compile` applies (exit 2, one line), then every rule of
 * `checkCompilation`: `valid` and exit 0, or each problem with its rule and exit 1. Or a run
 * folder as a whole (`checkRunFolder`), against the inputs its manifest names.
 */
export const validate = defineCommand({
  examples: [
    ['$0 validate runs/compiler-v1', 're-derive a whole run folder from its inputs'],
    [
      '$0 validate --compilation out.json --request r.json --candidates c.json --policy p.json',
      're-check a stored compilation',
    ],
  ],
  options: (y) =>
    y
      .positional('run', {
        type: 'string',
        describe: 'a run folder: every row, compilation and report file re-derived from its inputs',
      })
      .option('compilation', {
        type: 'string',
        describe: 'a file with "result", "bundle" and "rendered_text" (compile output)',
      })
      .option('request', { type: 'string', describe: 'the request it was compiled for' })
      .option('candidates', { type: 'string', describe: 'the candidates it was compiled from' })
      .option('policy', { type: 'string', describe: 'the policy it was compiled under' })
      .option('tokenizer', { ...tokenizerOption, describe: 'the --tokenizer it was compiled with' })
      .option('timeout', {
        ...timeoutOption,
        describe:
          "a run folder: ms after which a strategy asked an error row's cell again is stopped, when the manifest records no --timeout",
      })
      .option('memory', {
        ...memoryOption,
        describe:
          "a run folder: MiB of heap for a strategy asked an error row's cell again, when the manifest records no --memory",
      })
      .option('strict', strictOption),
  run: async (a, { io }) => {
    const flags = [a.compilation, a.request, a.candidates, a.policy];
    if (typeof a.run === 'string' && flags.every((f) => f === undefined)) {
      // Exit 1 for a disagreement, and for an error row no rerun can re-check (docs/exit-codes.md).
      const asking = { in: 'processes', timeout: timeoutOf(a.timeout), memory: memoryOf(a.memory) } as const;
      const c = await checkRunFolder(a.run, asking);
      io.out(runCheckText(c));
      return c.found.length === 0 && c.unchecked.length === 0 ? EXIT.ok : EXIT.checkFailed;
    }
    if (a.run !== undefined || !a.compilation || !a.request || !a.candidates || !a.policy)
      throw new UsageError(USAGE);
    const files = { request: a.request, candidates: a.candidates, policy: a.policy };
    const policy = tokenizerSetting(a.tokenizer);
    const problems = await validateStored(a.compilation, files, lintOf(a.strict, io), policy);
    io.out(validationText(problems));
    return problems.length === 0 ? EXIT.ok : EXIT.checkFailed;
  },
});
