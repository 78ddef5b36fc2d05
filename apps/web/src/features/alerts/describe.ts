/** A rule's condition and channel in words, for the list (docs/alerts.md § Rules). */
import type { AlertChannel, AlertCondition } from '@hearth/contract';
import type { TFunction } from 'i18next';
import { formatNumber } from '../../i18n/format';

export function describeCondition(condition: AlertCondition, t: TFunction): string {
  const n = (value: number) => formatNumber(value);
  switch (condition.type) {
    case 'crashLoop':
      return t('alerts.summary.crashLoop', { crashes: n(condition.count), minutes: n(condition.minutes) });
    case 'cpuAbove':
    case 'memoryAbove':
    case 'diskAbove':
      return t(`alerts.summary.${condition.type}`, {
        threshold: n(condition.threshold),
        minutes: n(condition.minutes),
      });
    case 'serverEmpty':
      return t('alerts.summary.serverEmpty', { minutes: n(condition.minutes) });
    case 'consoleMatch':
      return t(condition.mode === 'glob' ? 'alerts.summary.consoleGlob' : 'alerts.summary.consoleMatch', {
        pattern: condition.pattern,
      });
    case 'crash':
    case 'nodeOffline':
    case 'nodeOnline':
    case 'backupFailed':
      return t(`alerts.summary.${condition.type}`);
  }
}

/** The host of a webhook URL (the whole URL is in the dialog; paths often hold the receiver's token). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function describeChannel(channel: AlertChannel, t: TFunction): string {
  return channel.kind === 'webhook'
    ? t('alerts.channelTo.webhook', {
        host: hostOf(channel.url),
        format: t(`alerts.formats.${channel.format}`),
      })
    : t('alerts.channelTo.email', { to: channel.to });
}
