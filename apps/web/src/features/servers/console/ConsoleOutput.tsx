import { Badge } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renderLines } from './ansi';
import { visibleWindow } from './virtual';

/** Fixed line height (px) so only the lines in view are rendered, however long the buffer. */
export const LINE_HEIGHT = 18;
const OVERSCAN = 20;

interface Props {
  lines: readonly string[];
  /** Scroll to the newest line after each refresh (not while paused). */
  follow: boolean;
}

/**
 * The console text, virtualised: a spacer as tall as every line, and absolutely placed rows for the window in
 * view. A flooding server therefore costs one array copy per 500 ms refresh, not one DOM node per line.
 */
export function ConsoleOutput({ lines, follow }: Props) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: 0 });

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (follow) el.scrollTop = el.scrollHeight;
    setView({ scrollTop: el.scrollTop, height: el.clientHeight });
  }, [lines, follow]);

  const { start, end } = visibleWindow({
    count: lines.length,
    scrollTop: view.scrollTop,
    viewport: view.height || 600,
    lineHeight: LINE_HEIGHT,
    overscan: OVERSCAN,
  });
  const rendered = renderLines(lines.slice(start, end));

  return (
    <div
      ref={scroller}
      // Game output and commands are left-to-right text even in Arabic or Hebrew.
      dir="ltr"
      data-testid="console-output"
      onScroll={(e) =>
        setView({ scrollTop: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })
      }
      style={{
        minHeight: '25em',
        maxHeight: '36em',
        height: '60vh',
        overflow: 'auto',
        position: 'relative',
        fontFamily: 'var(--mantine-font-family-monospace)',
        fontSize: 13,
        background: 'var(--mantine-color-dark-8)',
        color: 'var(--mantine-color-gray-2)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <div style={{ height: lines.length * LINE_HEIGHT + 8, position: 'relative' }}>
        {rendered.map((line, i) => (
          <div
            key={start + i}
            className="console-line"
            style={{
              position: 'absolute',
              top: (start + i) * LINE_HEIGHT + 4,
              left: 8,
              height: LINE_HEIGHT,
              lineHeight: `${LINE_HEIGHT}px`,
              whiteSpace: 'pre',
            }}
          >
            {line.daemon && (
              <Badge size="xs" radius="sm" color="blue" mr={6} data-testid="daemon-tag">
                {t('servers.console.daemon')}
              </Badge>
            )}
            {/* Safe: ansi_up escaped the text; it only adds colour spans and http(s) links. */}
            <span dangerouslySetInnerHTML={{ __html: line.html }} />
          </div>
        ))}
      </div>
    </div>
  );
}
