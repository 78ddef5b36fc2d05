import { useComputedColorScheme, useMantineTheme } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { formatDateTime, formatNumber, formatTime } from '../../../i18n/format';
import 'uplot/dist/uPlot.min.css';

interface Props {
  title: string;
  times: number[];
  /** A null is a gap (no sample: before the page opened, or a step the stored history lacks). */
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
/**
 * Least room between two x ticks, in CSS pixels: uPlot picks fewer ticks when the chart is narrow, so a clock time
 * ("21:47:38", a date and time on the long ranges) never runs into the next one, at 390 px wide too.
 */
const X_TICK_SPACE = { time: 90, dateTime: 150 } as const;

/** One uPlot line chart; created once per look (title, unit, theme, locale), then fed with setData on every point. */
export function StatChart({ title, times, values, yMax, unit, color, testId, longRange = false }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const theme = useMantineTheme();
  // uPlot paints on a canvas, which CSS colours do not reach: the axes take the theme's text and border colours.
  const dark = useComputedColorScheme('light') === 'dark';
  const textColor = dark ? theme.colors.dark[0] : theme.black;
  const gridColor = dark ? theme.colors.dark[4] : theme.colors.gray[3];
  const yMaxRef = useRef(yMax);
  yMaxRef.current = yMax;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const axis = { stroke: textColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor } };
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 240),
        height: HEIGHT,
        title,
        legend: { show: false },
        scales: { y: { range: () => [0, yMaxRef.current] } },
        // Tick labels in the UI locale (uPlot's own time format is English).
        axes: [
          {
            ...axis,
            space: longRange ? X_TICK_SPACE.dateTime : X_TICK_SPACE.time,
            values: (_u, ticks) =>
              ticks.map((s) => (longRange ? formatDateTime(s * 1000, locale) : formatTime(s * 1000, locale))),
          },
          {
            ...axis,
            values: (_u, ticks) => ticks.map((v) => `${formatNumber(v, locale)} ${unit}`.trim()),
            size: 70,
          },
        ],
        series: [{}, { label: title, stroke: color, fill: `${color}22`, width: 2 }],
      },
      [[], []],
      el,
    );
    chart.current = plot;
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(el.clientWidth, 240), height: HEIGHT }),
    );
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, [title, unit, color, locale, longRange, textColor, gridColor]);

  useEffect(() => {
    chart.current?.setData([times, [...values]]);
  }, [times, values, yMax, textColor]);

  return (
    <div
      ref={host}
      data-testid={testId}
      data-points={values.map((v) => (v === null ? '' : v)).join(',')}
      data-y-max={yMax}
      data-axis-color={textColor}
      style={{ color: textColor }}
    />
  );
}
