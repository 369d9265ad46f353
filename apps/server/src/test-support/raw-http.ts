import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given (no client normalising paths, headers or bodies) and reads the
 * one answer. For what `fetch` and `inject` refuse to send: raw `..`, oversized headers, lies
 * in Content-Length.
 */
export async function sendRaw(
  port: number,
  request: string | Buffer,
  timeoutMs = 10_000,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) {
        reject(new Error(`not an HTTP answer: ${JSON.stringify(raw.toString('utf8', 0, 200))}`));
        return;
      }
      const [statusLine = '', ...headerLines] = raw.toString('latin1', 0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body: Buffer = raw.subarray(end + 4);
      if (headers['transfer-encoding'] === 'chunked') body = decodeChunked(body);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
    };
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', finish);
    socket.on('error', (error) => {
      // The server may reset after answering (e.g. an oversized body it stopped reading).
      if (chunks.length > 0) finish();
      else {
        clearTimeout(timer);
        reject(error);
      }
    });
    socket.write(request);
  });
}

function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let rest = body;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) break;
    const size = Number.parseInt(rest.toString('latin1', 0, lineEnd), 16);
    if (!size) break;
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    rest = rest.subarray(lineEnd + 2 + size + 2);
  }
  return Buffer.concat(parts);
}

/** A full HTTP/1.1 request; `Connection: close` so the answer ends with the socket. */
export function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = '',
): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== '' && !Object.keys(headers).some((name) => /content-length/i.test(name))) {
    lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
