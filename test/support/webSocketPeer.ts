/**
 * The server side of one WebSocket connection (RFC 6455), enough to play Slack's Socket Mode
 * endpoint: the opening handshake, text frames both ways, ping → pong, and close. Fragmented
 * frames are not needed (Slack's client sends each message whole) and are refused.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OP = { text: 0x1, close: 0x8, ping: 0x9, pong: 0xa } as const;

export class WebSocketPeer {
  private buffer = Buffer.alloc(0);
  private closed = false;
  private readonly listeners: Array<(text: string) => void> = [];

  private constructor(private readonly socket: Duplex) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    socket.on('close', () => {
      this.closed = true;
    });
    socket.on('error', () => {
      this.closed = true;
    });
  }

  /** Completes the handshake of an HTTP `upgrade` request and returns the connection. */
  static accept(req: IncomingMessage, socket: Duplex): WebSocketPeer {
    const key = String(req.headers['sec-websocket-key'] ?? '');
    const accept = createHash('sha1').update(`${key}${GUID}`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    return new WebSocketPeer(socket);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  onText(listener: (text: string) => void): void {
    this.listeners.push(listener);
  }

  sendText(text: string): void {
    this.frame(OP.text, Buffer.from(text, 'utf8'));
  }

  /** Sends a close frame and ends the connection. */
  close(code = 1000): void {
    if (this.closed) return;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    this.frame(OP.close, payload);
    this.closed = true;
    this.socket.end();
  }

  private frame(opcode: number, payload: Buffer): void {
    if (this.closed) return;
    let header: Buffer;
    if (payload.length < 126) {
      header = Buffer.from([0x80 | opcode, payload.length]);
    } else if (payload.length < 65_536) {
      header = Buffer.alloc(4);
      header[0] = 0x80 | opcode;
      header[1] = 126;
      header.writeUInt16BE(payload.length, 2);
    } else {
      header = Buffer.alloc(10);
      header[0] = 0x80 | opcode;
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(payload.length), 2);
    }
    this.socket.write(Buffer.concat([header, payload]));
  }

  /** Reads every complete frame in the buffer. Client frames are always masked. */
  private drain(): void {
    for (;;) {
      if (this.buffer.length < 2) return;
      const first = this.buffer[0] as number;
      const second = this.buffer[1] as number;
      let length = second & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const masked = (second & 0x80) !== 0;
      const mask = masked ? this.buffer.subarray(offset, offset + 4) : undefined;
      if (masked) offset += 4;
      if (this.buffer.length < offset + length) return;
      const payload = Buffer.from(this.buffer.subarray(offset, offset + length));
      if (mask) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      this.buffer = this.buffer.subarray(offset + length);
      if ((first & 0x80) === 0) {
        this.close(1003);
        return;
      }
      const opcode = first & 0x0f;
      if (opcode === OP.text) for (const listener of this.listeners) listener(payload.toString('utf8'));
      else if (opcode === OP.ping) this.frame(OP.pong, payload);
      else if (opcode === OP.close) this.close();
    }
  }
}
