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

  it('writes the environment, supervision, backup and downloader lines with their former English text', () => {
    // The wording API clients read before these lines had codes (issue 16 item 13, second part).
    const cases: [string, string][] = [
      [
        daemonMessageLine('docker.pullLayer', { layer: 'a1b2c3', status: 'Pull complete' }),
        'Pull: a1b2c3: Pull complete',
      ],
      [
        daemonMessageLine('docker.pulling', { image: 'busybox:1' }),
        'Image busybox:1 is not on this node; pulling it',
      ],
      [
        daemonMessageLine('supervision.reattached', { pid: 42 }),
        'Re-attached to the running server (pid 42); its recent output:',
      ],
      [daemonMessageLine('backup.started', { trigger: 'task' }), 'Backup started (task)'],
      [
        daemonMessageLine('backup.retention', { forgotten: 2 }),
        'Backup retention: 2 older backup(s) forgotten',
      ],
      [
        daemonMessageLine('restore.failed', { reason: 'disk full' }),
        'Restore failed: disk full; the server folder is unchanged',
      ],
      [
        daemonMessageLine('download.receivedPercent', { mib: '1.5', percent: 50 }),
        '  1.5 MiB received (50%)',
      ],
      [daemonMessageLine('minecraft.version', { version: '1.20.4' }), 'Minecraft version 1.20.4'],
    ];
    for (const [line, english] of cases) {
      expect(stripAnsi(line)).toBe(english);
      expect(parseDaemonMessage(line)?.text).toBe(english);
    }
    expect(parseDaemonMessage(cases[3]?.[0] ?? '')?.params).toEqual({ trigger: 'task' });
  });

  it('names each parameter of a wording once, as a word', () => {
    for (const wording of Object.values(daemonMessages)) {
      const names = [...wording.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      expect(names.every((n) => /^\w+$/.test(n ?? ''))).toBe(true);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
