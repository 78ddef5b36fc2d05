import { describe, expect, it } from 'vitest';
import { email, password, required, sameAs, username } from '../src/features/auth/validation';

describe('the shared field rules', () => {
  it('accepts usernames of 3+ alphanumerics, _ or -', () => {
    for (const ok of ['bob', 'a_b-c', 'User123']) expect(username(ok), ok).toBeNull();
    for (const bad of ['ab', '', 'has space', 'dot.ted', 'ünï']) {
      expect(username(bad), bad).toBe('errors.ErrUsernameRequirements');
    }
  });

  it('needs passwords of at least 8 characters', () => {
    expect(password('12345678')).toBeNull();
    expect(password('1234567')).toBe('errors.ErrPasswordRequirements');
  });

  it('needs the confirmation to match', () => {
    expect(sameAs('secret-pass')('secret-pass')).toBeNull();
    expect(sameAs('secret-pass')('secret-pasS')).toBe('errors.ErrPasswordsNotIdentical');
  });

  it('checks e-mail shape and required fields', () => {
    expect(email('a@b.io')).toBeNull();
    expect(email('a@b')).toBe('validation.email');
    expect(required('  ')).toBe('validation.required');
    expect(required('x')).toBeNull();
  });
});
