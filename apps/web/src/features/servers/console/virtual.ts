/** Which lines a fixed-line-height scroller must render: the ones in view plus `overscan` either side. */
export function visibleWindow(input: {
  count: number;
  scrollTop: number;
  viewport: number;
  lineHeight: number;
  overscan: number;
}): { start: number; end: number } {
  const { count, scrollTop, viewport, lineHeight, overscan } = input;
  const first = Math.floor(scrollTop / lineHeight);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + Math.ceil(viewport / lineHeight) + overscan);
  return { start, end };
}
