/**
 * The figures of the isolation suite (hostile.test.ts), read back from its run folders, for
 * docs/reliability.md: how many routes to another process the attacking plug-ins tried, and how
 * many were closed; the same for the routes to the ledger; how many plug-ins broke the protocol,
 * and how many had a text cut. A plug-in
 * that attacks throws its outcomes as `attack: {route: outcome}`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HOSTILE } from './plugins.js';
import { rowsOf } from './project.js';

/** What a closed route ends in: the permission model's refusal or ours, or the route gone. */
export const CLOSED =
  /^(ERR_ACCESS_DENIED|GONE|Cannot redefine property: (kill|setPriority)|Cannot delete property '_kill'.*)$/;

/**
 * What a closed route to the ledger ends in: the permission model's refusal, or, for a file the
 * build would have carried into dist/, no such file.
 */
export const LEDGER_CLOSED = /ERR_ACCESS_DENIED|^ENOENT$|^ERR_MODULE_NOT_FOUND$/;

/** Route -> outcome, as one cell of `name` in the run folder `tmp/out` reported them. */
export function attacksOf(tmp: string, out: string, name: string): Map<string, string> {
  const row = rowsOf(path.join(tmp, out)).find((r) => r.strategy === name) as
    | { extras: { error?: string } }
    | undefined;
  const text = String(row?.extras.error ?? '');
  const at = text.indexOf('attack: ');
  if (at < 0) return new Map();
  return new Map(Object.entries(JSON.parse(text.slice(at + 'attack: '.length)) as Record<string, string>));
}

/**
 * The suite's figures: plug-ins; routes tried and closed by the attacking ones; plug-ins whose
 * forged protocol messages stopped their process; plug-ins a text of whose was cut.
 */
export function isolationFigures(tmp: string, out = 'one') {
  const attacks = ['zz-signals', 'zz-inspector'].flatMap((n) => [...attacksOf(tmp, out, n).values()]);
  const rows = rowsOf(path.join(tmp, out));
  const lines = fs
    .readFileSync(path.join(tmp, out, 'compilations.jsonl'), 'utf8')
    .trim()
    .split('\n');
  const having = (texts: readonly string[], match: RegExp) =>
    new Set(texts.filter((t) => match.test(t)).map((t) => String(JSON.parse(t).strategy))).size;
  const peek = rows.find((r) => r.strategy === 'zz-peek') as { extras: { attempts?: object } } | undefined;
  const ledger = Object.values(peek?.extras.attempts ?? {}).map(String);
  return {
    plugins: Object.keys(HOSTILE).length,
    ledgerTried: ledger.length,
    ledgerClosed: ledger.filter((o) => LEDGER_CLOSED.test(o)).length,
    routesTried: attacks.length,
    routesClosed: attacks.filter((o) => CLOSED.test(o)).length,
    breaches: having(
      rows.map((r) => JSON.stringify(r)),
      /process broke the protocol/,
    ),
    cut: having([...rows.map((r) => JSON.stringify(r)), ...lines], / …\[\d+ more characters cut\]/),
  };
}
