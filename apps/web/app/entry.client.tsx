import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { ignoreCancelledNavigations } from './lib/error-reporting/cancelled-navigations.ts';
import { reportError, startErrorReporting } from './lib/error-reporting/error-reporting.ts';
import { sendSessionIdWithRouterRequests } from './lib/page/page-load.ts';

// Before anything else runs: a superseded navigation's cancelled request is not an error;
// uncaught errors of this page go to the error reporter (ADR 013).
ignoreCancelledNavigations();
startErrorReporting();
// Every later request of this page load carries its id (ADR 022; page-load.ts says why it wraps fetch).
sendSessionIdWithRouterRequests();

try {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
} catch (error) {
  console.error('Error while mounting app:', error);
  // The router itself failed: the server-rendered page stays usable, but send the visitor
  // somewhere that works without the client router (spec §2), once the report is on its way.
  void reportError(error, { message: 'Error while mounting app:', level: 'fatal' }).finally(() => window.location.replace('/acquisition/error/404'));
}
