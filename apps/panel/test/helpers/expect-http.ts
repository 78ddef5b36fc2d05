import { expect } from 'vitest';
import type { ErrorBody } from '@hearth/contract';
import type { BuiltApp } from '../../src/app';
import { call } from './app';

/** Each `GET url` answers 404 with the catalogue's ErrNotFound body. */
export async function expectNotFound(t: BuiltApp, urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    const res = await call(t, 'GET', url);
    expect(res.statusCode, url).toBe(404);
    expect(res.json<ErrorBody>().error.code).toBe('ErrNotFound');
  }
}
