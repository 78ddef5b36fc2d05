/** Every rule a variable value is held to (docs/daemon.md § Variables and commands). */
import { describe, expect, it } from 'vitest';
import {
  checkVariableValue,
  templateSchema,
  VARIABLE_INTEGER_LIMIT,
  VARIABLE_STRING_MAX_LENGTH,
  variableSchema,
  type VariableCheck,
} from '../src/index';

const integer = variableSchema.parse({ type: 'integer' });
const port = variableSchema.parse({ type: 'integer', min: 1, max: 65535 });
const text = variableSchema.parse({ type: 'string' });
const flag = variableSchema.parse({ type: 'boolean' });
const mode = variableSchema.parse({
  type: 'option',
  options: [{ value: 'survival' }, { value: 'creative' }, { value: 3 }],
});

const accepted = (check: VariableCheck) => (check.ok ? check.value : `refused: ${check.reason}`);
const refused = (check: VariableCheck) => !check.ok;

describe('integer variables', () => {
  it('accept safe integers and digit strings within ±2,147,483,647', () => {
    expect(accepted(checkVariableValue(integer, 25565))).toBe(25565);
    expect(accepted(checkVariableValue(integer, ' 42 '))).toBe(42);
    expect(accepted(checkVariableValue(integer, -7))).toBe(-7);
    expect(accepted(checkVariableValue(integer, VARIABLE_INTEGER_LIMIT))).toBe(VARIABLE_INTEGER_LIMIT);
    expect(accepted(checkVariableValue(integer, -VARIABLE_INTEGER_LIMIT))).toBe(-VARIABLE_INTEGER_LIMIT);
  });

  it('refuse 1e20 (as JSON number and as text), values past the 32-bit range, fractions and non-numbers', () => {
    const parsedFromJson = (JSON.parse('{"port": 1e20}') as { port: unknown }).port;
    expect(Number.isInteger(parsedFromJson)).toBe(true); // why the old check let it through
    for (const value of [
      parsedFromJson,
      '1e20',
      VARIABLE_INTEGER_LIMIT + 1,
      -VARIABLE_INTEGER_LIMIT - 1,
      '2147483648',
      '99999999999999999999',
      Number.MAX_SAFE_INTEGER + 2,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '0x10',
      '12abc',
      '',
      true,
      [1],
      { value: 1 },
    ]) {
      expect(refused(checkVariableValue(integer, value)), String(value)).toBe(true);
    }
  });

  it('hold to the min and max a template declares (a port: 1–65535)', () => {
    expect(accepted(checkVariableValue(port, 1))).toBe(1);
    expect(accepted(checkVariableValue(port, '65535'))).toBe(65535);
    for (const value of [0, -1, 65536, 99999999, '99999999', 1e20]) {
      expect(refused(checkVariableValue(port, value)), String(value)).toBe(true);
    }
    expect(checkVariableValue(port, 99999999)).toEqual({ ok: false, reason: 'above the maximum 65535' });
    expect(checkVariableValue(port, 0)).toEqual({ ok: false, reason: 'below the minimum 1' });
  });

  it('take min/max only as integers within the 32-bit range', () => {
    expect(variableSchema.safeParse({ type: 'integer', min: 1.5 }).success).toBe(false);
    expect(variableSchema.safeParse({ type: 'integer', max: 1e20 }).success).toBe(false);
    expect(variableSchema.safeParse({ type: 'integer', min: '1' }).success).toBe(false);
    const template = templateSchema.parse({
      run: {},
      data: { port: { type: 'integer', min: 1, max: 65535 } },
    });
    expect(template.data.port).toMatchObject({ min: 1, max: 65535 });
  });
});

describe('string variables', () => {
  it('accept text up to 4,096 characters, spaces, quotes and shell syntax included', () => {
    for (const value of ['hello world', 'it\'s "quoted"', '$(id); rm -rf x', 'ünïcødé ✓', '']) {
      expect(accepted(checkVariableValue(text, value))).toBe(value);
    }
    const longest = 'x'.repeat(VARIABLE_STRING_MAX_LENGTH);
    expect(accepted(checkVariableValue(text, longest))).toBe(longest);
    expect(accepted(checkVariableValue(text, 12))).toBe('12');
  });

  it('refuse a 2 MB value and one character past the limit', () => {
    expect(refused(checkVariableValue(text, 'x'.repeat(2 * 1024 * 1024)))).toBe(true);
    expect(checkVariableValue(text, 'x'.repeat(VARIABLE_STRING_MAX_LENGTH + 1))).toEqual({
      ok: false,
      reason: 'longer than 4096 characters',
    });
  });

  it('refuse newline, carriage return, tab, NUL, every other C0 control and DEL', () => {
    const controls = ['line\nmore', 'a\rb', 'a\tb', 'a\u0000b', '\u001b[31m', 'a\u007fb'];
    for (let code = 0; code <= 0x1f; code++) controls.push(`x${String.fromCharCode(code)}y`);
    for (const value of controls) {
      expect(refused(checkVariableValue(text, value)), JSON.stringify(value)).toBe(true);
    }
  });

  it('refuse non-text values', () => {
    for (const value of [true, ['a'], { a: 1 }]) expect(refused(checkVariableValue(text, value))).toBe(true);
  });
});

describe('option and boolean variables', () => {
  it('accept only a value from the list, of the same type', () => {
    expect(accepted(checkVariableValue(mode, 'creative'))).toBe('creative');
    expect(accepted(checkVariableValue(mode, 3))).toBe(3);
    for (const value of ['hardcore', '3', 'creative\n', '', false]) {
      expect(refused(checkVariableValue(mode, value)), String(value)).toBe(true);
    }
  });

  it('an option without a list accepts nothing but the empty value', () => {
    const bare = variableSchema.parse({ type: 'option' });
    expect(refused(checkVariableValue(bare, 'anything'))).toBe(true);
    expect(accepted(checkVariableValue(bare, null))).toBe('');
  });

  it('booleans accept true/false and their text only', () => {
    expect(accepted(checkVariableValue(flag, 'true'))).toBe(true);
    expect(accepted(checkVariableValue(flag, false))).toBe(false);
    for (const value of ['yes', 1, 'TRUE']) expect(refused(checkVariableValue(flag, value))).toBe(true);
  });

  it('a missing value is the empty value of its type', () => {
    expect(accepted(checkVariableValue(port, undefined))).toBe(0);
    expect(accepted(checkVariableValue(text, null))).toBe('');
    expect(accepted(checkVariableValue(flag, undefined))).toBe(false);
  });
});
