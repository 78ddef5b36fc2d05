import { describe, expect, it } from 'vitest';
import {
  cpuAxisMax,
  HISTORY_POINTS,
  latest,
  memoryAxisMax,
  memoryInUnit,
  niceCeil,
  pushPoint,
  round2,
  seedHistory,
  STATS_INTERVAL_MS,
} from '../src/features/servers/stats/stats-model';
import { sftpInfo } from '../src/features/servers/sftp/sftp';

describe('statistics model', () => {
  it('seeds 40 points 3 s apart ending now, their values unknown (no fake zeros before the page opened)', () => {
    const history = seedHistory(120_000);
    expect(HISTORY_POINTS).toBe(40);
    expect(STATS_INTERVAL_MS).toBe(3000);
    expect(history.times).toHaveLength(40);
    expect(history.times.at(-1)).toBe(120);
    expect(history.times[0]).toBe(120 - 39 * 3);
    expect(history.cpu.every((v) => v === null) && history.memory.every((v) => v === null)).toBe(true);
    expect(latest(history.cpu)).toBeNull();
    expect(latest(pushPoint(history, 123_000, 4, 5).cpu)).toBe(4);
  });

  it('keeps the latest 40 points and rounds CPU to 2 decimals', () => {
    let history = seedHistory(0);
    history = pushPoint(history, 3000, 12.3456, 5_000_000);
    expect(history.times).toHaveLength(40);
    expect(history.cpu.at(-1)).toBe(12.35);
    expect(history.memory.at(-1)).toBe(5_000_000);
    for (let i = 0; i < 50; i++) history = pushPoint(history, 6000 + i * 3000, i, i);
    expect(history.cpu).toHaveLength(40);
    expect(history.cpu[0]).toBe(10);
    expect(round2(2.345678)).toBe(2.35);
  });

  it('CPU axis goes to at least 100 %, higher when a value is higher', () => {
    expect(cpuAxisMax([0, 12])).toBe(100);
    expect(cpuAxisMax([150.5])).toBe(150.5);
  });

  it('memory in MB (1000 steps) or MiB (1024 steps), axis a round value above the data or the limit', () => {
    expect(memoryInUnit(1_500_000, false)).toBe(1.5);
    expect(memoryInUnit(1024 * 1024 * 3, true)).toBe(3);
    expect(memoryInUnit(1_000_000, true)).toBe(0.95);
    expect(memoryAxisMax([null, 0, 10])).toBe(20);
    expect(memoryAxisMax([null, 61.3])).toBe(100);
    expect(memoryAxisMax([2048])).toBe(2500);
    expect(memoryAxisMax([null, null])).toBe(1);
    expect(memoryAxisMax([300], 512)).toBe(512);
    expect(memoryAxisMax([600], 512)).toBe(1000);
    expect([0.7, 1, 3, 24, 180].map(niceCeil)).toEqual([1, 1, 5, 25, 200]);
  });
});

describe('SFTP information', () => {
  const server = {
    id: 'ab12cd34',
    name: 's',
    type: 'generic',
    node: { id: '1', name: 'n', publicHost: 'node.example.com', publicPort: 8080, sftpPort: 5657 },
    ip: '',
    port: null,
    address: '',
  };

  it('uses the node public host and SFTP port, username email#serverId first, email|serverId beside it', () => {
    expect(sftpInfo(server, 'a@b.c', 'panel.local')).toEqual({
      host: 'node.example.com',
      port: 5657,
      address: 'node.example.com:5657',
      username: 'a@b.c#ab12cd34',
      usernameAlt: 'a@b.c|ab12cd34',
      command: "sftp -P 5657 'a@b.c#ab12cd34@node.example.com'",
      url: 'sftp://a%40b.c%23ab12cd34@node.example.com:5657',
      sshConfig: 'Host hearth-ab12cd34\n  HostName node.example.com\n  Port 5657\n  User a@b.c#ab12cd34',
    });
  });

  it('quotes a single quote in the e-mail for the shell and brackets an IPv6 host', () => {
    const info = sftpInfo({ ...server, node: { ...server.node, publicHost: '::1' } }, "o'neil@b.c", 'x');
    expect(info.command).toBe("sftp -P 5657 'o'\\''neil@b.c#ab12cd34@[::1]'");
    expect(info.url).toBe("sftp://o'neil%40b.c%23ab12cd34@[::1]:5657");
  });

  it('uses the page host when the public host is {ip}', () => {
    const info = sftpInfo({ ...server, node: { ...server.node, publicHost: '{ip}' } }, 'a@b.c', '10.0.0.5');
    expect(info.address).toBe('10.0.0.5:5657');
  });
});
