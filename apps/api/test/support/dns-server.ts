/**
 * A real DNS server on loopback for the tests of addresses that can receive mail (issue 12 §3,
 * ADR 042): UDP on 127.0.0.1 and a port of its own, answering from a small zone. An unknown name
 * is NXDOMAIN, a known name without the asked type an empty answer (NODATA), a `silent` name is
 * never answered (a resolver that times out). The API is pointed at it with EMAIL_DNS_SERVERS.
 */
import dns2 from 'dns2';

const { Packet } = dns2;

export interface ZoneRecords {
  MX?: { exchange: string; priority: number }[];
  A?: string[];
  AAAA?: string[];
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for EMAIL_DNS_SERVERS. */
  address: string;
  /** Questions asked so far, as `name TYPE`. */
  questions: string[];
  close(): Promise<void>;
}

const TYPE_NAMES: Record<number, keyof ZoneRecords> = { [Packet.TYPE.MX]: 'MX', [Packet.TYPE.A]: 'A', [Packet.TYPE.AAAA]: 'AAAA' };

export async function startDnsServer(zone: Record<string, ZoneRecords>, options: { silent?: string[] } = {}): Promise<TestDnsServer> {
  const questions: string[] = [];
  const silent = new Set(options.silent ?? []);
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const [question] = request.questions;
      if (!question) return;
      const name = question.name.toLowerCase().replace(/\.$/, '');
      const type = TYPE_NAMES[question.type];
      questions.push(`${name} ${type ?? question.type}`);
      if (silent.has(name)) return;
      const records = zone[name];
      if (!records) {
        send(Packet.createErrorResponseFromRequest(request, Packet.RCODE.NXDOMAIN));
        return;
      }
      const response = Packet.createResponseFromRequest(request);
      type Answer = (typeof response.answers)[number];
      const answer = (fields: { type: number; address?: string; exchange?: string; priority?: number }) =>
        response.answers.push({ name: question.name, class: Packet.CLASS.IN, ttl: 60, ...fields } as Answer);
      if (type === 'MX') for (const mx of records.MX ?? []) answer({ type: Packet.TYPE.MX, ...mx });
      if (type === 'A') for (const address of records.A ?? []) answer({ type: Packet.TYPE.A, address });
      if (type === 'AAAA') for (const address of records.AAAA ?? []) answer({ type: Packet.TYPE.AAAA, address });
      send(response);
    },
  });
  const listening = server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  await listening;
  const { port } = server.addresses().udp as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    questions,
    close: () => server.close(),
  };
}
