/** Output of a real child process through the standard spawner (and its holder): UTF-8 split across reads, floods. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSlot } from '../../src/environment/holder/run-slot';
import { spawnStandard } from '../../src/environment/spawn-standard';

let dataDir = '';
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hearth-output-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** Runs `script` with node and collects its decoded output until exit. */
async function run(script: string): Promise<{ chunks: string[]; code: number | null }> {
  const chunks: string[] = [];
  return new Promise((resolve, reject) => {
    spawnStandard(new RunSlot(join(dataDir, 'run', 'output')))(
      { command: process.execPath, args: ['-e', script], cwd: tmpdir(), env: {} },
      { output: (text) => chunks.push(text), exit: (code) => resolve({ chunks, code }) },
    ).catch(reject);
  });
}

describe('standard spawner output', () => {
  it('never splits a code point when the process writes UTF-8 one byte at a time', async () => {
    const text = 'héllo wörld ✓ 🎮 日本語\n';
    // Each byte in its own write, a few ms apart, so the daemon reads them as separate chunks.
    const script = `const b = Buffer.from(${JSON.stringify(text)}); let i = 0;
      const next = () => { if (i < b.length) { process.stdout.write(b.subarray(i, ++i)); setTimeout(next, 2); } };
      next();`;
    const { chunks, code } = await run(script);
    expect(code).toBe(0);
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk).not.toContain('\uFFFD');
  });

  it('delivers a flood completely and in order while yielding between large reads', async () => {
    const lines = 100_000;
    const script = `let out = ''; for (let i = 0; i < ${lines}; i++) out += 'line ' + i + ' ' + 'x'.repeat(60) + '\\n';
      process.stdout.write(out);`;
    const { chunks, code } = await run(script);
    expect(code).toBe(0);
    const received = chunks.join('').split('\n');
    expect(received.pop()).toBe('');
    expect(received).toHaveLength(lines);
    expect(received.every((line, i) => line.startsWith(`line ${i} `))).toBe(true);
  });
});
