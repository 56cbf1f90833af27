/**
 * Vega in Node: a Vega-Lite spec drawn to SVG text at build time, so report.html needs no script
 * library, no network and no clock. The bytes must be the same on every machine: text widths come
 * from Vega's estimate (font size times characters), never from a canvas that would measure with
 * whatever fonts the machine has.
 */
import type { TopLevelSpec } from 'vega-lite';

/**
 * One font and fixed sizes everywhere. The family only says what a browser draws with; the
 * layout is computed from sizes alone (see `textMetrics` below), so it cannot vary by machine.
 */
const CONFIG = {
  font: 'DejaVu Sans, Verdana, sans-serif',
  background: 'white',
  axis: { labelFontSize: 11, titleFontSize: 11, labelLimit: 160 },
  legend: { labelFontSize: 11, titleFontSize: 11 },
  header: { labelFontSize: 11, titleFontSize: 11 },
  title: { fontSize: 13, anchor: 'start' },
} as const;

/**
 * Vega and Vega-Lite, loaded when the first chart is drawn: they take most of a second to load,
 * which every command that reaches the report folder without drawing (compare, verify, findings)
 * should not pay.
 */
const renderer = async () => {
  const [vega, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  // What `vega` exports beyond its typings: the switch between canvas and estimated text widths.
  const { textMetrics } = vega as unknown as { textMetrics: { canvas(use: boolean): void } };
  return { vega, compile, textMetrics };
};

/** Renders wait for one another: SVG definition ids come from one module-wide counter. */
let queue: Promise<unknown> = Promise.resolve();

/** One Vega-Lite spec as SVG text, the same bytes on every machine and every call. */
export function renderSvg(spec: TopLevelSpec): Promise<string> {
  const render = async () => {
    const { vega, compile, textMetrics } = await renderer();
    textMetrics.canvas(false);
    vega.resetSVGDefIds();
    const quiet = vega.logger(vega.Error);
    const compiled = compile({ ...spec, config: CONFIG }, { logger: quiet }).spec;
    const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
    try {
      return await view.toSVG();
    } finally {
      view.finalize();
    }
  };
  const next = queue.then(render);
  queue = next.catch(() => undefined);
  return next;
}
