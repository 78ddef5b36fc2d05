import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** A labelled input; required ones carry a ' *' after the label text. */
export const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));

/** Opens the select labelled `label` and picks `option`. */
export async function choose(page: Page, label: string, option: string | RegExp): Promise<void> {
  await field(page, label).first().click();
  await page.getByRole('option', { name: option }).click();
}

/** Waits until the server's status dot shows `status`. */
export async function statusIs(page: Page, status: 'online' | 'offline', timeout = 15_000): Promise<void> {
  const dot = page.getByTestId('server-status');
  await expect.poll(() => dot.getAttribute('data-status'), { timeout }).toBe(status);
}

/**
 * Creates the server filled in on Add Server, installs it from the prompt and waits on its page until the
 * daemon reports the install done (read through `get`, the panel API as the admin); the server's id.
 */
export async function createAndInstall(
  page: Page,
  get: <T>(method: 'GET', path: string) => Promise<T>,
  installTimeout: number,
): Promise<string> {
  await page.getByRole('button', { name: 'Create server' }).click();
  await page.getByRole('button', { name: 'Install now' }).click();
  await page.waitForURL(/\/server\/[0-9a-f]{8}$/);
  const serverId = page.url().split('/server/')[1] ?? '';
  await expect
    .poll(() => get<{ installing: boolean }>('GET', `/proxy/daemon/server/${serverId}/status`), {
      timeout: installTimeout,
    })
    .toMatchObject({ installing: false });
  return serverId;
}

/** From offline, clicks Start and waits until the server is online. */
export async function startFromPage(page: Page, timeout = 15_000): Promise<void> {
  await statusIs(page, 'offline');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await statusIs(page, 'online', timeout);
}
