/**
 * The daemon remembers a verified token (the panel reuses one for several calls) but never past the moment the
 * full check would refuse it: expiry, the longest lifetime from iat, and the clock tolerance still hold.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '@hearth/contract';
import { TokenVerifier, TOKEN_CLOCK_TOLERANCE_SECONDS } from '../../src/transport/token';
import { generateTestKeys, signDaemonToken, type TestKeys } from '../helpers/tokens';

async function refusal(promise: Promise<unknown>): Promise<string | null> {
  return promise.then(
    () => null,
    (err: unknown) => (err instanceof AppError ? err.code : String(err)),
  );
}

describe('verified token cache', () => {
  let keys: TestKeys;
  let other: TestKeys;
  beforeAll(async () => {
    keys = await generateTestKeys();
    other = await generateTestKeys();
  });
  afterEach(() => vi.useRealTimers());

  it('answers the same claims for a reused token, and refuses it once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const verifier = await TokenVerifier.create(keys.publicKeyPem, 'test-node');
    const token = await signDaemonToken(keys.privateKey, { server: 's1', perms: ['viewServerConsole'] });
    const first = await verifier.verify(token);
    expect(await verifier.verify(token)).toEqual(first);
    vi.setSystemTime(Date.now() + (60 + TOKEN_CLOCK_TOLERANCE_SECONDS + 1) * 1000);
    expect(await refusal(verifier.verify(token))).toBe('ErrDaemonTokenInvalid');
    expect(await refusal(verifier.verify(token))).toBe('ErrDaemonTokenInvalid'); // not remembered as good
  });

  it('never remembers a refused token: a bad signature or another audience stays refused', async () => {
    const verifier = await TokenVerifier.create(keys.publicKeyPem, 'test-node');
    const forged = await signDaemonToken(other.privateKey);
    const elsewhere = await signDaemonToken(keys.privateKey, { nodeId: 'another-node' });
    for (let i = 0; i < 2; i++) {
      expect(await refusal(verifier.verify(forged))).toBe('ErrDaemonTokenInvalid');
      expect(await refusal(verifier.verify(elsewhere))).toBe('ErrDaemonTokenInvalid');
    }
  });

  it('keys the cache by the whole token: a token differing in one signature byte is checked in full', async () => {
    const verifier = await TokenVerifier.create(keys.publicKeyPem, 'test-node');
    const token = await signDaemonToken(keys.privateKey);
    await verifier.verify(token);
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${token.slice(0, -2)}${last}${token.slice(-1)}`;
    expect(await refusal(verifier.verify(tampered))).toBe('ErrDaemonTokenInvalid');
  });
});
