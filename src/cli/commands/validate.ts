import {
  type ContextBundle,
  readBundle,
  readResult,
  validateBundle,
  validateResult,
} from '../../compiler/index.js';
import { UsageError } from '../../harness/input/errors.js';
import { readJsonFile } from '../../harness/input/files.js';
import { loadCandidates, loadPolicy, loadRequest, locate } from '../../harness/input/records.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/**
 * The independent validators on a stored compilation (the output of `compile`, or a golden
 * file): `valid` and exit 0, or the problems and exit 1.
 */
export const validate = defineCommand({
  name: 'validate',
  describe: 'run the independent validators on a stored compilation',
  options: (y) =>
    y
      .option('compilation', {
        type: 'string',
        describe: 'a file with "result" and "bundle" (compile output)',
      })
      .option('request', { type: 'string' })
      .option('candidates', { type: 'string' })
      .option('policy', { type: 'string' }),
  run: (a, { io }) => {
    if (!a.compilation || !a.request || !a.candidates || !a.policy) {
      throw new UsageError('validate needs --compilation, --request, --candidates and --policy');
    }
    const request = loadRequest(a.request);
    const { candidates } = loadCandidates(a.candidates);
    const policy = loadPolicy(a.policy);
    const doc = readJsonFile(a.compilation) as Record<string, unknown> | null;
    const file = a.compilation;
    const result = locate(file, 'result', () => readResult(doc?.result, { anyReason: true }));
    const bundle: ContextBundle | null =
      doc?.bundle === undefined || doc.bundle === null
        ? null
        : locate(file, 'bundle', () => readBundle(doc.bundle));
    const problems = validateResult(result, request, candidates);
    if (result.success && bundle === null) problems.push('success without bundle');
    if (bundle !== null) problems.push(...validateBundle(bundle, request, candidates, policy));
    if (problems.length === 0) {
      io.out('valid\n');
      return EXIT.ok;
    }
    for (const p of problems) io.out(`INVALID: ${p}\n`);
    return EXIT.checkFailed;
  },
});
