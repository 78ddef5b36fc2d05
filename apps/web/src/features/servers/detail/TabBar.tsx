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

/** The bottom tab bar: sticks above the footer; t c, t i, t f, t b, t t, t s, t u, t a switch tabs. */
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
    <Paper
      withBorder
      shadow="sm"
      radius="md"
      px="xs"
      style={{ position: 'sticky', bottom: 'calc(var(--app-shell-footer-offset, 0px) + 8px)', zIndex: 5 }}
    >
      <Tabs value={value} onChange={(next) => next && onChange(next as TabId)} variant="pills" radius="md">
        <Tabs.List grow data-testid="server-tabs" py={6}>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.id} value={tab.id} data-tab={tab.id} title={tab.shortcut}>
              {t(tab.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </Paper>
  );
}
