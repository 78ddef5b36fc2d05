import { describe, expect, it } from 'vitest';
import {
  ApiError,
  catalogueCodeFor,
  errorDump,
  MASK,
  maskAuthorization,
  maskBody,
  parseErrorBody,
} from '../src/api/errors';

const request = (body?: string) => ({
  url: '/api/self',
  method: 'PUT',
  headers: { Authorization: 'Bearer abc.def.ghi', 'Content-Type': 'application/json' },
  body,
});

describe('error masking for the details overlay (secrets masked)', () => {
  it('masks the bearer token but keeps the scheme', () => {
    expect(maskAuthorization('Bearer abc.def.ghi')).toBe(`Bearer ${MASK}`);
    expect(maskAuthorization('opaque')).toBe(MASK);
    expect(maskAuthorization(undefined)).toBeUndefined();
  });

  it('masks password fields at any depth of a JSON body', () => {
    const masked = maskBody(
      JSON.stringify({ email: 'a@b.c', password: 'hunter22', nested: [{ newPassword: 'x' }] }),
    );
    expect(JSON.parse(masked ?? '')).toEqual({
      email: 'a@b.c',
      password: MASK,
      nested: [{ newPassword: MASK }],
    });
    expect(masked).not.toContain('hunter22');
  });

  it('masks secrets in form bodies', () => {
    expect(maskBody('grant_type=client_credentials&client_secret=s3cr3t')).toBe(
      `grant_type=client_credentials&client_secret=${encodeURIComponent(MASK)}`,
    );
  });

  it('builds a dump with the friendly note for the status', () => {
    const err = new ApiError(403, undefined, {}, request('{"password":"p"}'));
    const dump = errorDump(err);
    expect(dump).toMatchObject({
      endpoint: '/api/self',
      method: 'PUT',
      status: 403,
      noteKey: 'errorDetails.note403',
    });
    expect(dump.authorization).toBe(`Bearer ${MASK}`);
    expect(dump.body).not.toContain('"p"');
  });
});

describe('catalogue mapping', () => {
  it('reads the PufferPanel-compatible error body', () => {
    expect(
      parseErrorBody({ error: { code: 'ErrFieldRequired', msg: 'x', metadata: { field: 'name' } } }),
    ).toEqual({
      code: 'ErrFieldRequired',
      msg: 'x',
      metadata: { field: 'name' },
    });
    expect(parseErrorBody('<html>')).toEqual({ metadata: {} });
  });

  it('keeps known codes and sends unknown or generic ones to Unknown error', () => {
    expect(catalogueCodeFor(new ApiError(400, 'ErrInvalidCredentials', {}, request()))).toBe(
      'ErrInvalidCredentials',
    );
    expect(catalogueCodeFor(new ApiError(400, 'ErrMadeUp', {}, request()))).toBeUndefined();
    expect(catalogueCodeFor(new ApiError(404, undefined, {}, request()))).toBeUndefined();
    expect(catalogueCodeFor(new ApiError(500, 'ErrGeneric', {}, request()))).toBeUndefined();
  });

  it('turns a generic unique-constraint error on a name into the duplicate message', () => {
    const unique = (msg: string) => new ApiError(500, 'ErrGeneric', {}, request(), msg);
    expect(catalogueCodeFor(unique('UNIQUE constraint failed: servers.name'))).toBe('ErrDuplicateServerName');
    expect(catalogueCodeFor(unique('UNIQUE constraint failed: nodes.name'))).toBe('ErrDuplicateNodeName');
  });
});
