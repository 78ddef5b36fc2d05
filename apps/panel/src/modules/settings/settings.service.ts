import { AppError } from '@hearth/contract';
import {
  isPanelSettingKey,
  panelSettingKeys,
  panelSettingSchemas,
  secretSettingKeys,
  type PanelSettingKey,
} from '@hearth/contract/settings';
import { issueToAppError } from '../../plugins/validation';
import type { PanelConfig } from '../../config/schema';
import { dataDir } from '../../lib/paths';
import { SecretsAtRest } from '../../lib/secrets-at-rest';
import type { SettingsRepository } from './settings.repository';
import type { ActivityService } from '../activity/activity.service';

export type SettingValue = string | boolean;

/** The activity log keeps 90 days unless an admin sets otherwise (docs/activity.md § Retention). */
export const ACTIVITY_RETENTION_DAYS = 90;

/** The config file's value for each setting: the default until someone saves it through the API. */
function configDefault(config: PanelConfig, key: PanelSettingKey): SettingValue {
  const [, section, name] = key.split('.') as [string, string, string | undefined];
  if (key === 'panel.registrationEnabled') return config.panel.registrationEnabled;
  if (key === 'panel.activity.retentionDays') return String(ACTIVITY_RETENTION_DAYS);
  if (key === 'panel.alerts.allowPrivateTargets') return false;
  if (section === 'settings' && name)
    return config.panel[name as 'masterUrl' | 'companyName' | 'defaultTheme' | 'defaultLocale'];
  return config.email[name as keyof PanelConfig['email']] ?? '';
}

export type EffectiveSettings = Record<PanelSettingKey, SettingValue>;

/**
 * Panel settings: the DB value overrides the config file's default (so edits survive restarts). The mail
 * provider's password and keys are stored sealed (docs/security.md § Secrets at rest); a clear value from before
 * is read as it is and sealed on its next write.
 */
export class SettingsService {
  private readonly secrets: SecretsAtRest;

  constructor(
    private readonly repo: SettingsRepository,
    private readonly config: PanelConfig,
    private readonly activity?: ActivityService,
  ) {
    this.secrets = new SecretsAtRest(dataDir(config));
  }

  async effective(): Promise<EffectiveSettings> {
    const stored = await this.repo.all();
    const result = {} as EffectiveSettings;
    for (const key of panelSettingKeys) {
      const value = stored.get(key);
      if (typeof value === 'string' && secretSettingKeys.includes(key))
        result[key] = this.secrets.open(value);
      else
        result[key] =
          typeof value === 'string' || typeof value === 'boolean' ? value : configDefault(this.config, key);
    }
    return result;
  }

  /** The API view of one setting: secrets read back as `""`. */
  async read(key: string): Promise<SettingValue> {
    if (!isPanelSettingKey(key)) throw new AppError('ErrUnknownSetting', { key });
    if (secretSettingKeys.includes(key)) return '';
    return (await this.effective())[key];
  }

  /** Validates every entry first, then writes them: a bad entry changes nothing. */
  async write(entries: Record<string, unknown>, fieldOf: (key: string) => string = (k) => k): Promise<void> {
    const parsed: Array<readonly [string, unknown]> = [];
    for (const [key, raw] of Object.entries(entries)) {
      if (!isPanelSettingKey(key)) throw new AppError('ErrUnknownSetting', { key });
      const result = panelSettingSchemas[key].safeParse(raw, { reportInput: true });
      if (!result.success) {
        const issue = result.error.issues[0];
        throw issue
          ? issueToAppError({ ...issue, path: [fieldOf(key)] })
          : new AppError('ErrFieldInvalid', { field: fieldOf(key) });
      }
      if (secretSettingKeys.includes(key) && result.data === '') continue;
      const value = result.data;
      parsed.push([
        key,
        secretSettingKeys.includes(key) && typeof value === 'string' ? this.secrets.seal(value) : value,
      ]);
    }
    await this.repo.setMany(parsed);
    // Secret values are never recorded: only that they changed (docs/activity.md).
    const isSecret = (key: string) => secretSettingKeys.includes(key as PanelSettingKey);
    const changes = Object.fromEntries(parsed.filter(([key]) => !isSecret(key)));
    const secrets = parsed.map(([key]) => key).filter(isSecret);
    if (parsed.length > 0)
      await this.activity?.here('settings.changed', { details: { changes, withheld: secrets } });
  }
}
