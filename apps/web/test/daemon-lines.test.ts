import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { daemonMessageLine, daemonMessageTerms, daemonMessages } from '@hearth/contract/daemon-messages';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { localizeLine, type Translate } from '../src/features/servers/console/daemon-lines';
import { copyText, filterLines } from '../src/features/servers/console/console-view';
import { daemonMessageStrings } from '../src/i18n/placeholders';
import { otherLocales } from './helpers/i18n-files';

const locales = join(import.meta.dirname, '../src/i18n/locales');
const read = (code: string): unknown => JSON.parse(readFileSync(join(locales, `${code}.json`), 'utf8'));

async function translator(lng: string): Promise<Translate> {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    fallbackLng: 'en_US',
    interpolation: { escapeValue: false },
    resources: {
      en_US: { translation: { daemonMessages: daemonMessageStrings() } },
      [lng]: { translation: read(lng) as Record<string, unknown> },
    },
  });
  return (key, params) => (i18n.exists(key) ? i18n.t(key, params) : null);
}

const line = (text: string) => `[DAEMON] ${text}`;

describe('daemon lines in the reader’s language (issue 16 item 13)', () => {
  it('shows a coded line in German and Arabic, parameters in place and the DAEMON prefix kept', async () => {
    const running = line(daemonMessageLine('task.running', { name: 'Nightly' }));
    expect(localizeLine(running, await translator('de_DE'))).toBe('[DAEMON] Aufgabe Nightly wird ausgeführt');
    expect(localizeLine(running, await translator('ar_SA'))).toBe('[DAEMON] تشغيل المهمة Nightly');
  });

  it('translates term parameters (the phase) as well', async () => {
    const step = line(
      daemonMessageLine('phase.step', { phase: 'install', index: 1, total: 2, type: 'command' }),
    );
    expect(localizeLine(step, await translator('de_DE'))).toBe(
      '[DAEMON] Installation: Schritt 1/2 (command)',
    );
  });

  it('shows English without the marker for a code this app does not know, and leaves other lines alone', async () => {
    const t = await translator('de_DE');
    const unknown = '[DAEMON] Something new\u001b]7767;hearth;future.code;x=1\u0007';
    expect(localizeLine(unknown, t)).toBe('[DAEMON] Something new');
    expect(localizeLine('[DAEMON] Installing server', t)).toBe('[DAEMON] Installing server');
    const game = 'player said \u001b]7767;hearth;task.running;name=x\u0007';
    expect(localizeLine(game, t)).toBe(game);
  });

  it('has every code in every locale with exactly the parameters of its English wording, and every term id', () => {
    const at = (tree: unknown, path: string): unknown =>
      path
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
    const params = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const wrong: string[] = [];
    for (const code of otherLocales) {
      const messages = at(read(code), 'daemonMessages');
      for (const [key, wording] of Object.entries(daemonMessages)) {
        const want = [...wording.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        const text = at(messages, key);
        if (typeof text !== 'string' || params(text).join() !== want.join()) wrong.push(`${code} ${key}`);
      }
      for (const [param, words] of Object.entries(daemonMessageTerms)) {
        for (const id of Object.keys(words)) {
          const text = at(messages, `terms.${param}.${id}`);
          if (typeof text !== 'string' || !text.trim()) wrong.push(`${code} terms.${param}.${id}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('shows the environment, backup and downloader lines translated, content parameters as written', async () => {
    const de = await translator('de_DE');
    const pull = line(daemonMessageLine('docker.pullLayer', { layer: 'a1b2c3', status: 'Pull complete' }));
    expect(localizeLine(pull, de)).toBe('[DAEMON] Herunterladen: a1b2c3: Pull complete');
    const backup = line(daemonMessageLine('backup.started', { trigger: 'task' }));
    expect(localizeLine(backup, de)).toBe('[DAEMON] Backup gestartet (Aufgabe)');
    const ja = await translator('ja_JP');
    const version = line(daemonMessageLine('minecraft.version', { version: '1.20.4' }));
    expect(localizeLine(version, ja)).toBe('[DAEMON] Minecraft バージョン 1.20.4');
  });

  it('lets search and copy work on the translated text', async () => {
    const t = await translator('de_DE');
    const lines = [line(daemonMessageLine('definition.reloaded', {})), 'game output'].map((l) =>
      localizeLine(l, t),
    );
    expect(filterLines(lines, 'neu geladen')).toEqual(['[DAEMON] Definition neu geladen']);
    expect(copyText(lines)).toBe('[DAEMON] Definition neu geladen\ngame output');
  });
});
