import { ActionIcon, Card, Group, Indicator, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tinykeys } from 'tinykeys';
import { isTypingTarget } from '../../../app/shell/useShortcuts';
import { Icon } from '../../../components/icons';
import type { ServerTabProps } from '../tabs/types';
import { loadHistory, pushHistory, stepHistory } from './command-history';
import { ConsoleBuffer } from './console-buffer';
import { ConsoleOutput } from './ConsoleOutput';
import { copyText, filterLines } from './console-view';
import { localizeLine } from './daemon-lines';

/** The view redraws at most every 500 ms, whatever the output rate. */
export const CONSOLE_REFRESH_MS = 500;
/** How long the copy button shows its "copied" state (SPEC: copy confirmation 6000 ms). */
const COPIED_MS = 6000;

/**
 * Console tab: output with ANSI colours and DAEMON tags, pause/resume (c p) with a dot badge
 * when lines arrive while paused, and the command input (c i) for sendServerConsole or admins, with a
 * per-server command history (↑/↓, kept in localStorage, see command-history.ts). A search box shows only the
 * matching lines; copy takes the selected console text, or every shown line (docs/console.md).
 */
export default function ConsoleTab({ server, live, permissions, admin }: ServerTabProps) {
  const { t, i18n } = useTranslation();
  const buffer = useMemo(() => new ConsoleBuffer(), []);
  const [lines, setLines] = useState<string[]>([]);
  const [paused, setPaused] = useState(false);
  const [unseen, setUnseen] = useState(false);
  const [command, setCommand] = useState('');
  const [history, setHistory] = useState(() => loadHistory(window.localStorage, server.id));
  // Position in the history while ↑/↓ browse it (history.length = the line being typed), and that line.
  const [historyIndex, setHistoryIndex] = useState(history.length);
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  // Daemon lines in the reader's language; search and copy then work on what the reader sees.
  const localized = useMemo(() => {
    const translate = (key: string, params: Record<string, string>) =>
      i18n.exists(key) ? t(key, params) : null;
    return lines.map((line) => localizeLine(line, translate));
  }, [lines, t, i18n]);
  const shown = useMemo(() => filterLines(localized, search), [localized, search]);
  const clipboard = useClipboard({ timeout: COPIED_MS });
  const input = useRef<HTMLInputElement>(null);
  const shownVersion = useRef(-1);
  const canSend = admin || permissions.sendServerConsole;
  // Its identity changes only with the source, so the subscription is not redone every render.
  const { subscribeConsole } = live;

  useEffect(
    () => subscribeConsole((event) => buffer.append(event.logs.join(''))),
    [subscribeConsole, buffer],
  );

  useEffect(() => {
    const tick = () => {
      if (buffer.version === shownVersion.current) return;
      if (paused) return setUnseen(true);
      shownVersion.current = buffer.version;
      setLines(buffer.lines());
    };
    tick();
    const timer = setInterval(tick, CONSOLE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [buffer, paused]);

  useEffect(() => {
    const guard = (fn: () => void) => (event: KeyboardEvent) => {
      if (isTypingTarget(event.target)) return;
      event.preventDefault();
      fn();
    };
    return tinykeys(window, {
      'c p': guard(() => setPaused((p) => !p)),
      'c i': guard(() => input.current?.focus()),
    });
  }, []);

  const togglePause = () => {
    setPaused(!paused);
    setUnseen(false);
  };

  const submit = () => {
    if (command.trim() === '') return;
    void live.send({ type: 'console', data: { command } }).catch(() => undefined);
    const next = pushHistory(window.localStorage, server.id, history, command);
    setHistory(next);
    setHistoryIndex(next.length);
    setDraft('');
    setCommand('');
  };

  const copy = () => {
    // A selection inside the output is what the user meant; otherwise the whole (filtered) output.
    const selection = window.getSelection();
    const output = document.querySelector('[data-testid="console-output"]');
    const selected =
      selection && !selection.isCollapsed && output?.contains(selection.anchorNode)
        ? selection.toString()
        : '';
    clipboard.copy(selected || copyText(shown));
  };

  const browse = (direction: -1 | 1) => {
    const typed = historyIndex === history.length ? command : draft;
    const step = stepHistory(history, historyIndex, direction, typed);
    setDraft(typed);
    setHistoryIndex(step.index);
    setCommand(step.text);
  };

  return (
    <Card withBorder radius="md" padding="md" data-testid="console-tab">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{t('servers.console.title')}</Text>
          <Group gap="xs" wrap="nowrap" style={{ flex: 1, justifyContent: 'flex-end', minWidth: 0 }}>
            <TextInput
              size="xs"
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              placeholder={t('servers.console.search')}
              aria-label={t('servers.console.search')}
              leftSection={<Icon name="search" size={14} />}
              data-testid="console-search"
              style={{ flex: 1, maxWidth: 260, minWidth: 0 }}
            />
            <Tooltip label={t(clipboard.copied ? 'common.copied' : 'servers.console.copy')}>
              <ActionIcon
                variant="light"
                onClick={copy}
                aria-label={t('servers.console.copy')}
                data-testid="console-copy"
                data-copied={clipboard.copied}
              >
                <Icon name="copy" size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t(paused ? 'servers.console.resume' : 'servers.console.pause')}>
              <Indicator disabled={!paused || !unseen} color="red" size={10} data-testid="console-new-lines">
                <ActionIcon
                  variant="light"
                  onClick={togglePause}
                  aria-label={t(paused ? 'servers.console.resume' : 'servers.console.pause')}
                  data-testid="console-pause"
                  data-paused={paused}
                >
                  {/* Icons, not the ⏸ and ▶ characters: Debian's Chromium without an emoji font drew ⏸ as a box. */}
                  <Icon name={paused ? 'play' : 'pause'} size={16} />
                </ActionIcon>
              </Indicator>
            </Tooltip>
          </Group>
        </Group>
        {search.trim() !== '' && (
          <Text size="xs" c="dimmed" data-testid="console-matches">
            {t('servers.console.matches', { count: shown.length })}
          </Text>
        )}
        <ConsoleOutput lines={shown} follow={!paused} />
        {canSend && (
          <TextInput
            ref={input}
            value={command}
            onChange={(e) => {
              setCommand(e.currentTarget.value);
              setHistoryIndex(history.length);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') submit();
              if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
                e.preventDefault();
                browse(e.key === 'ArrowUp' ? -1 : 1);
              }
            }}
            placeholder={t('servers.console.commandPlaceholder')}
            aria-label={t('servers.console.command')}
            dir="ltr"
            data-testid="console-command"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        )}
      </Stack>
    </Card>
  );
}
