/**
 * What a channel carries for an alert event (docs/alerts.md § Payloads): the event itself for `json`, a
 * Discord message (`content` and one embed) or a Slack message (`text`) for those formats, and the e-mail's
 * subject and text. Console lines appear only as the last few lines, each cut short.
 */
import type { AlertEvent, WebhookFormat } from '@hearth/contract';

const DISCORD_MAX = 1900;

function lines(event: AlertEvent): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(event.details)) {
    if (key === 'lines' && Array.isArray(value)) continue;
    out.push(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  if (event.serverId) out.push(`server: ${event.serverId}`);
  if (event.nodeId) out.push(`node: ${event.nodeId}`);
  const consoleLines = event.details.lines;
  if (Array.isArray(consoleLines) && consoleLines.length > 0)
    out.push('', ...consoleLines.slice(-10).map((l) => String(l).slice(0, 200)));
  return out;
}

export function webhookBody(event: AlertEvent, format: WebhookFormat): string {
  if (format === 'json') return JSON.stringify(event);
  const text = `${event.title}\n${lines(event).join('\n')}`;
  if (format === 'discord')
    return JSON.stringify({
      content: text.slice(0, DISCORD_MAX),
      allowed_mentions: { parse: [] },
    });
  return JSON.stringify({ text });
}

export function mailOf(event: AlertEvent): { subject: string; text: string } {
  return {
    subject: `[Hearth] ${event.title}`.slice(0, 200),
    text: [
      event.title,
      '',
      `rule: ${event.rule.name}`,
      `time: ${new Date(event.time).toISOString()}`,
      ...lines(event),
    ].join('\n'),
  };
}
