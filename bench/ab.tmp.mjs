// temporary A/B harness (not committed): API alone vs bare Yoga, alternating
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os'; import path from 'node:path';
import { startApi } from './lib/product.mjs';
import { startAnchor } from './lib/anchors.mjs';
import { load } from './lib/load.mjs';
import { graphqlBody, postGraphql, webOperation, JSON_HEADERS } from './lib/graphql.mjs';
const root = path.resolve('.');
const rounds = Number(process.argv[2] ?? 3), secs = Number(process.argv[3] ?? 5);
const cleanups = []; const onCleanup = (f) => { cleanups.push(f); return () => {}; };
const api = await startApi(root, { apiPort: 9530, env: { TRUST_PROXY: 'true' } });
const body = graphqlBody('checkRegistrationCode', webOperation(root, 'checkRegistrationCode'), { registrationCode: 'WELCOME2026' });
const probe = await postGraphql(`${api.apiUrl}/graphql`, body);
const dir = mkdtempSync(path.join(os.tmpdir(), 'ab-')); writeFileSync(path.join(dir, 'p.json'), probe.text);
const anchor = await startAnchor(root, 'yoga-server.mjs', 9531, [path.join(dir, 'p.json')], onCleanup);
const run = (url, cpu, d) => load({ url, method: 'POST', headers: JSON_HEADERS, body, connections: 50, duration: d, cpu });
await run(`${anchor.url}/graphql`, null, 2); await run(`${api.apiUrl}/graphql`, null, 2);
const rows = [];
for (let i = 0; i < rounds; i++) {
  const a = await run(`${anchor.url}/graphql`, anchor.cpu, secs); const b = await run(`${api.apiUrl}/graphql`, api.cpu, secs);
  rows.push({ yoga: a.requestsPerSecond, api: b.requestsPerSecond, yCpu: a.cpuPerRequest, aCpu: b.cpuPerRequest, yp99: a.p99, ap99: b.p99 });
  console.log(`yoga ${a.requestsPerSecond.toFixed(0)}/s ${a.cpuPerRequest.toFixed(0)}µs p99 ${a.p99} | api ${b.requestsPerSecond.toFixed(0)}/s ${b.cpuPerRequest.toFixed(0)}µs p99 ${b.p99} | ratio ${(b.requestsPerSecond / a.requestsPerSecond).toFixed(2)} cpu ${(b.cpuPerRequest / a.cpuPerRequest).toFixed(2)}`);
}
const med = (xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
console.log(`median ratio ${med(rows.map(r => r.api / r.yoga)).toFixed(3)} cpu ${med(rows.map(r => r.aCpu / r.yCpu)).toFixed(3)} load ${os.loadavg()[0].toFixed(1)}`);
await anchor.stop(); await api.stop();
