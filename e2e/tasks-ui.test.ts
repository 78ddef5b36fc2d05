/**
 * The Tasks tab in Chromium against a real panel and a real daemon running the fake game: create a
 * scheduled task with the Weekly tab and read its description, run it now (Task started, its daemon lines in
 * the console), edit it to manual (cron null on the daemon), delete it (Task deleted); the edit overlay's
 * Save is really disabled with a blank name or an invalid Advanced expression. The step types offered are
 * what the user could do by hand: an admin gets raw commands, a console-and-files user does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TaskListResponse } from '@hearth/contract';
import { browserAvailable, launchBrowser, openSignedIn, screenshot } from './helpers/browser';
import {
  createFakeGameServer,
  panelApi,
  signInServerViewer,
  startPanelWithDaemon,
  type PanelWithDaemon,
} from './helpers/daemon-node';

const run = browserAvailable('tasks ui') ? describe : describe.skip;

/** Mantine's Checkbox puts the test id on the input; the visible box is what a user clicks. */
const toggleWeekday = (page: Page, day: number) =>
  page.getByTestId(`cron-weekday-${day}`).click({ force: true });

run('tasks tab', () => {
  let live: PanelWithDaemon;
  let browser: Browser;
  let serverId: string;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    live = await startPanelWithDaemon('tasks-node');
    serverId = await createFakeGameServer(live, 'tasks ui', { start: true });
    browser = await launchBrowser();
    ({ page, pageErrors } = await openSignedIn(browser, live.panel.url, live.admin));
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  const tasksOnDaemon = () =>
    panelApi<TaskListResponse>(
      live.panel,
      live.admin.session,
      'GET',
      `/proxy/daemon/server/${serverId}/tasks`,
    );

  it('creates a weekly task, shows its description, runs it and shows its console lines', async () => {
    await page.goto(`/server/${serverId}?tab=tasks`);
    await page.getByTestId('tasks-tab').waitFor();
    await page.getByTestId('task-add').click();
    const overlay = page.getByTestId('task-overlay');
    await page.getByTestId('task-name').fill('Weekly warn');
    await page.getByTestId('cron-tab-weekly').click();
    for (const day of [0, 2, 3, 4, 6]) await toggleWeekday(page, day);
    await page.getByTestId('cron-hour').fill('4');
    await page.getByTestId('cron-minute').fill('30');
    await page.getByTestId('task-add-operation').click();
    await page.getByTestId('task-op-command').fill('say weekly hello');
    const description = page.getByTestId('task-schedule-description');
    await expect
      .poll(() => description.textContent())
      .toBe('30 4 * * 1,5 — At 04:30, only on Monday and Friday');
    await screenshot(page, 'tasks-weekly-overlay');
    await page.getByTestId('task-save').click();
    await page.getByText('Saved').first().waitFor();
    await overlay.waitFor({ state: 'detached' });

    const row = page.getByTestId('task-Weekly warn');
    await expect
      .poll(() => row.getByTestId('task-description').textContent())
      .toBe('At 04:30, only on Monday and Friday');
    const [task] = Object.values((await tasksOnDaemon()).tasks);
    expect(task).toMatchObject({
      name: 'Weekly warn',
      cronSchedule: '30 4 * * 1,5',
      operations: [{ type: 'console', command: 'say weekly hello' }],
    });

    await row.getByTestId('task-run').click();
    await page.getByText('Task started').first().waitFor();
    // The list follows the run to its outcome without a reload.
    await row.getByTestId('task-last-run').getByText('(success)').waitFor();
    await screenshot(page, 'tasks-list');
    await page.getByTestId('server-tabs').locator('[data-tab="console"]').click();
    const output = page.getByTestId('console-output');
    await output.getByText('Running task Weekly warn').first().waitFor();
    await output.getByText('Task Weekly warn step 1/1 (console: say weekly hello)').first().waitFor();
    await output.getByText('echo: say weekly hello').first().waitFor();
    await output.getByText('Task Weekly warn finished').first().waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('the edit overlay cannot save a blank name or an invalid Advanced expression', async () => {
    await page.goto(`/server/${serverId}?tab=tasks`);
    const row = page.getByTestId('task-Weekly warn');
    await row.getByTestId('task-edit').click();
    const save = page.getByTestId('task-save');
    expect(await page.getByTestId('cron-tab-weekly').getAttribute('aria-selected')).toBe('true');
    expect(await save.isEnabled()).toBe(true);
    await page.getByTestId('task-name').fill('   ');
    expect(await save.isDisabled()).toBe(true);
    expect(await save.getAttribute('disabled')).not.toBeNull();
    await page.getByTestId('task-name').fill('Weekly warn');
    await page.getByTestId('cron-tab-advanced').click();
    expect(await page.getByTestId('cron-expression').inputValue()).toBe('30 4 * * 1,5');
    await page.getByTestId('cron-expression').fill('61 4 * * 9');
    expect(await save.isDisabled()).toBe(true);
    await page.getByTestId('task-schedule-description').getByText('invalid task schedule').waitFor();
    // A click on the disabled button (forced past Playwright's own check) changes nothing.
    await save.click({ force: true });
    await page.getByTestId('cron-expression').fill('@daily');
    expect(await save.isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('task-overlay').waitFor({ state: 'detached' });
    const [task] = Object.values((await tasksOnDaemon()).tasks);
    expect(task?.cronSchedule).toBe('30 4 * * 1,5');
  });

  /** The step types the new-task overlay offers on `who`'s page, as its Type select lists them. */
  async function offeredTypes(on: Page): Promise<string[]> {
    await on.goto(`/server/${serverId}?tab=tasks`);
    await on.getByTestId('task-add').click();
    await on.getByTestId('task-add-operation').click();
    await on.getByTestId('task-operation-0').getByLabel('Type').click();
    const options = await on.getByRole('option').allTextContents();
    await on.keyboard.press('Escape');
    await on.getByRole('button', { name: 'Cancel' }).click();
    return options;
  }

  it('offers each user only the steps they could do by hand', async () => {
    const all = await offeredTypes(page);
    // Every type by its label, processors too (issue 16: raw ids such as "alterfile" were mixed in).
    expect(all).toEqual(
      expect.arrayContaining([
        'Console command',
        'Start server',
        'Run commands',
        'Download files',
        'Edit a file',
      ]),
    );
    expect(all).not.toContain('alterfile');
    const viewer = await signInServerViewer(live, serverId, {
      editServerData: true,
      sendServerConsole: true,
      putServerFiles: true,
    });
    const other = await openSignedIn(browser, live.panel.url, viewer);
    try {
      expect(await offeredTypes(other.page)).toEqual([
        'Console command',
        'Sleep',
        'Wait until stopped',
        'Write a file',
        'Move a file',
        'Create a folder',
        'Extract an archive',
      ]);
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('edits the task to manual (cron null), then deletes it', async () => {
    await page.goto(`/server/${serverId}?tab=tasks`);
    const row = page.getByTestId('task-Weekly warn');
    await row.getByTestId('task-edit').click();
    await page.getByTestId('task-scheduled').click({ force: true });
    await page.getByTestId('task-save').click();
    await page.getByTestId('task-overlay').waitFor({ state: 'detached' });
    await expect.poll(() => row.getByTestId('task-description').textContent()).toBe('Manual only');
    const [task] = Object.values((await tasksOnDaemon()).tasks);
    expect(task).toMatchObject({ name: 'Weekly warn', cronSchedule: null, nextRun: null });

    await row.getByTestId('task-edit').click();
    expect(await page.getByTestId('task-scheduled').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await row.getByTestId('task-delete').click();
    await page.getByText('Task deleted').first().waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await tasksOnDaemon()).tasks).toEqual({});
    expect(pageErrors).toEqual([]);
  });
});
