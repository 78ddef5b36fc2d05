import { describe, expect, it } from 'vitest';
import {
  CONSOLE_BUFFER_LIMIT,
  CONSOLE_BUFFER_TRIM_TO,
  ConsoleBuffer,
  lineUnits,
  redrawn,
  trimLines,
} from '../src/features/servers/console/console-buffer';
import { renderLines } from '../src/features/servers/console/ansi';
import { visibleWindow } from '../src/features/servers/console/virtual';

describe('console buffer', () => {
  it('uses the console buffer limits and counts a line as twice its length', () => {
    expect(CONSOLE_BUFFER_LIMIT).toBe(4194304);
    expect(CONSOLE_BUFFER_TRIM_TO).toBe(2097152);
    expect(lineUnits('abcd')).toBe(8);
  });

  it('joins chunks that split lines anywhere and keeps the unfinished tail as the last line', () => {
    const buffer = new ConsoleBuffer();
    buffer.append('hel');
    expect(buffer.lines()).toEqual(['hel']);
    buffer.append('lo\nwor');
    buffer.append('ld\r\n> ');
    expect(buffer.lines()).toEqual(['hello', 'world', '> ']);
    expect(buffer.units).toBe(2 * ('hello'.length + 'world'.length + 2));
  });

  it('keeps the last drawing of a line redrawn with carriage returns', () => {
    expect(redrawn('10%\r50%\r100%')).toBe('100%');
    expect(redrawn('done\r')).toBe('done');
    expect(redrawn('\r')).toBe('');
    const buffer = new ConsoleBuffer();
    buffer.append('1%\r2%\r3%\r\nnext\n');
    expect(buffer.lines()).toEqual(['3%', 'next']);
  });

  it('trims the oldest lines to the target once over the limit, and bumps the version', () => {
    const buffer = new ConsoleBuffer(100, 50);
    const before = buffer.version;
    for (let i = 0; i < 10; i++) buffer.append(`line${i}\n`); // 5 chars = 10 units each
    expect(buffer.units).toBe(100);
    expect(buffer.lines()).toHaveLength(10);
    buffer.append('line10\n'); // 112 > 100 → down to ≤ 50
    expect(buffer.units).toBeLessThanOrEqual(50);
    expect(buffer.lines()).toEqual(['line7', 'line8', 'line9', 'line10']); // 42 units; with line6 it would be 52
    expect(buffer.version).toBeGreaterThan(before);
  });

  it('trims with the real limits under a flood', () => {
    const buffer = new ConsoleBuffer();
    const line = `flood ${'x'.repeat(94)}\n`; // 100 chars + newline
    for (let i = 0; i < 25_000; i++) buffer.append(line);
    expect(buffer.units).toBeLessThanOrEqual(CONSOLE_BUFFER_LIMIT);
    expect(buffer.lines().length).toBeGreaterThan(CONSOLE_BUFFER_TRIM_TO / 200 - 1);
  });

  it('trimLines drops from the front only as far as needed', () => {
    expect(trimLines(['aa', 'bb', 'cc'], 12, 8)).toEqual({ dropped: 1, units: 8 });
    expect(trimLines(['aa'], 4, 8)).toEqual({ dropped: 0, units: 4 });
  });

  it('notifies subscribers of changes', () => {
    const buffer = new ConsoleBuffer();
    let calls = 0;
    const off = buffer.subscribe(() => calls++);
    buffer.append('x\n');
    buffer.append('');
    off();
    buffer.append('y\n');
    expect(calls).toBe(1);
  });
});

describe('ANSI rendering', () => {
  it('colours ANSI sequences with inline styles', () => {
    const [line] = renderLines(['\u001b[31mred\u001b[0m plain']);
    expect(line?.html).toBe('<span style="color:rgb(187,0,0)">red</span> plain');
  });

  it('escapes HTML so server output cannot inject markup', () => {
    const hostile = [
      '<img src=x onerror=alert(1)>',
      '\u001b[32m<script>alert(1)</script>\u001b[0m',
      '"\'><svg onload=alert(1)>&amp;',
    ];
    for (const { html } of renderLines(hostile)) {
      expect(html).not.toMatch(/<(img|script|svg)/i);
      expect(html.replace(/<\/?span[^>]*>/g, '')).not.toMatch(/[<>]/);
    }
    expect(renderLines(['<b>'])[0]?.html).toBe('&lt;b&gt;');
  });

  it('turns only http(s) OSC 8 hyperlinks into links, never javascript:', () => {
    const link = (url: string) => `\u001b]8;;${url}\u001b\\click\u001b]8;;\u001b\\`;
    expect(renderLines([link('javascript:alert(1)')])[0]?.html).not.toContain('href');
    expect(renderLines([link('https://example.com/"x')])[0]?.html).toBe(
      '<a href="https://example.com/&quot;x">click</a>',
    );
  });

  it('marks daemon lines and drops the prefix from the text', () => {
    const [daemon, game] = renderLines(['[DAEMON] Installing server', 'game line']);
    expect(daemon).toEqual({ daemon: true, html: 'Installing server' });
    expect(game?.daemon).toBe(false);
  });
});

describe('virtual window', () => {
  it('renders only the lines in view plus overscan', () => {
    expect(
      visibleWindow({ count: 10_000, scrollTop: 0, viewport: 400, lineHeight: 20, overscan: 5 }),
    ).toEqual({
      start: 0,
      end: 25,
    });
    expect(
      visibleWindow({ count: 10_000, scrollTop: 20_000, viewport: 400, lineHeight: 20, overscan: 5 }),
    ).toEqual({ start: 995, end: 1025 });
    expect(visibleWindow({ count: 3, scrollTop: 0, viewport: 400, lineHeight: 20, overscan: 5 })).toEqual({
      start: 0,
      end: 3,
    });
  });
});
