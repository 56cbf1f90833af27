/** The CLI from the sources, as a process of its own: for tests that signal or kill it. */
import { run } from '../../src/cli/main.js';

process.exitCode = await run(process.argv.slice(2));
