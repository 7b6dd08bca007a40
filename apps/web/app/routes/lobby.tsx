import { verifyLobbyToken } from '@velvet/tokens/signed-token';
import { Form, redirect } from 'react-router';
import type { Route } from './+types/lobby';
import { MessageScreen } from '../components/message-screen.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { localeContext, requestInfoContext } from '../lib/page/context.ts';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { joinWaitlist, lobbyToken as lobbyTokenDetails } from '../lib/api/operations.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useLocalPath, useT } from '../lib/page/use-root.ts';
import { useSubmitting } from '../lib/forms/forms.ts';
import { isScriptedSubmission } from '../lib/forms/form-guard.server.ts';
import { shownEmail } from '../lib/forms/shown-email.server.ts';
import { FormGuard } from '../components/form-guard.tsx';
import { SubmitButton } from '../components/submit-button.tsx';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** An emailed lobby link's reference (ADR 060): 128 random bits, base64url. A signed token always has dots. */
const REFERENCE = /^[A-Za-z0-9_-]{22}$/;

const denyToken = (context: Route.LoaderArgs['context']) => redirect(localizedPath(context.get(localeContext).prefix, '/registration/deny', 'reason=token'));

/**
 * The lobby link's `?token=`: the short reference of an emailed link, which only the API can
 * resolve, or a signed lobby token (an operator's link, or an email sent before ADR 060), which
 * is checked here first. Anything unusable is the deny page.
 */
async function lobbyLink(request: Request, context: Route.LoaderArgs['context']): Promise<{ token: string; email: string | null }> {
  const token = (new URL(request.url).searchParams.get('token') ?? '').trim();
  if (REFERENCE.test(token)) return { token, email: null };
  const verified = await verifyLobbyToken(token, context.get(requestInfoContext).appSecret);
  if (!verified.ok) throw denyToken(context);
  return { token, email: verified.claims.email };
}

/**
 * The address, and whether it is on the list already: the link opened again after joining says
 * so instead of offering to join (UX review of 27 Nov, row 22). Without an answer from the API a
 * signed token's form shows (joining then answers "already on the list" as before); a reference
 * needs the API to name its address, so the page says what went wrong instead.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { token, email } = await lobbyLink(request, context);
  const details = await callApi(lobbyTokenDetails, { token }, { request, context });
  if (details.ok && details.data.lobbyToken.userErrors.length > 0) throw denyToken(context);
  const address = email ?? (details.ok ? details.data.lobbyToken.email : null);
  if (address === null) return { email: null, onWaitlist: false, unavailable: details.ok ? null : apiFailureMessage(details.error) };
  return { email: shownEmail(address), onWaitlist: details.ok && details.data.lobbyToken.onWaitlist, unavailable: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { token } = await lobbyLink(request, context);
  const { locale, prefix } = context.get(localeContext);
  // A script: "you have been added", as a person would read, and nothing written (ADR 041).
  if (isScriptedSubmission(await request.formData(), context)) return { outcome: 'JOINED' as const, notice: null };
  const result = await callApi(joinWaitlist, { token, language: locale }, { request, context });
  if (!result.ok) return { outcome: null, notice: apiFailureMessage(result.error) };
  const { outcome } = result.data.joinWaitlist;
  // outcome is null exactly when the link was refused (userErrors TOKEN_*).
  if (!outcome) throw redirect(localizedPath(prefix, '/registration/deny', 'reason=token'));
  return { outcome, notice: null };
}

/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { outcome: null, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.lobby.title', description: 'meta.lobby.description', noIndex: true });

/** "We're full—for now": join the waiting list with the email the shop knows. */
export default function Lobby({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useSubmitting();
  const path = useLocalPath();
  const outcome = actionData?.outcome ?? (loaderData.onWaitlist ? 'ALREADY_ON_LIST' : null);
  useTrackOnce(actionData?.outcome === 'JOINED' ? { event: 'join_waitlist', method: 'Google' } : null);
  if (loaderData.unavailable || loaderData.email === null) {
    // The API could not name the link's address: nothing to join with until it answers again.
    const notice = loaderData.unavailable;
    return (
      <MessageScreen title={t('lobby.title')}>
        {notice && <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(notice.id, notice.values)}</p>}
      </MessageScreen>
    );
  }
  if (outcome) {
    // What comes next, for someone who is not a member yet: the club to discover, then the login (spec §2).
    return (
      <MessageScreen
        title={t('lobby.title')}
        actions={[
          { label: t('lobby.discover'), to: path('/about-us') },
          { label: t('lobby.backToLogin'), to: EXTERNAL_LINKS.login, external: true, variant: 'outline' },
        ]}
      >
        <p role="status" className="mt-8 text-xl">{t(outcome === 'JOINED' ? 'lobby.joined' : 'lobby.alreadyJoined')}</p>
        {outcome === 'JOINED' && <p className="mt-4 leading-relaxed text-stone">{t('lobby.joinedNext', { email: loaderData.email })}</p>}
      </MessageScreen>
    );
  }
  return (
    <MessageScreen title={t('lobby.title')} text={t('lobby.text')}>
      {actionData?.notice && <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(actionData.notice.id, actionData.notice.values)}</p>}
      <Form method="post" className="mt-10 space-y-6">
        <FormGuard />
        <p className="text-sm leading-relaxed text-stone">{t('lobby.consent', { email: loaderData.email })}</p>
        <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap">
          <SubmitButton busy={busy} label={t('lobby.join')} className="btn-primary" />
          <a className="btn-outline" href={EXTERNAL_LINKS.login} rel="noopener">{t('lobby.backToLogin')}</a>
        </div>
      </Form>
    </MessageScreen>
  );
}
