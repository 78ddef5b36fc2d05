/**
 * Fuller SSH packets for a batch of SFTP replies. ssh2 sends every reply as its own CHANNEL_DATA packets: a
 * 32 KiB READ reply (13 header bytes + data) against OpenSSH's 32 KiB maximum packet becomes a full packet plus
 * a 13-byte one, and each WRITE's status a packet of its own; every packet costs an encryption, random padding
 * and the client's decryption. Within `coalesced(replies)`, the channel data of the replies is gathered and
 * sent as packets of up to the channel's packet size; ssh2 has already counted it against the window, and the
 * byte stream is unchanged. This reaches into ssh2's SFTP object (`_protocol`, `outgoing`; ssh2 is pinned): if
 * either is missing, replies go out as before.
 */
import type { SFTPWrapper } from 'ssh2';

interface ChannelSender {
  channelData(chan: number, data: Buffer): void;
}

interface SftpInternals {
  _protocol?: ChannelSender;
  outgoing?: { packetSize?: number };
}

export type Coalescer = (replies: () => void) => void;

/** Sends `parts` (all for `chan`) as packets of at most `packetSize` bytes. */
export function sendPacked(sender: ChannelSender, chan: number, parts: Buffer[], packetSize: number): void {
  let packet: Buffer[] = [];
  let size = 0;
  const send = () => {
    sender.channelData(chan, packet.length === 1 ? (packet[0] as Buffer) : Buffer.concat(packet, size));
    packet = [];
    size = 0;
  };
  for (let part of parts) {
    while (part.length > 0) {
      const take = Math.min(part.length, packetSize - size);
      packet.push(take === part.length ? part : part.subarray(0, take));
      size += take;
      part = part.subarray(take);
      if (size === packetSize) send();
    }
  }
  if (size > 0) send();
}

export function coalescer(sftp: SFTPWrapper): Coalescer {
  const internals = sftp as unknown as SftpInternals;
  const real = internals._protocol;
  const packetSize = internals.outgoing?.packetSize;
  if (!real || typeof real.channelData !== 'function' || !packetSize) return (replies) => replies();
  let gathered: Buffer[] | null = null;
  let chan = 0;
  const flush = () => {
    const parts = gathered;
    gathered = null;
    if (parts && parts.length > 0) sendPacked(real, chan, parts, packetSize);
  };
  // Anything else ssh2 sends on this channel (close, EOF) first flushes what was gathered, keeping the order.
  internals._protocol = new Proxy(real, {
    get(target, key, receiver) {
      if (key === 'channelData')
        return (to: number, data: Buffer) => {
          if (!gathered) return target.channelData(to, data);
          chan = to;
          gathered.push(data);
        };
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        flush();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return (replies) => {
    if (gathered) return replies(); // already inside a batch
    gathered = [];
    try {
      replies();
    } finally {
      flush();
    }
  };
}
