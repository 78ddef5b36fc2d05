import { Badge, Group, Tooltip } from '@mantine/core';
import type { TemplateWarning } from '@hearth/contract/templates-api';
import { useTranslation } from 'react-i18next';

/** Warnings of a template (e.g. processors Hearth does not run yet, named), as badges with the full text. */
export function WarningBadges({ warnings }: { warnings: readonly TemplateWarning[] }) {
  const { t } = useTranslation();
  if (warnings.length === 0) return null;
  return (
    <Group gap={4}>
      {warnings.map((w) => (
        <Tooltip
          key={w.code}
          label={t(`templates.warnings.${w.code}`, { names: (w.names ?? []).join(', ') })}
        >
          <Badge color="yellow" variant="light" data-testid={`warning-${w.code}`}>
            {w.names?.join(', ') ?? t(`templates.warnings.short.${w.code}`)}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}
