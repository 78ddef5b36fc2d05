import { Button, Group, Tooltip } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tinykeys } from 'tinykeys';
import { isTypingTarget } from '../../../app/shell/useShortcuts';
import type { ServerPermissionsView } from '@hearth/contract/servers';
import type { ServerLive } from '../useServerLive';
import { InstallConfirm } from './InstallConfirm';
import { useRestart } from './useRestart';

type Action = 'start' | 'stop' | 'kill' | 'install';

interface Props {
  live: ServerLive;
  permissions: ServerPermissionsView;
  admin: boolean;
}

/**
 * Restart when running, else Start — or, on a server never installed, a green Install in its place (a user
 * without the install flag sees Start disabled, saying why); Stop, Kill, Install — each shown only with its flag
 * or admin. Stop and Kill
 * are disabled while the server is offline (Kill stays for a running install, which it aborts); Install on a
 * running server asks first (InstallConfirm). Shortcuts r r, r s, r k, r i.
 */
export function ServerControls({ live, permissions, admin }: Props) {
  const { t } = useTranslation();
  const { restarting, restart } = useRestart(live);
  const [pending, setPending] = useState<Action | null>(null);
  const [confirmInstall, setConfirmInstall] = useState(false);
  const running = live.status === 'online';
  // Never installed (docs/daemon.md § Installed mark): Install takes Start's place; the API still starts it.
  const needsInstall = !live.installed && !running;
  const can = {
    start: admin || permissions.startServer,
    stop: admin || permissions.stopServer,
    install: admin || permissions.installServer,
  };
  const run = (action: Action) => {
    setPending(action);
    const done = () => setPending(null);
    live.send({ type: action }).then(done, done);
  };
  const startOrRestart = () => {
    if (running) return can.stop && restart();
    if (!needsInstall) run('start');
  };
  const install = () => (running ? setConfirmInstall(true) : run('install'));
  const handlers = {
    startOrRestart,
    stop: () => running && run('stop'),
    kill: () => (running || live.installing) && run('kill'),
    install,
  };
  useControlShortcuts(handlers, can);
  const busy = restarting || pending !== null;
  return (
    <Group gap="xs" data-testid="server-controls">
      {can.start && needsInstall && !can.install && (
        <Tooltip label={t('servers.controls.notInstalled')}>
          <Button color="green" disabled data-testid="start-not-installed">
            {t('servers.controls.start')}
          </Button>
        </Tooltip>
      )}
      {can.start && !needsInstall && (
        <Button
          color="green"
          loading={restarting || pending === 'start'}
          disabled={busy || (running && !can.stop)}
          onClick={startOrRestart}
        >
          {running || restarting ? t('servers.controls.restart') : t('servers.controls.start')}
        </Button>
      )}
      {can.stop && (
        <>
          <Button
            variant="light"
            color="orange"
            loading={pending === 'stop'}
            disabled={busy || !running}
            onClick={() => run('stop')}
          >
            {t('servers.controls.stop')}
          </Button>
          <Tooltip label={t('servers.controls.killHint')}>
            <Button
              variant="light"
              color="red"
              loading={pending === 'kill'}
              disabled={!running && !live.installing}
              onClick={() => run('kill')}
            >
              {t('servers.controls.kill')}
            </Button>
          </Tooltip>
        </>
      )}
      {can.install && needsInstall && (
        <Tooltip label={t('servers.controls.notInstalled')}>
          <Button
            color="green"
            loading={pending === 'install' || live.installing}
            disabled={busy}
            onClick={install}
            data-testid="install-first"
          >
            {t('servers.controls.install')}
          </Button>
        </Tooltip>
      )}
      {can.install && !needsInstall && (
        <Button
          variant="default"
          loading={pending === 'install' || live.installing}
          disabled={busy}
          onClick={install}
        >
          {t('servers.controls.install')}
        </Button>
      )}
      <InstallConfirm
        opened={confirmInstall}
        onCancel={() => setConfirmInstall(false)}
        onConfirm={() => {
          setConfirmInstall(false);
          run('install');
        }}
      />
    </Group>
  );
}

type Handlers = Record<'startOrRestart' | 'stop' | 'kill' | 'install', () => void>;

function useControlShortcuts(handlers: Handlers, can: Record<'start' | 'stop' | 'install', boolean>) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const bind = (enabled: boolean, name: keyof Handlers) => (event: KeyboardEvent) => {
      if (!enabled || isTypingTarget(event.target)) return;
      event.preventDefault();
      latest.current[name]();
    };
    return tinykeys(window, {
      'r r': bind(can.start, 'startOrRestart'),
      'r s': bind(can.stop, 'stop'),
      'r k': bind(can.stop, 'kill'),
      'r i': bind(can.install, 'install'),
    });
  }, [can.start, can.stop, can.install]);
}
