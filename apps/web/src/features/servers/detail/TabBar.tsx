import { Paper, Tabs } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { tinykeys } from 'tinykeys';
import { isTypingTarget } from '../../../app/shell/useShortcuts';
import type { ServerTab, TabId } from '../tabs';

interface Props {
  tabs: ServerTab[];
  value: TabId;
  onChange: (tab: TabId) => void;
}

/**
 * The tab bar, under the header and above the tab's content: one row that scrolls sideways when the tabs do not
 * fit (a phone), so it never wraps into two rows nor floats over what it switches (docs/web.md § Server page).
 * t c, t i, t f, t b, t t, t s, t u, t a switch tabs.
 */
/** The open tab stays in view when the row scrolls (a phone opened on ?tab=users). */
const scrollIntoView = (el: HTMLButtonElement | null) =>
  el?.scrollIntoView({ block: 'nearest', inline: 'nearest' });

export function TabBar({ tabs, value, onChange }: Props) {
  const { t } = useTranslation();
  const change = useRef(onChange);
  useEffect(() => {
    change.current = onChange;
  });
  // Bound again only when the shortcuts themselves change: the page re-renders with every live update (a new
  // `tabs` array each time), and re-binding drops a pending `t` so the `a` of `t a` would go nowhere.
  const signature = tabs.map((tab) => `${tab.shortcut}=${tab.id}`).join('|');
  useEffect(() => {
    const bindings = Object.fromEntries(
      signature
        .split('|')
        .filter((pair) => pair !== '')
        .map((pair) => {
          const [shortcut = '', id = ''] = pair.split('=');
          const handler = (event: KeyboardEvent) => {
            if (isTypingTarget(event.target)) return;
            event.preventDefault();
            change.current(id as TabId);
          };
          return [shortcut, handler];
        }),
    );
    return tinykeys(window, bindings);
  }, [signature]);
  return (
    <Paper withBorder radius="md" px="xs" data-testid="server-tab-bar">
      <Tabs value={value} onChange={(next) => next && onChange(next as TabId)} variant="pills" radius="md">
        <Tabs.List
          grow
          data-testid="server-tabs"
          py={6}
          style={{ flexWrap: 'nowrap', overflowX: 'auto', scrollbarWidth: 'thin' }}
        >
          {tabs.map((tab) => (
            <Tabs.Tab
              key={tab.id}
              value={tab.id}
              data-tab={tab.id}
              title={tab.shortcut}
              style={{ flexShrink: 0 }}
              ref={tab.id === value ? scrollIntoView : undefined}
            >
              {t(tab.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </Paper>
  );
}
