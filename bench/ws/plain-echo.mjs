// The anchor: a plain `ws` server in its own process, on loopback, with fw dev's settings (no compression). It echoes
// every message, and on `{"broadcast":...}` sends that text to every client connected (time to last delivery).
import { WebSocketServer } from 'ws';

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: 128 * 1024 });
server.on('connection', (socket) => {
  socket.on('message', (data, isBinary) => {
    const text = data.toString('utf8');
    if (text.startsWith('{"broadcast"')) {
      const out = JSON.stringify(JSON.parse(text).broadcast);
      for (const client of server.clients) client.send(out);
      return;
    }
    socket.send(data, { binary: isBinary });
  });
});
server.on('listening', () => process.stdout.write(`ready ${server.address().port}\n`));
