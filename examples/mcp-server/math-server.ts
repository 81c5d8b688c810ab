// A small MCP server (Streamable HTTP, the official SDK) for Atelier's MCP rollout kind: math tools an
// agent combines to answer a question. Stateless: each POST /mcp gets its own server and transport,
// as the SDK's stateless example does, so any number of episodes can run at once.
//
//   npx tsx examples/mcp-server/math-server.ts         # listens on PORT (default 8766), prints its URL
import http from 'node:http';
import { pathToFileURL } from 'node:url';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

import { evaluate } from '../http-env/calculator-env';

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, dozen: 12, gross: 144, score: 20 };

export function mathServer(): McpServer {
  const server = new McpServer({ name: 'atelier-example-math', version: '1.0.0' });
  server.registerTool(
    'calculate',
    {
      description: 'Evaluates an arithmetic expression (numbers, + - * / and parentheses).',
      inputSchema: { expression: z.string().describe('e.g. (12 + 7) * 3') },
    },
    async ({ expression }) => {
      try {
        return { content: [{ type: 'text', text: String(evaluate(expression)) }] };
      } catch (err) {
        return { content: [{ type: 'text', text: `error: ${(err as Error).message}` }], isError: true };
      }
    },
  );
  server.registerTool(
    'lookup_constant',
    {
      description: `The value of a named constant (${Object.keys(CONSTANTS).join(', ')}).`,
      inputSchema: { name: z.string() },
    },
    async ({ name }) => {
      const key = Object.keys(CONSTANTS).find((k) => name.toLowerCase().includes(k));
      return { content: [{ type: 'text', text: key ? `${key} = ${CONSTANTS[key]}` : `unknown constant ${name}` }] };
    },
  );
  return server;
}

/** Serves the MCP server at {url}/mcp on a port (0: a free one). */
export function serve(port = 0): Promise<{ url: string; server: http.Server }> {
  const httpServer = http.createServer((req, res) => {
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    if (req.method !== 'POST')
      return void res
        .writeHead(405, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null}');
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      const server = mathServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined);
    });
  });
  return new Promise((resolve) =>
    httpServer.listen(port, '127.0.0.1', () => {
      const { port: bound } = httpServer.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${bound}/mcp`, server: httpServer });
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void serve(Number(process.env.PORT ?? 8766)).then(({ url }) => console.log(`MCP server at ${url}`));
}
