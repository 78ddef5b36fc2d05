/**
 * Client-side field rules. Each returns the i18n key of its message, or null when valid;
 * the panel checks the same rules and answers with the same catalogue codes.
 */
export type Rule = (value: string) => string | null;

export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 8;

export const username: Rule = (v) =>
  v.length >= USERNAME_MIN && /^[A-Za-z0-9_-]+$/.test(v) ? null : 'errors.ErrUsernameRequirements';

export const password: Rule = (v) => (v.length >= PASSWORD_MIN ? null : 'errors.ErrPasswordRequirements');

export const email: Rule = (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : 'validation.email');

export const required: Rule = (v) => (v.trim() !== '' ? null : 'validation.required');

export function sameAs(other: string): Rule {
  return (v) => (v === other ? null : 'errors.ErrPasswordsNotIdentical');
}
