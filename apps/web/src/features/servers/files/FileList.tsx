import { ActionIcon, Anchor, Box, Checkbox, Group, Menu, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { FileEntry } from '@hearth/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../../components/icons';
import { visibleWindow } from '../console/virtual';
import { useFormat } from '../../../i18n/format';
import { isArchive, isParent } from './file-model';

export const ROW_HEIGHT = 44;
const MAX_VIEWPORT = 560;
const OVERSCAN = 8;

export interface RowActions {
  open: (entry: FileEntry) => void;
  downloadUrl: (entry: FileEntry) => string;
  archive?: (entry: FileEntry) => void;
  extract?: (entry: FileEntry) => void;
  remove?: (entry: FileEntry) => void;
  rename?: (entry: FileEntry) => void;
  move?: (entry: FileEntry) => void;
  copy?: (entry: FileEntry) => void;
  permissions?: (entry: FileEntry) => void;
}

interface Props {
  entries: FileEntry[];
  selected: number;
  onSelect: (index: number) => void;
  actions: RowActions;
  /** Names ticked for a bulk action (SelectionBar), and how a tick changes. */
  checked: ReadonlySet<string>;
  onCheck: (name: string, on: boolean) => void;
}

/** The folder listing, virtualized: only the rows in view (plus a few) are in the page, so 10,000 stay smooth. */
export function FileList({ entries, selected, onSelect, actions, checked, onCheck }: Props) {
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = Math.min(MAX_VIEWPORT, Math.max(entries.length, 1) * ROW_HEIGHT);
  const { start, end } = visibleWindow({
    count: entries.length,
    scrollTop,
    viewport,
    lineHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  return (
    <Box
      h={viewport}
      style={{ overflowY: 'auto', position: 'relative' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="file-list"
      data-count={entries.length}
    >
      <div style={{ height: entries.length * ROW_HEIGHT, position: 'relative' }}>
        {entries.slice(start, end).map((entry, i) => (
          <Row
            key={entry.name}
            entry={entry}
            top={(start + i) * ROW_HEIGHT}
            selected={start + i === selected}
            onSelect={() => onSelect(start + i)}
            actions={actions}
            checked={checked.has(entry.name)}
            onCheck={(on) => onCheck(entry.name, on)}
          />
        ))}
      </div>
    </Box>
  );
}

function Row(props: {
  entry: FileEntry;
  top: number;
  selected: boolean;
  onSelect: () => void;
  actions: RowActions;
  checked: boolean;
  onCheck: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const { entry, actions } = props;
  const parent = isParent(entry);
  const action = (label: string, icon: ReactNode, onClick: () => void, testId: string) => (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" aria-label={label} onClick={onClick} data-testid={testId}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Group
      wrap="nowrap"
      gap="sm"
      px="xs"
      h={ROW_HEIGHT}
      onClick={props.onSelect}
      data-testid={`file-row-${entry.name}`}
      data-selected={props.selected || undefined}
      style={{
        position: 'absolute',
        top: props.top,
        left: 0,
        right: 0,
        borderBottom: '1px solid var(--mantine-color-default-border)',
        background: props.selected ? 'var(--mantine-color-default-hover)' : undefined,
      }}
    >
      {parent ? (
        <Box w={20} />
      ) : (
        <Checkbox
          size="xs"
          checked={props.checked}
          onChange={(e) => props.onCheck(e.currentTarget.checked)}
          onClick={(e) => e.stopPropagation()}
          aria-label={t('servers.files.select', { name: entry.name })}
          data-testid="file-check"
        />
      )}
      <Box w={20} c="dimmed" style={{ display: 'inline-flex', justifyContent: 'center' }} aria-hidden>
        <Icon
          name={
            parent ? 'chevronLeft' : entry.isFile ? (isArchive(entry.name) ? 'archive' : 'file') : 'folder'
          }
          size={18}
          data-icon={entry.isFile ? 'file' : 'folder'}
        />
      </Box>
      {/* Two lines that break anywhere, not an ellipsis: at 390 px a name cut to "s…" is unreadable; the full
          name is also the button's title (docs/web.md § Phone width). */}
      <UnstyledButton
        onClick={() => actions.open(entry)}
        style={{ flex: 1, minWidth: 0 }}
        title={parent ? undefined : entry.name}
        data-testid="file-open"
      >
        <Text
          lineClamp={2}
          lh={1.2}
          fz={{ base: 'sm', sm: 'md' }}
          fw={entry.isFile ? 400 : 600}
          style={{ overflowWrap: 'anywhere' }}
        >
          {parent ? t('servers.files.parent') : entry.name}
        </Text>
      </UnstyledButton>
      {!parent && (
        <>
          <Text size="sm" c="dimmed" w={90} ta="end" visibleFrom="xs" data-testid="file-size">
            {entry.isFile ? format.bytes(entry.size) : ''}
          </Text>
          <Text size="sm" c="dimmed" w={170} visibleFrom="sm" data-testid="file-modified">
            {format.dateTime(entry.modifyTime * 1000)}
          </Text>
          {/* Inline icons from the sm breakpoint; the ⋮ menu holds every action at any width (at 390 px the
              only one, so the name keeps the row: docs/web.md § Phone width). */}
          <Group gap={2} wrap="nowrap" justify="flex-end" visibleFrom="sm">
            {entry.isFile && (
              <Tooltip label={t('servers.files.download')}>
                <Anchor
                  href={actions.downloadUrl(entry)}
                  download={entry.name}
                  data-testid="file-download"
                  aria-label={t('servers.files.download')}
                  px={6}
                  style={{ display: 'inline-flex' }}
                >
                  <Icon name="download" size={16} data-icon="download" />
                </Anchor>
              </Tooltip>
            )}
            {actions.extract &&
              entry.isFile &&
              isArchive(entry.name) &&
              action(
                t('servers.files.extract'),
                <Icon name="extract" size={18} data-icon="extract" />,
                () => actions.extract?.(entry),
                'file-extract',
              )}
            {actions.archive &&
              !entry.isFile &&
              action(
                t('servers.files.archive'),
                <Icon name="archive" size={18} data-icon="archive" />,
                () => actions.archive?.(entry),
                'file-archive',
              )}
            {actions.remove &&
              action(
                t('servers.files.delete'),
                <Icon name="trash" size={18} data-icon="trash" />,
                () => actions.remove?.(entry),
                'file-delete',
              )}
          </Group>
          <RowMenu entry={entry} actions={actions} />
        </>
      )}
    </Group>
  );
}

/** Every action of one row, in a ⋮ menu (the only place for them at phone width). */
function RowMenu({ entry, actions }: { entry: FileEntry; actions: RowActions }) {
  const { t } = useTranslation();
  const item = (label: string, icon: IconName, run: ((e: FileEntry) => void) | undefined, testId: string) =>
    run && (
      <Menu.Item leftSection={<Icon name={icon} size={16} />} onClick={() => run(entry)} data-testid={testId}>
        {label}
      </Menu.Item>
    );
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          aria-label={t('servers.files.actionsFor', { name: entry.name })}
          onClick={(e) => e.stopPropagation()}
          data-testid="file-actions"
        >
          <Icon name="dots" size={18} strokeWidth={2.6} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown data-testid="file-actions-items">
        {entry.isFile && (
          <Menu.Item
            component="a"
            href={actions.downloadUrl(entry)}
            download={entry.name}
            leftSection={<Icon name="download" size={16} />}
            data-testid="file-menu-download"
          >
            {t('servers.files.download')}
          </Menu.Item>
        )}
        {item(t('servers.files.rename'), 'pencil', actions.rename, 'file-menu-rename')}
        {item(t('servers.files.move'), 'move', actions.move, 'file-menu-move')}
        {item(t('servers.files.copy'), 'copy', actions.copy, 'file-menu-copy')}
        {item(t('servers.files.permissions'), 'lock', actions.permissions, 'file-menu-permissions')}
        {entry.isFile &&
          isArchive(entry.name) &&
          item(t('servers.files.extract'), 'extract', actions.extract, 'file-menu-extract')}
        {!entry.isFile && item(t('servers.files.archive'), 'archive', actions.archive, 'file-menu-archive')}
        {actions.remove && (
          <Menu.Item
            color="red"
            leftSection={<Icon name="trash" size={16} />}
            onClick={() => actions.remove?.(entry)}
            data-testid="file-menu-delete"
          >
            {t('servers.files.delete')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
