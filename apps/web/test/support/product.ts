/**
 * The product on loopback for a test file of the web project: the real API as a child process
 * (its own SQLite database), the real web server in front of it (pages compiled by Vite), a
 * connection to the API's database for counting what it wrote, and — when a test asks whether
 * addresses can receive mail — a DNS server answering for the domains it names. `stop()` ends
 * them all, last started first.
 */
import { afterAll, beforeAll } from 'vitest';
import { connectDatabase, type DatabaseConnection } from '../../../api/src/db/connect.ts';
import { startDnsServer, type TestDnsServer } from '../../../api/test/support/dns-server.ts';
import { TEST_SECRET } from '../../../api/test/support/env.ts';
import { startApiProcess, type ApiProcess } from './api-process.ts';
import { startWebServer, stopPages, type TestWebServer } from './web-server.ts';

export interface Product {
  api: ApiProcess;
  web: TestWebServer;
  database: DatabaseConnection;
  stop(): Promise<void>;
}

export async function startProduct(
  options: { api?: Record<string, string>; web?: Record<string, string>; dns?: Parameters<typeof startDnsServer>[0] } = {},
): Promise<Product> {
  const dns: TestDnsServer | null = options.dns ? await startDnsServer(options.dns) : null;
  const api = await startApiProcess({
    APP_SECRET: TEST_SECRET,
    ...(dns ? { EMAIL_DOMAIN_CHECK: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_DNS_TIMEOUT_MS: '500' } : {}),
    ...options.api,
  });
  const web = await startWebServer({ API_URL: api.url, ...options.web });
  const database = connectDatabase(api.databaseUrl);
  return {
    api,
    web,
    database,
    async stop() {
      await database.close();
      await web.close();
      await stopPages();
      await api.dispose();
      await dns?.close();
    },
  };
}

/**
 * The product for a test file: started before its tests, stopped after them. Its parts are there
 * once the tests run (read them inside a test, not at the file's top level).
 */
export function productForTests(options: Parameters<typeof startProduct>[0] = {}): Product {
  const product = {} as Product;
  beforeAll(async () => {
    Object.assign(product, await startProduct(options));
  }, 120_000);
  afterAll(() => product.stop?.());
  return product;
}

/** A page as a visitor's browser gets it: status, HTML, and the visible text (the scripts, which carry catalog messages, left out). */
export async function visitPage(product: Product, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${product.web.url}${path}`, { headers });
  const html = await response.text();
  return { status: response.status, html, text: html.replace(/<script\b[\s\S]*?<\/script>/g, '') };
}
