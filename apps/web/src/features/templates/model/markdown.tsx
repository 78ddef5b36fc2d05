import { Fragment, type ReactNode } from 'react';

/**
 * A tiny Markdown renderer for template readmes that builds React elements only: text is never parsed as
 * HTML (React escapes it), so raw HTML and scripts in a readme show as text. Links are kept only for
 * http(s) URLs. Supports headings, paragraphs, lists, fenced code, `code`, **bold**, *italic*, [links](url).
 */
const inlinePattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(inlinePattern)) {
    const at = m.index;
    if (at > last) out.push(text.slice(last, at));
    const key = out.length;
    if (m[1] !== undefined) out.push(<code key={key}>{m[1]}</code>);
    else if (m[2] !== undefined) out.push(<strong key={key}>{m[2]}</strong>);
    else if (m[3] !== undefined) out.push(<em key={key}>{m[3]}</em>);
    else if (m[4] !== undefined && m[5] !== undefined && /^https?:\/\//i.test(m[5])) {
      out.push(
        <a key={key} href={m[5]} target="_blank" rel="noopener noreferrer nofollow">
          {m[4]}
        </a>,
      );
    } else out.push(m[0]);
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'paragraph'; text: string };

export function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const prev = blocks[blocks.length - 1];
    if (line.startsWith('```')) {
      const body: string[] = [];
      while (++i < lines.length && !(lines[i] ?? '').startsWith('```')) body.push(lines[i] ?? '');
      blocks.push({ kind: 'code', text: body.join('\n') });
    } else if (/^#{1,6}\s/.test(line)) {
      const hashes = line.match(/^#+/)?.[0].length ?? 1;
      blocks.push({ kind: 'heading', level: hashes, text: line.slice(hashes).trim() });
    } else if (/^\s*[-*]\s+/.test(line)) {
      const item = line.replace(/^\s*[-*]\s+/, '');
      if (prev?.kind === 'list') prev.items.push(item);
      else blocks.push({ kind: 'list', items: [item] });
    } else if (line.trim() === '') {
      blocks.push({ kind: 'paragraph', text: '' });
    } else if (prev?.kind === 'paragraph' && prev.text !== '') prev.text += ` ${line.trim()}`;
    else if (prev?.kind === 'list' && /^\s+\S/.test(line)) {
      prev.items[prev.items.length - 1] += ` ${line.trim()}`;
    } else blocks.push({ kind: 'paragraph', text: line.trim() });
  }
  return blocks.filter((b) => b.kind !== 'paragraph' || b.text !== '');
}

/** Each block takes its own text's direction (`dir="auto"`): an English readme stays LTR inside an RTL locale. */
function renderBlock(block: Block, key: number): ReactNode {
  switch (block.kind) {
    case 'heading': {
      const Tag = `h${Math.min(block.level + 2, 6)}` as 'h3';
      return (
        <Tag key={key} dir="auto">
          {renderInline(block.text)}
        </Tag>
      );
    }
    case 'list':
      return (
        <ul key={key}>
          {block.items.map((item, i) => (
            <li key={i} dir="auto">
              {renderInline(item)}
            </li>
          ))}
        </ul>
      );
    case 'code':
      return (
        <pre key={key} dir="auto">
          {block.text}
        </pre>
      );
    case 'paragraph':
      return (
        <p key={key} dir="auto">
          {renderInline(block.text)}
        </p>
      );
  }
}

export function SafeMarkdown({ source }: { source: string }) {
  return <Fragment>{parseBlocks(source).map(renderBlock)}</Fragment>;
}
