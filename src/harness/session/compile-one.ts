/** One compilation by any strategy, as the `compile` command prints it. */
import {
  bundleToJSON,
  type CompilationResult,
  type ContextBundle,
  compileContext,
  renderBundleText,
  resultToJSON,
} from '../../compiler/index.js';
import { checkCompilation, problemText, rememberCompilerRun } from '../audit/index.js';
import { auditTokens, type InputFiles, located } from '../corpus/index.js';
import type { StrategyHosts } from '../hosts/index.js';
import { type Inputs, strategyInput } from '../hosts/index.js';
import type { Compiled, HostedStrategy, RealTokens, StrategyRef } from '../types.js';
import { compileAnswer } from './measure-answer.js';

/**
 * The `compile` command's output object: bundle, v2 result, rendered text, validation, and what
 * the strategy reported beside its selection (`exact`'s certificate, say; the compiler reports
 * nothing).
 */
export interface CompilationJSON {
  readonly bundle: unknown;
  readonly result: unknown;
  readonly rendered_text: string | null;
  readonly validation: { readonly valid: boolean; readonly problems: readonly string[] };
  /** The rendered text as real tokenizers count it; null without a bundle. */
  readonly real_tokens: RealTokens | null;
  readonly extras: Readonly<Record<string, unknown>>;
  /** `"own"` when the strategy laid the bundle out in its own order; absent otherwise. */
  readonly layout?: 'own';
}

export async function compilationJSON(
  bundle: ContextBundle | null,
  result: CompilationResult,
  inputs: Inputs,
  extras: Readonly<Record<string, unknown>> = {},
  layout?: 'own',
): Promise<CompilationJSON> {
  const rendered_text = bundle ? renderBundleText(bundle, inputs.policy.frame) : null;
  // Sent to the counter first: it counts while this thread checks the compilation.
  const real_tokens = rendered_text === null ? null : auditTokens(rendered_text);
  const problems = checkCompilation({ bundle, result, rendered_text, layout }, inputs).map(problemText);
  return {
    bundle: bundle ? bundleToJSON(bundle) : null,
    result: resultToJSON(result),
    rendered_text,
    validation: { valid: problems.length === 0, problems },
    real_tokens: await real_tokens,
    extras,
    ...(layout === 'own' ? { layout } : {}),
  };
}

/**
 * The strategy `compile` runs: the compiler as the package's own engine, in this process; any
 * other loaded in a process of its own, which says what it is.
 */
export async function compileStrategy(ref: StrategyRef, hosts: StrategyHosts): Promise<HostedStrategy> {
  if (ref.name === ENGINE) return { ...ref, description: 'the Context Compiler', readsLedger: false };
  return (await hosts.describe([ref]))[0] as HostedStrategy;
}

const ENGINE = 'compiler';

/** One compilation by a strategy in a process of its own; `key` names the inputs it shares. */
export async function compileHosted(
  hosts: StrategyHosts,
  strategy: HostedStrategy,
  key: string,
  inputs: Inputs,
): Promise<Compiled> {
  const answer = await hosts.ask(strategy, key, inputs);
  return compileAnswer(strategy.name, strategyInput(strategy, inputs), answer);
}

/**
 * One compilation by a strategy. The compiler's own result is taken as the engine wrote it, in
 * this process (it is the package's own code); any other strategy answers from its own process,
 * and the harness builds the result from its selection; an error row becomes `{error}`.
 */
export async function compileOne(
  strategy: HostedStrategy,
  inputs: Inputs,
  files: InputFiles,
  hosts: StrategyHosts,
  key: string,
): Promise<CompilationJSON | { readonly error: string }> {
  if (strategy.name === ENGINE) {
    const out = located(files, () => compileContext(inputs.request, inputs.candidates, inputs.policy));
    rememberCompilerRun(inputs, out);
    return await compilationJSON(out.bundle, out.result, inputs);
  }
  const compiled = await compileHosted(hosts, strategy, key, inputs);
  if (compiled.outcome === 'error') return { error: compiled.message };
  return await compilationJSON(
    compiled.outcome === 'bundle' ? compiled.bundle : null,
    compiled.record,
    inputs,
    compiled.extras,
    compiled.outcome === 'bundle' ? compiled.layout : undefined,
  );
}
