import { Stack, Text, Title } from '@mantine/core';

/** An Admin tab card's title with its dimmed hint below. */
export function CardHeading({ title, hint, gap }: { title: string; hint: string; gap: number }) {
  return (
    <Stack gap={gap}>
      <Title order={4}>{title}</Title>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}
