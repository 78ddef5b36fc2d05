/** Port and volume binding rules (pure; no engine needed). */
import { describe, expect, it } from 'vitest';
import { templateSchema } from '@hearth/contract';
import { parsePortBinding } from '../../src/environment/docker/port-bindings';
import { adminOnlySubstitutions, bindsOf } from '../../src/environment/docker/volume-bindings';

describe('port bindings (host:outsidePort:insidePort/protocol)', () => {
  it.each([
    ['0.0.0.0:25565:25565/tcp', { hostIp: '', hostPort: 25565, containerPort: 25565, protocol: 'tcp' }],
    ['{ip}:27015:27016/udp', { hostIp: '', hostPort: 27015, containerPort: 27016, protocol: 'udp' }],
    ['8080:80', { hostIp: '', hostPort: 8080, containerPort: 80, protocol: 'tcp' }],
    ['25565', { hostIp: '', hostPort: 25565, containerPort: 25565, protocol: 'tcp' }],
    ['127.0.0.1:80:81/udp', { hostIp: '127.0.0.1', hostPort: 80, containerPort: 81, protocol: 'udp' }],
    ['[::1]:80:81', { hostIp: '::1', hostPort: 80, containerPort: 81, protocol: 'tcp' }],
  ])('%s', (text, expected) => {
    expect(parsePortBinding(text)).toEqual(expected);
  });

  it.each(['80:81/sctp', 'host:80:81', '1.2.3.4:80', '70000:1', '0:80', '', 'a:b:c:d'])(
    'refuses %j with ErrDockerBindingInvalid',
    (text) => {
      expect(() => parsePortBinding(text)).toThrow(
        expect.objectContaining({ code: 'ErrDockerBindingInvalid' }),
      );
    },
  );
});

describe('volume bindings', () => {
  const definition = templateSchema.parse({
    data: {
      path: { type: 'string', value: '/etc', userEdit: true },
      shared: { type: 'string', value: '/srv/shared', userEdit: false },
    },
    run: { command: 'x' },
    environment: { type: 'docker' },
  });
  const values = { path: '/etc', shared: '/srv/shared', serverId: 'a' };

  it('mounts the server folder at /home/container, and extra bindings only when honoured', () => {
    const bindings = { '${shared}': '/data' };
    const admin = adminOnlySubstitutions(definition, values);
    expect(bindsOf('/srv/a', bindings, admin, true)).toEqual(['/srv/a:/home/container', '/srv/shared:/data']);
    expect(bindsOf('/srv/a', bindings, admin, false)).toEqual(['/srv/a:/home/container']);
  });

  it('never lets a user-editable variable choose a host path', () => {
    const admin = adminOnlySubstitutions(definition, values);
    expect(() => bindsOf('/srv/a', { '${path}': '/x' }, admin, true)).toThrow(
      expect.objectContaining({ code: 'ErrDockerBindingInvalid' }),
    );
  });

  it.each([
    ['relative', '/x'],
    ['/a/../etc', '/x'],
    ['/a', 'relative'],
    ['/a', '/home/container'],
  ])('refuses %s → %s', (host, container) => {
    expect(() => bindsOf('/srv/a', { [host]: container }, {}, true)).toThrow(
      expect.objectContaining({ code: 'ErrDockerBindingInvalid' }),
    );
  });

  it('reads Docker-style resource names (PufferPanel raw resources)', () => {
    const env = templateSchema.parse({
      run: { command: 'x' },
      environment: {
        type: 'docker',
        resources: { Memory: 1024, NanoCpus: 1.5e9, CpuShares: 512, PidsLimit: 64 },
      },
    }).environment;
    expect(env).toMatchObject({ resources: { memory: 1024, cpus: 1.5, cpuShares: 512, pidsLimit: 64 } });
  });
});
