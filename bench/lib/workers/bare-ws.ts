// Worker: the baseline for the fanout scenario, a bare `ws` server. It speaks just enough of the
// graphql-transport-ws protocol (ack, subscribe, complete, ping) for the same graphql-ws clients
// to subscribe, and on a POST it replies, then sends one prepared payload to every subscription:
// the least work any server can do to broadcast that event.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { WebSocketServer, type WebSocket } from 'ws';

import { serveWorker } from '../worker';

const subscriptions = new Map<WebSocket, Set<string>>();
let tail = ',"type":"next","payload":{"data":null}}';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"broadcast":true}}');
    for (const [socket, ids] of subscriptions) for (const id of ids) socket.send(`{"id":${JSON.stringify(id)}${tail}`);
  });
});
const wss = new WebSocketServer({ server, path: '/graphql' });
wss.on('connection', (socket) => {
  subscriptions.set(socket, new Set());
  socket.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { type: string; id?: string };
    if (m.type === 'connection_init') socket.send('{"type":"connection_ack"}');
    else if (m.type === 'ping') socket.send('{"type":"pong"}');
    else if (m.type === 'subscribe' && m.id) subscriptions.get(socket)?.add(m.id);
    else if (m.type === 'complete' && m.id) subscriptions.get(socket)?.delete(m.id);
  });
  socket.on('close', () => subscriptions.delete(socket));
});

serveWorker({
  async start() {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pid: process.pid };
  },
  /** The event's `data`, exactly as Atelier sent it; serialized once, as a broadcast would. */
  setPayload(p: { data: unknown }) {
    tail = `,"type":"next","payload":${JSON.stringify({ data: p.data })}}`;
  },
  subscriptions() {
    let n = 0;
    for (const ids of subscriptions.values()) n += ids.size;
    return n;
  },
  async close() {
    for (const socket of wss.clients) socket.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
});
