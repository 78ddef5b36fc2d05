import { Badge, Box, Tooltip } from '@mantine/core';

export type OnlineStatus = 'unknown' | 'online' | 'offline';

const colours: Record<OnlineStatus, string> = {
  online: 'var(--mantine-color-green-6)',
  offline: 'var(--mantine-color-red-6)',
  unknown: 'var(--mantine-color-gray-5)',
};

interface Props {
  status: OnlineStatus;
  /** The translated word for the status (tooltip, badge text and accessible name). */
  label: string;
  /** A bare dot (server header) or a dot with its word (lists). */
  variant?: 'dot' | 'badge';
  testId?: string;
}

/** The online/offline indicator (nodes and servers): green, red, or grey while unknown. */
export function StatusIndicator({ status, label, variant = 'badge', testId }: Props) {
  if (variant === 'badge') {
    const color = status === 'online' ? 'green' : status === 'offline' ? 'red' : 'gray';
    return (
      <Badge color={color} variant="light" data-testid={testId} data-status={status}>
        {label}
      </Badge>
    );
  }
  return (
    <Tooltip label={label}>
      <Box
        role="img"
        aria-label={label}
        data-testid={testId}
        data-status={status}
        w={14}
        h={14}
        style={{
          borderRadius: '50%',
          flexShrink: 0,
          background: colours[status],
          boxShadow: status === 'online' ? '0 0 0 4px var(--mantine-color-green-light)' : undefined,
        }}
      />
    </Tooltip>
  );
}
