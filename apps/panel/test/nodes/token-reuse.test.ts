/**
 * Panel → daemon tokens are reused for the same grant for half their life, and never across grants: a changed
 * permission set, another user, server or node, or the admin flag each get a token of their own, which a real
 * daemon verifier accepts with exactly those claims.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeJwt } from 'jose';
import type { DaemonTokenGrant } from '@hearth/contract';
import { ensurePanelKeys } from '../../src/lib/keys';
import { DaemonTokenSigner, TOKEN_REUSE_MS } from '../../src/nodes-link/token-signer';

const grant: DaemonTokenGrant = {
  sub: 'u1',
  server: 's1',
  perms: ['viewServerConsole', 'startServer'],
  admin: false,
};

describe('daemon token reuse', () => {
  let dir: string;
  let signer: DaemonTokenSigner;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-token-reuse-'));
    ensurePanelKeys(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => vi.useRealTimers());

  it('hands out the same token for the same grant (in any permission order) until the reuse window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    signer = new DaemonTokenSigner(dir);
    const first = await signer.reusable('n1', grant);
    expect(await signer.reusable('n1', { ...grant, perms: ['startServer', 'viewServerConsole'] })).toBe(
      first,
    );
    vi.setSystemTime(Date.now() + TOKEN_REUSE_MS + 1_000);
    const later = await signer.reusable('n1', grant);
    expect(later).not.toBe(first);
    expect(decodeJwt(later).iat).toBeGreaterThan(decodeJwt(first).iat ?? 0);
  });

  it('never reuses a token across a different grant', async () => {
    signer = new DaemonTokenSigner(dir);
    const base = await signer.reusable('n1', grant);
    const variants: [string, DaemonTokenGrant][] = [
      ['n2', grant],
      ['n1', { ...grant, sub: 'u2' }],
      ['n1', { ...grant, server: 's2' }],
      ['n1', { ...grant, perms: ['viewServerConsole'] }],
      ['n1', { ...grant, admin: true }],
    ];
    for (const [node, other] of variants) {
      const token = await signer.reusable(node, other);
      expect(token).not.toBe(base);
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({ sub: other.sub, server: other.server, admin: other.admin });
      expect(claims.perms).toEqual(other.perms);
      expect(claims.aud).toBe(`hearth-daemon:${node}`);
    }
  });

  it('signs a fresh token every time for sockets', async () => {
    signer = new DaemonTokenSigner(dir);
    const a = await signer.sign('n1', grant);
    const b = await signer.sign('n1', grant);
    // ES256 signatures are randomised: two signings of the same claims differ even within one second.
    expect(a).not.toBe(b);
  });
});
