import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import {
  daemonMessageLine,
  daemonMessageText,
  daemonMessages,
  parseDaemonMessage,
  stripDaemonMarker,
} from '../src/daemon-messages';
import { lineMatches } from '../src/console-pattern';

describe('daemon message codes', () => {
  it('writes the English text and a marker that parses back to code and parameters', () => {
    const line = daemonMessageLine('task.stepFailed', {
      name: 'Nightly & weekly = 100%',
      index: 2,
      total: 3,
      operation: "console: say 'hi'; (bye)",
      reason: 'ünïcødé ✓',
    });
    expect(
      line.startsWith("Task Nightly & weekly = 100% step 2/3 (console: say 'hi'; (bye)) failed: ünïcødé ✓"),
    ).toBe(true);
    expect(parseDaemonMessage(`[DAEMON] ${line}`)).toEqual({
      code: 'task.stepFailed',
      params: {
        name: 'Nightly & weekly = 100%',
        index: '2',
        total: '3',
        operation: "console: say 'hi'; (bye)",
        reason: 'ünïcødé ✓',
      },
      text: "[DAEMON] Task Nightly & weekly = 100% step 2/3 (console: say 'hi'; (bye)) failed: ünïcødé ✓",
    });
  });

  it('is removed whole by a common ANSI stripper, so API clients read plain English', () => {
    const line = daemonMessageLine('step.download', {
      url: 'https://example.com/a b?x=1&y=2',
      target: 'srv/ä.zip',
    });
    expect(stripAnsi(line)).toBe('Downloading https://example.com/a b?x=1&y=2 to srv/ä.zip');
  });

  it('writes term ids as their English word, and keeps the id in the marker', () => {
    const line = daemonMessageLine('phase.step', { phase: 'preStart', index: 1, total: 1, type: 'command' });
    expect(daemonMessageText('phase.step', { phase: 'preStart', index: 1, total: 1, type: 'command' })).toBe(
      'Pre-start step 1/1 (command)',
    );
    expect(parseDaemonMessage(line)?.params.phase).toBe('preStart');
  });

  it('lets a console alert pattern match the line as written, marker aside', () => {
    const line = `[DAEMON] ${daemonMessageLine('exit.code', { code: 1, seconds: '2.0' })}`;
    expect(stripDaemonMarker(line)).toBe('[DAEMON] Server exited with code 1 after 2.0 s');
    expect(lineMatches('[DAEMON] Server exited with code * after * s', 'glob', line)).toBe(true);
  });

  it('finds no code in game output or in a malformed marker', () => {
    expect(parseDaemonMessage('[DAEMON] Installing server')).toBeNull();
    expect(parseDaemonMessage('\u001b[32mgreen\u001b[0m')).toBeNull();
    expect(parseDaemonMessage('x\u001b]7767;hearth;task.running;name=%E0%A4\u0007')).toBeNull();
  });

  it('names each parameter of a wording once, as a word', () => {
    for (const wording of Object.values(daemonMessages)) {
      const names = [...wording.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      expect(names.every((n) => /^\w+$/.test(n ?? ''))).toBe(true);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
