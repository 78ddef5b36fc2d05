import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { parseBlocks, renderInline } from '../src/features/templates/model/markdown';
import { unknownProcessorNames } from '../src/features/templates/model/processors';
import {
  argumentsOf,
  shutdownKind,
  splitCommand,
  withArguments,
  withShutdown,
} from '../src/features/templates/model/run';
import { valueText } from '../src/features/templates/model/variables';
import { templateSchema } from '@hearth/contract';

describe('run configuration', () => {
  it('splits a command like the daemon and re-joins arguments with quotes', () => {
    expect(splitCommand(`java -Xmx\${memory}M -jar "my server.jar" 'a b'`)).toEqual([
      'java',
      '-Xmx${memory}M',
      '-jar',
      'my server.jar',
      'a b',
    ]);
    const line = withArguments('"/opt/my game/run" --old', ['--port', '${port}', 'two words']);
    expect(line).toBe('"/opt/my game/run" --port ${port} "two words"');
    expect(argumentsOf(line)).toEqual(['--port', '${port}', 'two words']);
    expect(withArguments('./run --x', [])).toBe('./run');
  });

  it('keeps exactly one stop setting', () => {
    const run = templateSchema.parse({ run: { stop: 'quit' } }).run;
    expect(shutdownKind(run)).toBe('command');
    const signal = withShutdown(run, 'signal', 2);
    expect(signal).toMatchObject({ stopCode: 2 });
    expect('stop' in signal).toBe(false);
    const back = withShutdown(signal, 'command', 'stop');
    expect(back.stop).toBe('stop');
    expect('stopCode' in back).toBe(false);
  });
});

describe('warnings and values', () => {
  it('names processors Hearth does not run yet, once each', () => {
    const t = templateSchema.parse({
      install: [
        { type: 'javadl', version: '21' },
        { type: 'command', commands: ['x'] },
      ],
      run: { pre: [{ type: 'steamgamedl', appId: '1' }], post: [{ type: 'javadl' }] },
    });
    expect(unknownProcessorNames(t)).toEqual(['javadl', 'steamgamedl']);
  });

  it('shows variable values as text', () => {
    expect([valueText(null), valueText(5), valueText(true), valueText({ a: 1 })]).toEqual([
      '',
      '5',
      'true',
      '{"a":1}',
    ]);
  });
});

describe('safe readme renderer', () => {
  it('parses headings, lists, code and paragraphs', () => {
    const blocks = parseBlocks('# Title\n\nSome *text*\ngoes on\n\n- one\n- two\n\n```\n<b>x</b>\n```');
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'code']);
    expect(blocks[1]).toEqual({ kind: 'paragraph', text: 'Some *text* goes on' });
  });

  it('never produces HTML from text and only links http(s) URLs', () => {
    const nodes = renderInline('<script>alert(1)</script> [bad](javascript:alert(1)) [ok](https://x.org)');
    expect(nodes[0]).toBe('<script>alert(1)</script> ');
    const links = nodes.filter(isValidElement) as ReactElement<{ href?: string }>[];
    expect(links.map((l) => l.props.href)).toEqual(['https://x.org']);
    expect(nodes.filter((n) => typeof n === 'string').join('')).toContain('[bad](javascript:alert(1)');
  });
});
