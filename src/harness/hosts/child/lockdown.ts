/**
 * What a strategy's process takes away from itself before the strategy's module loads: every
 * route JavaScript has to another process. Node 20's permission model (from the built package)
 * already refuses child processes, workers (so cluster too), native addons, `process.binding`
 * and the inspector (opening it or a session), but not signals (`process.kill`, and
 * `process._debugProcess`, which turns on another process's inspector), priorities
 * (`os.setPriority` on the parent's pid or a sibling's) nor the network (a port on 127.0.0.1
 * reaches any local process). Each replacement is non-writable and non-configurable, so the
 * strategy cannot put the original back.
 *
 * Builtins cannot be refused at `import`: a resolve hook needs a worker thread, which the
 * permission model refuses. A builtin is one object per process, shared by `import`, `require`
 * and `process.getBuiltinModule`, so the modules that open sockets have their functions replaced
 * in place, and their ES module views synced. http, https, http2, tls and fetch open their
 * sockets through net's, so they are closed with it.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';

/** The builtins whose every function is replaced: sockets of every kind, name lookups, the inspector. */
const NEUTERED = ['net', 'dgram', 'dns', 'dns/promises', 'inspector', 'inspector/promises'];

/**
 * The functions of other builtins that take a process id: a priority set on the parent or a
 * sibling slows it, and one read probes whether a pid is alive, as a signal 0 would. No other
 * function of `os` or `process` (whose `kill` goes below) takes a pid.
 */
const PID_FUNCTIONS: Readonly<Record<string, readonly string[]>> = { os: ['setPriority', 'getPriority'] };

/** Methods that connect, bind or listen a socket or a handle, on whatever prototype holds them. */
const SOCKET_METHODS = ['connect', 'connect6', 'bind', 'bind6', 'listen', 'open', 'send', 'addMembership'];

/** The error every closed route throws, with the code the permission model's refusals carry. */
export function refusal(what: string): Error {
  return Object.assign(new Error(`${what} is not available to a strategy`), { code: 'ERR_ACCESS_DENIED' });
}

const denied = (what: string) =>
  function refused(): never {
    throw refusal(what);
  };

function pin(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: false, configurable: false, enumerable: false });
}

/**
 * Close every route. `streams` are the sockets this process already holds (its stdout, stderr
 * and channel), opened before: their class and handle could open a socket anywhere, so the
 * connecting methods of their prototypes go, and writing, which they exist for, stays.
 */
export function lockDown(streams: readonly object[]): void {
  // Signals: process.kill calls process._kill, so both go.
  for (const key of ['kill', '_kill', '_debugProcess', '_debugEnd', 'dlopen'])
    pin(process, key, denied(`process.${key}`));
  const require = createRequire(import.meta.url);
  const classes: object[] = [];
  // All loaded before any is changed: inspector/promises is built from inspector's functions.
  const modules = NEUTERED.map((id) => [id, require(`node:${id}`) as Record<string, unknown>] as const);
  for (const [id, exports] of modules) {
    for (const key of Object.keys(exports)) {
      const value = exports[key];
      if (typeof value !== 'function') continue;
      if (typeof value.prototype === 'object' && value.prototype !== null) classes.push(value.prototype);
      pin(exports, key, denied(`node:${id}.${key}`));
    }
    Object.freeze(exports);
  }
  for (const [id, keys] of Object.entries(PID_FUNCTIONS)) {
    const exports = require(`node:${id}`) as object;
    for (const key of keys) pin(exports, key, denied(`node:${id}.${key}`));
  }
  syncBuiltinESMExports();
  for (const s of streams) {
    classes.push(Object.getPrototypeOf(s));
    const handle = (s as { _handle?: unknown })._handle;
    if (typeof handle === 'object' && handle !== null) classes.push(Object.getPrototypeOf(handle));
  }
  for (const proto of classes)
    for (let p = proto; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p))
      for (const key of SOCKET_METHODS)
        if (Object.getOwnPropertyDescriptor(p, key)?.configurable === true) pin(p, key, denied(`${key}`));
  // fetch and WebSocket reach net through Node's own copy of undici; gone all the same.
  for (const key of ['fetch', 'WebSocket', 'EventSource'])
    if (Object.getOwnPropertyDescriptor(globalThis, key)?.configurable === true)
      pin(globalThis, key, undefined);
}
