/**
 * The deployment file of each link mode (modules/nodes/node-deployment.ts): an inbound node's daemon listens on
 * every address for the panel to dial; an outbound one dials `panelUrl` and listens on loopback only (its SFTP
 * too: the panel's relay reaches it through the link), so nothing on its machine needs an open port.
 */
import { describe, expect, it } from 'vitest';
import { deploymentOf } from '../../src/modules/nodes/node-deployment';
import type { NodeRow } from '../../src/modules/nodes/nodes.repository';

const panel = { url: 'https://panel.example.com', publicKeyPem: '-----BEGIN PUBLIC KEY-----\nx\n' };
const opened = {
  secret: 'node-secret',
  tls: { certPem: 'CERT', keyPem: 'KEY', fingerprint: 'AA:BB' },
};

const row = (link: string): NodeRow => ({
  id: 'n1',
  name: 'far',
  public_host: 'panel.example.com',
  public_port: 8443,
  private_host: '10.0.0.5',
  private_port: 8443,
  sftp_port: 2022,
  secret_hash: 'h',
  is_local: 0,
  created_at: 1,
  tls_mode: 'pinned',
  tls_cert: 'CERT',
  tls_fingerprint: 'AA:BB',
  tls_key_sealed: 'sealed',
  secret_sealed: 'sealed',
  link,
});

describe('node deployment per link mode', () => {
  it('inbound: listens on every address, no link key (the file daemons had before)', () => {
    const { config, installSteps } = deploymentOf(row('inbound'), opened, panel);
    expect(config).toEqual({
      nodeId: 'n1',
      host: '0.0.0.0',
      port: 8443,
      dataDir: '/var/lib/hearth',
      panelUrl: panel.url,
      publicKeyPem: panel.publicKeyPem,
      tls: { certPem: 'CERT', keyPem: 'KEY' },
      sftp: { port: 2022, clientSecret: 'node-secret' },
    });
    expect(installSteps?.[0]).toContain(JSON.stringify(config, null, 2));
  });

  it('outbound: dials the panel, daemon and SFTP on loopback only; the install steps carry the same file', () => {
    const { config, installSteps } = deploymentOf(row('outbound'), opened, panel);
    expect(config).toMatchObject({
      nodeId: 'n1',
      link: 'outbound',
      host: '127.0.0.1',
      panelUrl: panel.url,
      sftp: { host: '127.0.0.1', port: 2022, clientSecret: 'node-secret' },
    });
    expect(installSteps?.[0]).toContain('"link": "outbound"');
    expect(installSteps?.[0]).toContain('"host": "127.0.0.1"');
    // The package comes from the panel too: outbound HTTPS is all the node needs.
    expect(installSteps?.join('\n')).toContain(`${panel.url}/api/nodes/n1/package`);
  });
});
