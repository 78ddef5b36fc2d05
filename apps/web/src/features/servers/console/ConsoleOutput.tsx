import { Badge, Button } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icons';
import { renderLines } from './ansi';
import { atBottom } from './console-view';
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
 * Scrolling up stops following new lines until the user scrolls back down or presses "Jump to bottom"
 * (issue 16 item 21, docs/console.md).
 */
export function ConsoleOutput({ lines, follow }: Props) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ scrollTop: 0, height: 0 });
  // Whether the user is reading the end; only scrolling changes it, never new output.
  const [stuck, setStuck] = useState(true);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (follow && stuck) el.scrollTop = el.scrollHeight;
    setView({ scrollTop: el.scrollTop, height: el.clientHeight });
  }, [lines, follow, stuck]);

  const { start, end } = visibleWindow({
    count: lines.length,
    scrollTop: view.scrollTop,
    viewport: view.height || 600,
    lineHeight: LINE_HEIGHT,
    overscan: OVERSCAN,
  });
  const rendered = renderLines(lines.slice(start, end));

  const jump = () => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
    setStuck(true);
  };

  return (
    <div style={{ position: 'relative' }}>
      <div
        ref={scroller}
        // Game output and commands are left-to-right text even in Arabic or Hebrew.
        dir="ltr"
        data-testid="console-output"
        data-following={stuck}
        onScroll={(e) => {
          const el = e.currentTarget;
          setView({ scrollTop: el.scrollTop, height: el.clientHeight });
          setStuck(atBottom(el));
        }}
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
              {/* A daemon line may be in the reader's language (Arabic, Hebrew): its own direction. */}
              <span dir={line.daemon ? 'auto' : undefined} dangerouslySetInnerHTML={{ __html: line.html }} />
            </div>
          ))}
        </div>
      </div>
      {!stuck && (
        <Button
          size="xs"
          radius="xl"
          onClick={jump}
          leftSection={<Icon name="download" size={14} />}
          data-testid="console-jump-bottom"
          style={{ position: 'absolute', bottom: 12, insetInlineEnd: 20 }}
        >
          {t('servers.console.jumpToBottom')}
        </Button>
      )}
    </div>
  );
}
