// A uPlot canvas that follows its container's width and the theme. uPlot draws; React only owns the element.
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { useTheme } from '../lib/theme';

/** The axes' text and grid lines in the theme's colours, read from the page's palette (a canvas cannot read CSS). */
function themedAxes(axes: uPlot.Axis[] | undefined): uPlot.Axis[] | undefined {
  const style = getComputedStyle(document.documentElement);
  const text = style.getPropertyValue('--color-slate-500').trim();
  const grid = style.getPropertyValue('--color-slate-200').trim();
  return axes?.map((axis) => ({
    ...axis,
    stroke: text,
    ...(axis.grid?.show !== false && { grid: { ...axis.grid, stroke: grid } }),
  }));
}

type UPlotChartProps = {
  options: Omit<uPlot.Options, 'width'>;
  data: uPlot.AlignedData;
  /** The index of the point under the pointer, or null when it leaves the chart. */
  onHover?: (index: number | null) => void;
};

export function UPlotChart({ options, data, onHover }: UPlotChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const hover = useRef(onHover);
  hover.current = onHover;
  const { theme } = useTheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a theme switch changes the palette the axes read.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const hooks = { setCursor: [(chart: uPlot) => hover.current?.(chart.cursor.idx ?? null)] };
    const themed = { ...options, axes: themedAxes(options.axes) };
    const chart = new uPlot({ ...themed, hooks, width: element.clientWidth || 600 }, data, element);
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: options.height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [options, data, theme]);
  return <div ref={container} aria-hidden="true" className="w-full" />;
}

/** Bars for day-aligned series; x values are UTC midnights in seconds, labelled as the learner's dates. */
export function barOptions(
  height: number,
  series: { label: string; color: string }[],
  formatDate: (seconds: number) => string,
): Omit<uPlot.Options, 'width'> {
  const bars = uPlot.paths.bars?.({ size: [0.7, 24], gap: 1 });
  return {
    height,
    legend: { show: false },
    cursor: { show: true, points: { show: false }, drag: { x: false, y: false } },
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    // Half a day either side, so the first and last bars are drawn whole.
    scales: {
      x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
      y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
    },
    axes: [
      {
        grid: { show: false },
        ticks: { show: false },
        font: '11px system-ui, sans-serif',
        // Whole days only, named in the user's language.
        incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400],
        values: (_u, splits) => splits.map(formatDate),
      },
      {
        grid: { width: 1 },
        ticks: { show: false },
        size: 36,
        font: '11px system-ui, sans-serif',
        incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      },
    ],
    series: [
      {},
      ...series.map(({ label, color }) => ({
        label,
        fill: color,
        stroke: color,
        width: 0,
        points: { show: false },
        ...(bars && { paths: bars }),
      })),
    ],
  };
}
