import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type ErrorBody } from '@hearth/contract';
import { registerErrorHandler, toAppError } from '../src/errors';

const logged: string[] = [];
let app: FastifyInstance;

class Unreachable extends Error {}

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logged.push(chunk.toString());
      done();
    },
  });
  app = Fastify({ logger: { level: 'warn', stream }, bodyLimit: 4096 });
  registerErrorHandler(app, {
    classify: (err) => (err instanceof Unreachable ? new AppError('ErrDatabaseNotAvailable') : undefined),
  });
  app.post('/echo', (request) => ({ got: request.body }));
  app.post('/small', { bodyLimit: 100 }, (request) => ({ got: request.body }));
  app.get('/app-error', () => {
    throw new AppError('ErrFieldInvalid', { field: 'name' });
  });
  app.get('/limited', () => {
    throw new AppError('ErrRateLimited', { retryAfter: 7 });
  });
  app.get('/boom', () => {
    throw new Error('secret internals at /srv/hearth/db.ts:42');
  });
  app.get('/down', () => {
    throw new Unreachable('connect ECONNREFUSED 127.0.0.1:5432');
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const errorOf = (body: string) => (JSON.parse(body) as ErrorBody).error;

describe('the shared error handler', () => {
  it('answers an AppError with its catalogued status and body', async () => {
    const res = await app.inject({ method: 'GET', url: '/app-error' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res.body)).toMatchObject({ code: 'ErrFieldInvalid', metadata: { field: 'name' } });
  });

  it('sends Retry-After with ErrRateLimited', async () => {
    const res = await app.inject({ method: 'GET', url: '/limited' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
  });

  it('names the real body limit: the server’s, or the route’s own', async () => {
    const big = JSON.stringify({ v: 'x'.repeat(5000) });
    const server = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(server.statusCode).toBe(413);
    expect(errorOf(server.body)).toMatchObject({ code: 'ErrPayloadTooLarge', metadata: { limit: 4096 } });
    expect(errorOf(server.body).msg).toBe('The request body is larger than 4096 bytes');
    const route = await app.inject({
      method: 'POST',
      url: '/small',
      payload: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(errorOf(route.body)).toMatchObject({ code: 'ErrPayloadTooLarge', metadata: { limit: 100 } });
  });

  it('maps malformed JSON, prototype poisoning and foreign media types', async () => {
    for (const payload of ['{"a":', '{"__proto__":{"x":1}}']) {
      const res = await app.inject({
        method: 'POST',
        url: '/echo',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect([res.statusCode, errorOf(res.body).code]).toEqual([400, 'ErrInvalidJson']);
    }
    const xml = await app.inject({
      method: 'POST',
      url: '/echo',
      payload: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect([xml.statusCode, errorOf(xml.body).code]).toEqual([415, 'ErrUnsupportedMediaType']);
  });

  it('answers an unexpected error as ErrGeneric without internals, and logs its cause', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(errorOf(res.body).code).toBe('ErrGeneric');
    expect(res.body).not.toContain('secret internals');
    expect(logged.join('')).toContain('secret internals');
  });

  it('tries the app’s own mapping first', async () => {
    const res = await app.inject({ method: 'GET', url: '/down' });
    expect([res.statusCode, errorOf(res.body).code]).toEqual([503, 'ErrDatabaseNotAvailable']);
    expect(res.body).not.toContain('ECONNREFUSED');
  });
});

describe('toAppError', () => {
  it('keeps AppErrors, maps Fastify status errors, leaves the rest to the caller', () => {
    const known = new AppError('ErrNotFound');
    expect(toAppError(known, 1)).toBe(known);
    const methodNotAllowed = Object.assign(new Error('nope'), { statusCode: 405 });
    expect(toAppError(methodNotAllowed, 1)?.code).toBe('ErrMethodNotAllowed');
    const teapot = Object.assign(new Error('odd'), { statusCode: 418 });
    expect([toAppError(teapot, 1)?.code, toAppError(teapot, 1)?.status]).toEqual(['ErrFieldInvalid', 418]);
    expect(toAppError(Object.assign(new Error('gone'), { code: 'ENOENT' }), 1)).toBeUndefined();
    expect(toAppError(new Error('plain'), 1)).toBeUndefined();
    expect(toAppError('text', 1)).toBeUndefined();
  });
});
