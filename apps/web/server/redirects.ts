/**
 * Every redirect stays on the site (ADR 028). The places that build a Location from the
 * request's path make it a same-site path themselves (`sameSitePath`); this guard is the net
 * under them and under what we do not write (Express's and the static server's redirects,
 * React Router's): a Location a browser would read as another host (`//host`, `/\host`, with
 * tabs or newlines anywhere) is rewritten to the path on our own origin before it is sent.
 * Absolute addresses (the sign-in provider, the app's scheme) pass unchanged.
 */
import type express from 'express';
import { leavesTheSite, sameSitePath } from '../app/lib/same-site-path.ts';

export const sameSiteRedirects: express.RequestHandler = (_req, res, next) => {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = ((name: string, value: number | string | readonly string[]) => {
    if (name.toLowerCase() === 'location') {
      const location = Array.isArray(value) ? String(value[0]) : String(value);
      if (leavesTheSite(location)) return setHeader(name, sameSitePath(location));
    }
    return setHeader(name, value);
  }) as typeof res.setHeader;
  next();
};
