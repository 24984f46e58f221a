/**
 * A stand-in for Placid's decision API that answers as badly as a test asks: raw bytes on a TCP
 * socket (so it can break HTTP itself), on 127.0.0.1, in the test's own process.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';

/** What the plug-in sent: its JSON body, parsed. */
export type Asked = { candidates: { host: string; nodename: string }[]; [k: string]: unknown };
/** The request as it came: lower-cased header names, the body's bytes. */
export interface RawRequest {
  headers: Record<string, string>;
  body: Buffer;
}
/** Answers one request on `socket` (and may keep it open, drip, or hang). */
export type Behaviour = (socket: Socket, asked: Asked, request: RawRequest) => void;

export class HostileServer {
  connections = 0;
  /** Bytes the behaviour wrote that the socket accepted. */
  bytesWritten = 0;
  readonly requests: { asked: Asked; request: RawRequest }[] = [];
  behaviour: Behaviour = (socket) => answerRaw(socket, 'HTTP/1.1 500 Nope\r\nContent-Length: 0\r\n\r\n');
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HostileServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const hostile = new HostileServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    server.on('connection', (socket) => hostile.accept(socket));
    return hostile;
  }

  private accept(socket: Socket): void {
    this.connections++;
    this.sockets.add(socket);
    socket.on('close', () => {
      this.bytesWritten += socket.bytesWritten;
      this.sockets.delete(socket);
    });
    socket.on('error', () => {});
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = Object.fromEntries(
        received
          .subarray(0, end)
          .toString('latin1')
          .split('\r\n')
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.off('data', onData);
      const request = { headers, body: received.subarray(end + 4, end + 4 + length) };
      const asked = JSON.parse(request.body.toString('utf8')) as Asked;
      this.requests.push({ asked, request });
      this.behaviour(socket, asked, request);
    };
    socket.on('data', onData);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function answerRaw(socket: Socket, raw: string | Buffer): void {
  socket.end(raw);
}

/** A 200 with `body` as it is (any bytes, any JSON-ish text), with its Content-Length. */
export function answerBody(socket: Socket, body: string | Buffer): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  socket.end(
    Buffer.concat([
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      ),
      bytes,
    ]),
  );
}

/** Writes `chunk` again and again (with backpressure) until the client goes away. */
export function stream(socket: Socket, head: string, chunk: Buffer): void {
  socket.write(head);
  const more = () => {
    while (!socket.destroyed && socket.write(chunk)) {}
  };
  socket.on('drain', more);
  more();
}
