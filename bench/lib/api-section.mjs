/**
 * The API's busiest query, `registrationCodeDetails` (every landing page with ?rc= asks it),
 * against a bare GraphQL Yoga server over the same schema answering the same JSON from memory
 * (bench/anchors/yoga-server.mjs): same operation, same response bytes, 50 connections. Issue 19
 * §5: at least 0.8 of the anchor's throughput (issue 11 asked for 1.0), with a p99 at most 1.2
 * times the anchor's.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startAnchor } from './anchors.mjs';
import { num } from './format.mjs';
import { JSON_HEADERS, graphqlBody, postGraphql, webOperation } from './graphql.mjs';
import { anyFailed, cpuText, loadTable, ratioGoal, throughput } from './sections.mjs';

const REGISTRATION_CODE = 'WELCOME2026';

/** @type {import('./sections.mjs').Section} */
export const apiSection = {
  name: 'api',
  title: 'API registrationCodeDetails against a bare GraphQL Yoga server (same schema, query and JSON)',
  needs: 'product',
  async run({ root, workDir, settings, ports, product, measure, onCleanup }) {
    if (!product) throw new Error('the api section needs the product');
    const body = graphqlBody('checkRegistrationCode', webOperation(root, 'checkRegistrationCode'), { registrationCode: REGISTRATION_CODE });
    const apiUrl = `${product.apiUrl}/graphql`;
    const probe = await postGraphql(apiUrl, body);
    const details = probe.json.data?.registrationCodeDetails;
    if (!details || details.errors.length > 0 || details.countryOptions.length === 0) {
      throw new Error(`registrationCodeDetails(${REGISTRATION_CODE}) does not answer as expected: ${probe.text.slice(0, 500)}`);
    }
    const probeFile = path.join(workDir, 'registration-code-details.json');
    writeFileSync(probeFile, probe.text);

    const anchor = await startAnchor(root, 'yoga-server.mjs', ports.yogaAnchor, [probeFile], onCleanup);
    let bare;
    try {
      const anchorAnswer = await postGraphql(`${anchor.url}/graphql`, body);
      if (anchorAnswer.text !== probe.text) throw new Error(`the bare Yoga anchor answers other bytes than the API: ${anchorAnswer.text.slice(0, 300)}`);
      bare = await measure('anchor: bare Yoga', {
        url: `${anchor.url}/graphql`,
        method: 'POST',
        headers: JSON_HEADERS,
        body,
        connections: settings.apiConnections,
        duration: settings.duration,
        cpu: anchor.cpu,
      });
    } finally {
      await anchor.stop();
    }

    // Every response is checked: rate limits are answered as GraphQL errors with HTTP 200.
    const check = { responses: 0, rateLimited: 0, unexpected: 0, sample: '' };
    const api = await measure('API registrationCodeDetails', {
      url: apiUrl,
      method: 'POST',
      headers: JSON_HEADERS,
      body,
      connections: settings.apiConnections,
      duration: settings.duration,
      cpu: product.cpu,
      onResponse(status, text) {
        check.responses++;
        if (text.includes('RATE_LIMITED')) check.rateLimited++;
        else if (status !== 200 || text !== probe.text) {
          check.unexpected++;
          check.sample ||= `${status} ${text.slice(0, 300)}`;
        }
      },
    });

    const ratio = api.requestsPerSecond / bare.requestsPerSecond;
    const p99Ratio = api.p99 / bare.p99;
    return {
      figures: [
        { id: 'api.throughput', label: 'API registrationCodeDetails, req/s', measured: throughput(api), anchor: `${throughput(bare)} (bare Yoga)`, ratio, goal: ratioGoal(ratio, 0.8) },
        { id: 'api.p99', label: 'API registrationCodeDetails, p99', measured: `${num(api.p99)} ms`, anchor: `${num(bare.p99)} ms (bare Yoga)`, ratio: p99Ratio, goal: ratioGoal(p99Ratio, 1.2, { atMost: true }) },
      ],
      lines: [
        ...loadTable([
          ['anchor: bare Yoga, same JSON', bare],
          ['API  POST /graphql registrationCodeDetails', api],
        ]),
        '',
        `  Server CPU per request: ${cpuText(api)} vs ${cpuText(bare)} for bare Yoga${api.cpuPerRequest && bare.cpuPerRequest ? ` (${num(api.cpuPerRequest / bare.cpuPerRequest, 2)}×; the API's process group: API, idle web server, start.mjs)` : ''}.`,
        `  Responses: ${num(Buffer.byteLength(probe.text))} bytes each. Checked ${num(check.responses)}: rate-limited ${num(check.rateLimited)}, other than the probe's answer ${num(check.unexpected)}${check.sample ? ` (e.g. ${check.sample})` : ''}`,
      ],
      data: { bare, api, check, responseBytes: Buffer.byteLength(probe.text) },
      suspect: anyFailed(bare, api) || check.rateLimited > 0 || check.unexpected > 0,
    };
  },
};
