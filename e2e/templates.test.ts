/**
 * Template screens in Chromium against the real panel: build a template
 * from scratch, JSON view round trip, save and reload, the variable name rule, environment rules, the 1.x
 * conversion prompt, and importing from the list.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { createFirstAdmin, type Account } from './helpers/panel';

const canRun = browserAvailable('template screens');
const V1_SAMPLE = '/work/shared/corpus/pufferpanel-templates/v1/minecraft-vanilla.json';

describe.runIf(canRun)('template screens in Chromium against the real panel', () => {
  let suite: BrowserSuite;
  let admin: Account;

  const open = (path: string) => suite.open(admin, path);

  async function apiGet<T>(path: string): Promise<T> {
    const res = await fetch(`${suite.panel.url}${path}`, {
      headers: { authorization: `Bearer ${admin.session}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
  });

  afterAll(() => suite?.close());

  const dialog = (page: Page) => page.getByRole('dialog');
  const card = (page: Page, id: string) => page.getByTestId(id);

  async function choose(page: Page, field: Locator, option: string): Promise<void> {
    await field.click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  async function switchMode(page: Page, mode: 'Editor' | 'JSON'): Promise<void> {
    await page.getByTestId('editor-mode').getByText(mode, { exact: true }).click();
  }

  /** Replaces the JSON view's text the way a user pastes. */
  async function pasteJson(page: Page, text: string): Promise<void> {
    const content = page.locator('[data-testid="json-view"] .cm-content');
    await content.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  it('builds a template from scratch, survives JSON and back, saves, reloads and deletes', async () => {
    const page = await open('/addtemplate');
    await page.getByLabel('Name', { exact: true }).fill('echo-test');
    await page.getByLabel('Display name', { exact: true }).fill('Echo test');
    await page.getByLabel('Type', { exact: true }).fill('echo');
    await page
      .getByLabel('Readme', { exact: true })
      .fill('# Echo\n\n<script>window.pwned=1</script> **bold**');
    await page.getByTestId('readme-preview').getByRole('heading', { name: 'Echo' }).waitFor();
    expect(await page.getByTestId('readme-preview').innerText()).toContain('<script>window.pwned=1</script>');

    await card(page, 'variables').getByRole('button', { name: 'Add variable' }).click();
    await dialog(page).getByLabel('Name', { exact: true }).fill('port');
    await dialog(page).getByLabel('Display name').fill('Port');
    await choose(page, dialog(page).getByLabel('Type', { exact: true }), 'Number');
    await dialog(page).getByLabel('Default value').fill('27015');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await card(page, 'variables').getByText('Port (port)').waitFor();

    await card(page, 'install').getByRole('button', { name: 'Add step' }).click();
    await dialog(page).getByLabel('Commands Add').fill('echo installed');
    await dialog(page).getByLabel('Commands Add').press('Enter');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await card(page, 'install').getByText('command: echo installed').waitFor();

    await card(page, 'run').getByLabel('Command', { exact: true }).fill('sleep 100');
    await card(page, 'run').getByLabel('Working directory').fill('game');
    await card(page, 'shutdown').getByLabel('Stop command').fill('quit');
    await page.getByTestId('env-vars').getByRole('button', { name: 'Add' }).click();
    await page.getByLabel('Name 1').fill('GREETING');
    await page.getByLabel('Value 1').fill('hello');
    await card(page, 'environments').getByRole('button', { name: 'Add environment' }).click();
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await card(page, 'environments').getByText('Standard', { exact: true }).waitFor();

    await switchMode(page, 'JSON');
    await page.locator('[data-testid="json-view"] .cm-content').waitFor();
    await switchMode(page, 'Editor');
    await expectBuiltTemplate(page);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Template saved').waitFor();
    await page.waitForURL('**/template/echo-test');
    const stored = await apiGet<Record<string, unknown>>('/api/templates/echo-test');
    expect(stored).toMatchObject({
      name: 'echo-test',
      display: 'Echo test',
      type: 'echo',
      data: { port: { display: 'Port', type: 'integer', value: 27015 } },
      install: [{ type: 'command', commands: ['echo installed'] }],
      run: {
        command: 'sleep 100',
        workingDirectory: 'game',
        stop: 'quit',
        environmentVars: { GREETING: 'hello' },
      },
      environment: { type: 'standard' },
      supportedEnvironments: [{ type: 'standard' }],
    });

    await page.reload();
    await expectBuiltTemplate(page);
    await screenshot(page, 'template-editor');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog(page).getByRole('button', { name: 'Delete template' }).click();
    await page.waitForURL('**/template');
    await page.getByText('Template deleted').waitFor();
    expect(await apiGet<unknown[]>('/api/templates')).toEqual([]);
  });

  async function expectBuiltTemplate(page: Page): Promise<void> {
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('echo-test');
    expect(await page.getByLabel('Display name', { exact: true }).inputValue()).toBe('Echo test');
    await card(page, 'variables').getByText('Port (port)').waitFor();
    await card(page, 'install').getByText('command: echo installed').waitFor();
    expect(await card(page, 'run').getByLabel('Command', { exact: true }).inputValue()).toBe('sleep 100');
    expect(await card(page, 'run').getByLabel('Working directory').inputValue()).toBe('game');
    expect(await card(page, 'shutdown').getByLabel('Stop command').inputValue()).toBe('quit');
    expect(await page.getByLabel('Name 1').inputValue()).toBe('GREETING');
    expect(await page.getByLabel('Value 1').inputValue()).toBe('hello');
    await card(page, 'environments').getByText('Standard', { exact: true }).waitFor();
  }

  it('refuses a variable name that is empty or has spaces; closing a new variable removes it', async () => {
    const page = await open('/addtemplate');
    const rule = page.getByText('The variable name cannot be empty or contain spaces');
    await card(page, 'variables').getByRole('button', { name: 'Add variable' }).click();
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await rule.waitFor();
    await dialog(page).getByLabel('Name', { exact: true }).fill('max players');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await rule.waitFor();
    await choose(page, dialog(page).getByLabel('Type', { exact: true }), 'Choice');
    await dialog(page).getByTestId('variable-options').waitFor();
    await screenshot(page, 'template-variable-rule');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await card(page, 'variables').getByTestId('variables-item').count()).toBe(0);
  });

  it('adds each environment type once, removes and re-matches the default', async () => {
    const page = await open('/addtemplate');
    const envs = card(page, 'environments');
    const add = envs.getByRole('button', { name: 'Add environment' });
    await add.click();
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await add.click();
    expect(await dialog(page).getByLabel('Type', { exact: true }).inputValue()).toBe('TTY');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await add.click();
    const docker = dialog(page).getByTestId('docker-fields');
    expect(await docker.getByLabel('Network mode').inputValue()).toBe('host');
    await docker.getByLabel('Image').fill('debian:bookworm');
    await docker.getByLabel('Port bindings Add').fill('{ip}:27015:27015/udp');
    await docker.getByLabel('Port bindings Add').press('Enter');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    expect(await envs.getByTestId('environments-item').count()).toBe(3);
    expect(await add.isDisabled()).toBe(true);
    await envs.getByText('Every environment type is already in the list').waitFor();

    await choose(page, envs.getByLabel('Default environment'), 'Docker');
    await envs.getByTestId('environments-item').nth(2).getByRole('button', { name: 'Remove' }).click();
    expect(await envs.getByTestId('environments-item').count()).toBe(2);
    expect(await add.isDisabled()).toBe(false);
    expect(await envs.getByLabel('Default environment').inputValue()).toBe('Standard');
    await add.click();
    expect(await dialog(page).getByLabel('Type', { exact: true }).inputValue()).toBe('Docker');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    expect(await envs.getByTestId('environments-item').count()).toBe(2);
  });

  it('offers to convert a pasted 1.x template and shows the result in the editor', async () => {
    const page = await open('/addtemplate');
    await switchMode(page, 'JSON');
    await pasteJson(page, readFileSync(V1_SAMPLE, 'utf8'));
    await page.getByTestId('v1-prompt').waitFor();
    await screenshot(page, 'template-v1-prompt');
    await page.getByTestId('v1-prompt').getByRole('button', { name: 'Convert' }).click();
    await page.getByText('Converted from the 1.x format').waitFor();
    await switchMode(page, 'Editor');
    expect(await page.getByLabel('Display name', { exact: true }).inputValue()).toBe('Vanilla - Minecraft');
    await card(page, 'install').getByText('mojangdl: ${version}').waitFor();
  });

  it('keeps invalid JSON in the JSON view with the message, and names processors Hearth does not run', async () => {
    const page = await open('/addtemplate');
    await switchMode(page, 'JSON');
    await pasteJson(page, '{"type": ');
    await switchMode(page, 'Editor');
    await page.getByTestId('json-problem').getByText('The json data is invalid').waitFor();
    await page.locator('[data-testid="json-view"] .cm-content').waitFor();

    const withJava = {
      type: 'java',
      run: { command: 'java -jar x.jar' },
      install: [{ type: 'javadl', version: '21' }],
    };
    await pasteJson(page, JSON.stringify(withJava));
    await switchMode(page, 'Editor');
    await page
      .getByTestId('unknown-processors')
      .getByText(/processors Hearth does not run yet: javadl/)
      .waitFor();
    await card(page, 'install').getByText('javadl: 21').click();
    await dialog(page).getByText('Hearth does not run the javadl processor yet').waitFor();
    await choose(page, dialog(page).getByLabel('Type', { exact: true }), 'Create a folder');
    expect(await dialog(page).getByLabel('Target').inputValue()).toBe('');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
  });

  it('imports a bundled template from the list', async () => {
    const page = await open('/template');
    await page.getByRole('button', { name: 'Import' }).click();
    const row = page.getByTestId('importable-freeciv-server');
    await row.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Imported Freeciv server').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('template-freeciv-server').waitFor();
    await page.getByTestId('template-freeciv-server').getByRole('link').click();
    await page.waitForURL('**/template/freeciv-server');
    await card(page, 'variables').getByText('Port (port)').waitFor();
  });
});
