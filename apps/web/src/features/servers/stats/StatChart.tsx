import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { formatDateTime, formatNumber, formatTime } from '../../../i18n/format';
import 'uplot/dist/uPlot.min.css';

interface Props {
  title: string;
  times: number[];
  /** A null is a gap (a step without a sample in the stored history). */
  values: ReadonlyArray<number | null>;
  /** Ticks with the date (the 7 d and 30 d ranges) instead of the clock time alone. */
  longRange?: boolean;
  /** Top of the y axis (at least the minimum). */
  yMax: number;
  unit: string;
  color: string;
  testId: string;
}

const HEIGHT = 220;

/** One uPlot line chart; created once, then fed with setData (cheap) on every point. */
export function StatChart({ title, times, values, yMax, unit, color, testId, longRange = false }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const yMaxRef = useRef(yMax);
  yMaxRef.current = yMax;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 300),
        height: HEIGHT,
        title,
        legend: { show: false },
        scales: { y: { range: () => [0, yMaxRef.current] } },
        // Tick labels in the UI locale (uPlot's own time format is English).
        axes: [
          {
            values: (_u, ticks) =>
              ticks.map((s) => (longRange ? formatDateTime(s * 1000, locale) : formatTime(s * 1000, locale))),
          },
          { values: (_u, ticks) => ticks.map((v) => `${formatNumber(v, locale)} ${unit}`.trim()), size: 70 },
        ],
        series: [{}, { label: title, stroke: color, fill: `${color}22`, width: 2 }],
      },
      [[], []],
      el,
    );
    chart.current = plot;
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(el.clientWidth, 300), height: HEIGHT }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [title, unit, color, locale, longRange]);

  useEffect(() => {
    chart.current?.setData([times, [...values]]);
  }, [times, values, yMax]);

  return <div ref={host} data-testid={testId} data-points={values.join(',')} />;
}
