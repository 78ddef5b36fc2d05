/**
 * Issue 16 item 19, the Tasks tab in Chromium against a real panel and daemon: Weekly with all seven days
 * reads as every day (not "only on" seven days); the schedule's description is not red while only the name is
 * missing (red means an unreadable schedule); a saved scheduled task shows its next run time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser, openSignedIn } from './helpers/browser';
import { createFakeGameServer, startPanelWithDaemon, type PanelWithDaemon } from './helpers/daemon-node';

const run = browserAvailable('tasks schedule') ? describe : describe.skip;

run('tasks: schedule wording and next run', () => {
  let live: PanelWithDaemon;
  let browser: Browser;

  beforeAll(async () => {
    live = await startPanelWithDaemon('tasks-schedule-node');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await live?.stop();
  });

  it('weekly on every day reads as every day, is not red without a name, and shows the next run', async () => {
    const id = await createFakeGameServer(live, 'schedule one');
    const tp = await openSignedIn(browser, live.panel.url, live.admin, `/server/${id}?tab=tasks`);
    const { page } = tp;
    // The tab appears once the panel knows the node's features; reload until it does.
    await expect
      .poll(
        async () => {
          await page.goto(`/server/${id}?tab=tasks`);
          return page
            .getByTestId('tasks-tab')
            .waitFor({ timeout: 10_000 })
            .then(
              () => true,
              () => false,
            );
        },
        { timeout: 90_000 },
      )
      .toBe(true);
    await page.getByTestId('task-add').click();
    await page.getByTestId('cron-tab-weekly').click();
    await page.getByTestId('cron-hour').fill('4');
    await page.getByTestId('cron-minute').fill('30');
    const description = page.getByTestId('task-schedule-description');
    await expect.poll(() => description.textContent()).toBe('30 4 * * * — At 04:30');
    // Mantine writes the colour as a style: dimmed, not red, while only the name is missing.
    expect(await description.getAttribute('style')).toContain('dimmed');

    await page.getByTestId('task-name').fill('Every day');
    await page.getByTestId('task-add-operation').click();
    await page.getByTestId('task-op-command').fill('say hello');
    await page.getByTestId('task-save').click();
    await page.getByTestId('task-overlay').waitFor({ state: 'detached' });
    const row = page.getByTestId('task-Every day');
    await expect.poll(() => row.getByTestId('task-next-run').textContent()).toMatch(/^Next run: \S/);
    expect(tp.pageErrors).toEqual([]);
    await tp.context.close();
  });
});
