import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

/** A loopback HTTP server on an ephemeral port, for URL sources. */
export async function startLocalServer(listener: RequestListener): Promise<LocalServer> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port on which nothing listens (it was bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = await startLocalServer((_req, res) => res.end());
  await server.close();
  return server.url;
}
