import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatPence } from '../../../../contract/money';

export interface TimeSeries {
  /** Bucket starts, epoch seconds (uPlot's unit). */
  times: number[];
  tickets: number[];
  revenuePence: number[];
}

const HEIGHT = 260;

const ukDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Europe/London' });
const ukHour = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});

function optionsFor(width: number, bucket: 'hour' | 'day'): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    // Axis labels in UK time whatever the admin's device says, as the buckets are.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Europe/London'),
    scales: {
      tickets: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      gbp: { range: (_u, _min, max) => [0, Math.max(100, max)] },
    },
    series: [
      { value: bucket === 'hour' ? '{D} {MMM} {HH}:00' : '{D} {MMM} {YYYY}' },
      {
        label: 'Tickets sold',
        scale: 'tickets',
        stroke: '#0b2545',
        fill: 'rgba(11, 37, 69, 0.25)',
        paths: uPlot.paths.bars?.({ size: [0.6, 40] }),
        value: (_u, v) => (v == null ? '–' : v.toLocaleString('en-GB')),
      },
      {
        label: 'Revenue',
        scale: 'gbp',
        stroke: '#c99400',
        width: 2,
        value: (_u, v) => (v == null ? '–' : formatPence(v)),
      },
    ],
    axes: [
      // UK dates on the time axis ('28 Nov', '14:00'), not uPlot's American month/day.
      {
        values: (_u, ticks) =>
          ticks.map((t) => (bucket === 'hour' ? ukHour : ukDay).format(new Date(t * 1000))),
      },
      { scale: 'tickets', label: 'Tickets' },
      {
        scale: 'gbp',
        side: 1,
        label: 'Revenue',
        values: (_u, ticks) => ticks.map(formatPence),
        grid: { show: false },
      },
    ],
  };
}

/** Tickets (bars) and revenue (line) per bucket, drawn by uPlot; data changes redraw in place. */
export function TimeSeriesChart({
  series,
  bucket,
  title,
}: {
  series: TimeSeries;
  bucket: 'hour' | 'day';
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data: uPlot.AlignedData = [series.times, series.tickets, series.revenuePence];

  // biome-ignore lint/correctness/useExhaustiveDependencies: the chart is rebuilt only when its axes change; data updates below
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = new uPlot(optionsFor(el.clientWidth || 600, bucket), data, el);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth || 600, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [bucket]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `data` is derived from `series`
  useEffect(() => {
    plot.current?.setData(data);
  }, [series]);

  return <div ref={box} role="img" aria-label={title} data-testid="sales-time-chart" />;
}
