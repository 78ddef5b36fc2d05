/**
 * Docker servers in Chromium (browser part): a node whose daemon reaches the Docker engine offers the
 * docker environment, a node whose daemon points at a missing socket does not; a server created in the
 * browser from a template with the docker environment (image hearth-test/busybox:1, the busybox fake game)
 * installs, starts, talks on the console, reports stats and stops. The template editor shows the docker
 * fields. Needs the engine and the local image (bash .ci/services.sh): in CI a missing engine fails the suite.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDaemon } from '@hearth/daemon';
import {
  IMAGE,
  containersOf,
  dockerGameDefinition,
  removeContainersOf,
  requireDocker,
} from '../apps/daemon/test/docker/helpers';
import { browserAvailable, screenshot } from './helpers/browser';
import { BrowserSuite } from './helpers/browser-suite';
import { addNodeWithDaemon, panelApi } from './helpers/daemon-node';
import { createFirstAdmin, type Account } from './helpers/panel';
import { choose, createAndInstall, field, startFromPage, statusIs } from './helpers/server-ui';

const canRun = browserAvailable('docker screens') && (await requireDocker());

describe.runIf(canRun)('docker servers in Chromium', () => {
  let suite: BrowserSuite;
  let admin: Account;
  const daemons: RunningDaemon[] = [];
  const serversDirs: string[] = [];
  let serverId = '';

  const call = <T>(method: string, path: string, body?: unknown) =>
    panelApi<T>(suite.panel, admin.session, method, path, body);

  const open = (path: string) => suite.open(admin, path);

  /** A node and its daemon, started from the node's deployment config with this Docker socket. */
  async function addNode(name: string, socketPath: string): Promise<string> {
    const node = await addNodeWithDaemon(suite.panel, admin.session, name, { docker: { socketPath } });
    daemons.push(node.daemon);
    serversDirs.push(node.serversDir);
    return node.nodeId;
  }

  /** The environment choices Add Server offers for this template on this node. */
  async function environmentChoices(page: Page, node: string): Promise<string[]> {
    await page.goto('/addserver');
    await choose(page, 'Template', 'Fake game (docker)');
    await choose(page, 'Node', node);
    await field(page, 'Environment').first().click();
    const options = await page.getByRole('option').allTextContents();
    await page.keyboard.press('Escape');
    return options;
  }

  beforeAll(async () => {
    suite = await BrowserSuite.start();
    admin = await createFirstAdmin(suite.panel);
    const definition = dockerGameDefinition();
    await call('PUT', '/api/templates/fake-docker', {
      ...definition,
      supportedEnvironments: [definition.environment, { type: 'standard' }],
    });
    await addNode('with-docker', '/var/run/docker.sock');
    await addNode('without-docker', join(tmpdir(), 'no-such-dir', 'docker.sock'));
  });

  afterAll(() =>
    suite?.close(async () => {
      for (const daemon of daemons) await daemon.close();
      for (const dir of serversDirs) await removeContainersOf(dir);
    }),
  );

  it('the template editor shows the docker fields', async () => {
    const page = await open('/template/fake-docker');
    await page.getByTestId('environments').getByText('Docker', { exact: true }).first().click();
    const fields = page.getByTestId('docker-fields');
    await fields.waitFor();
    expect(await fields.getByLabel('Image').inputValue()).toBe(IMAGE);
    for (const label of [
      'Network mode',
      'Network name',
      'Bindings (host path → container path)',
      'Port bindings',
    ]) {
      expect(await fields.getByText(label, { exact: true }).count(), label).toBeGreaterThan(0);
    }
    await screenshot(page, 'docker-template-fields');
  });

  it('offers docker only on the node whose daemon reaches the engine', async () => {
    const page = await open('/server');
    // Node features come from the panel's probe; ask until both nodes have answered.
    await expect
      .poll(async () => (await environmentChoices(page, 'without-docker')).join(','), { timeout: 20_000 })
      .toBe('Standard process');
    await expect
      .poll(async () => (await environmentChoices(page, 'with-docker')).join(','), { timeout: 20_000 })
      .toContain('Docker');
  });

  it('creates, installs, starts, talks, shows stats and stops a docker server', async () => {
    const page = await open('/addserver');
    await choose(page, 'Template', 'Fake game (docker)');
    await choose(page, 'Node', 'with-docker');
    await choose(page, 'Environment', /Docker/);
    await field(page, 'Name').fill('boxed one');
    serverId = await createAndInstall(page, call, 60_000);
    await startFromPage(page, 30_000);
    const output = page.getByTestId('console-output');
    await output.getByText('fake-game ready').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('console-command').fill('hello box');
    await page.keyboard.press('Enter');
    await output.getByText('echo: hello box').first().waitFor();
    expect((await containersOf(serversDirs[0] ?? '')).length).toBe(1);
    await screenshot(page, 'docker-console');

    await page.getByTestId('server-tabs').getByText('Statistics').click();
    const memory = page.getByTestId('memory-chart');
    await expect
      .poll(
        async () => ((await memory.getAttribute('data-points')) ?? '').split(',').some((v) => Number(v) > 0),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    await screenshot(page, 'docker-stats');

    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await statusIs(page, 'offline', 30_000);
  });

  it('deleting the server removes its container', async () => {
    await call('DELETE', `/api/servers/${serverId}`);
    await expect
      .poll(async () => (await containersOf(serversDirs[0] ?? '')).length, { timeout: 20_000 })
      .toBe(0);
  });
});
