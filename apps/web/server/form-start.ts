/**
 * GET /entrance/form-start (app/lib/forms/form-start.ts's FORM_START_PATH): a public form's signed
 * start (ADR 041; issue 19 §2, issue 20 §1), fetched by the page's script when the visitor is
 * first shown a public form, so the page's HTML holds no per-visitor value and a shared cache
 * may keep it. JSON `{ start, readyInMs }`: the start, and after how long a form may be sent
 * with it (FORM_MIN_FILL_SECONDS). Never cached. Limited per client network (an IPv4 address, an
 * IPv6 /64) like the proof-of-work challenge: RATE_LIMIT_FORM_STARTS_PER_MINUTE, plus a burst of
 * half as many per 10 minutes, counted in this process (as the starts' uses are); beyond, 429,
 * and the form goes without a start, as without JavaScript.
 */
import type express from 'express';
import { clientNetwork } from '@velvet/validation/client-network';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { formStartToken } from '../app/lib/forms/form-guard.server.ts';
import type { FormStartAnswer } from '../app/lib/forms/form-start.ts';

export function formStartDoor({ secret, minFillSeconds, perMinute }: { secret: string; minFillSeconds: number; perMinute: number }): express.RequestHandler {
  const limiter = new BurstyRateLimiter(
    new RateLimiterMemory({ keyPrefix: 'form-start', points: perMinute, duration: 60 }),
    new RateLimiterMemory({ keyPrefix: 'form-start:burst', points: Math.max(1, Math.floor(perMinute / 2)), duration: 600 }),
  );
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await limiter.consume(clientNetwork(req.ip ?? 'unknown'));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      res.status(429).json({ error: 'rate limited' });
      return;
    }
    res.json({ start: formStartToken(secret), readyInMs: Math.round(minFillSeconds * 1000) } satisfies FormStartAnswer);
  };
}
