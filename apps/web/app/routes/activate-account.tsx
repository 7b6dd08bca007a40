import { useEffect, useRef } from 'react';
import { Form, data, redirect, useNavigation, useSubmit } from 'react-router';
import type { Route } from './+types/activate-account';
import { MessageScreen } from '../components/message-screen.tsx';
import { Welcome } from '../components/welcome.tsx';
import { callApi } from '../lib/api/api.server.ts';
import { EXTERNAL_LINKS } from '../lib/external-links.ts';
import { authCookie } from '../lib/auth-cookie.server.ts';
import { localeContext } from '../lib/page/context.ts';
import { localizedPath } from '../lib/i18n/i18n.ts';
import { isLinkPreview } from '../lib/registration/link-previews.server.ts';
import { pageMeta } from '../lib/page/meta.ts';
import { activateAccount } from '../lib/api/operations.ts';
import { apiFailureMessage } from '../lib/registration/registration-code.server.ts';
import { afterRouteMiddleware, routeMiddleware } from '../lib/page/route-middleware.ts';
import { readFlow } from '../lib/session.server.ts';
import { useTrackOnce } from '../lib/analytics/use-track.ts';
import { useT } from '../lib/page/use-root.ts';
import { CONNECTION_LOST, LOST, keepDataWhenLost, sentOrLost } from '../lib/forms/connection.ts';

/** Runs the language middleware (spec §2): the email's language sticks. Should it fail, the page is the 404 and neither handler runs. */
export const middleware = routeMiddleware('language');
export const loader = afterRouteMiddleware(activationPage);
export const action = afterRouteMiddleware(activate);

const ACTIVATION_ID = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * Opening the emailed link (GET or HEAD) never activates: link scanners and chat unfurls open
 * links too and would spend the single-use id (issue 12 §1). The page confirms with a POST: by
 * itself once it runs, visible, in a person's browser; with a button where JavaScript is off.
 * For a previewer or a prerender (link-previews.server.ts) it does not confirm by itself, even
 * when the previewer runs scripts: the button waits for a person.
 */
async function activationPage({ request, context }: Route.LoaderArgs) {
  const activationId = new URL(request.url).searchParams.get('activationId') ?? '';
  if (!ACTIVATION_ID.test(activationId)) throw await activationFailed({ request, context }, 'invalid');
  return { activationId, confirmByItself: !isLinkPreview(request) };
}

/**
 * To the activation error page, with the proof that the server sent the visitor there (in the
 * signed flow cookie, as the deny page's): only then does the page report the failure's funnel
 * event, once (issue 20 §3) — an error address typed by hand or reloaded reports nothing.
 */
async function activationFailed({ request, context }: Pick<Route.ActionArgs, 'request' | 'context'>, kind: 'invalid' | 'failed') {
  const { flow, save } = await readFlow(request, context);
  const to = localizedPath(context.get(localeContext).prefix, '/registration/activateaccountError', `error=${kind}`);
  return redirect(to, { headers: { 'Set-Cookie': await save({ ...flow, activationFailure: { kind, at: Date.now() } }) } });
}

async function activate({ request, context }: Route.ActionArgs) {
  const activationId = String((await request.formData()).get('activationId') ?? '');
  if (!ACTIVATION_ID.test(activationId)) throw await activationFailed({ request, context }, 'invalid');
  const result = await callApi(activateAccount, { activationId }, { request, context });
  if (!result.ok) return { activated: null, alreadyActive: false, notice: apiFailureMessage(result.error) };
  const payload = result.data.activateAccount;
  if (!payload.outcome) {
    const unknown = payload.userErrors.some((e) => e.code === 'ACTIVATION_LINK_UNKNOWN');
    throw await activationFailed({ request, context }, unknown ? 'invalid' : 'failed');
  }
  if (payload.outcome === 'ALREADY_ACTIVE') return { activated: null, alreadyActive: true, notice: null };
  // Activated in the browser that registered: "Shop now" leads back to where the visitor came from.
  const { flow } = await readFlow(request, context);
  const activated = { firstName: payload.firstName, voucher: payload.voucher, memberId: payload.memberId, sourcePath: flow.sourcePath ?? null };
  // The new member is an identified customer from now on (spec §6, §9: the auth token cookie; ADR 022).
  return data(
    { activated, alreadyActive: false, notice: null },
    payload.memberToken ? { headers: { 'Set-Cookie': authCookie(payload.memberToken) } } : undefined,
  );
}

/** The visitor's connection lost the form on its way: the page stays, as typed, and says so (lib/forms/connection.ts). */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return (await sentOrLost(serverAction)) ?? { activated: null, alreadyActive: false, notice: CONNECTION_LOST, ...LOST };
}

export const shouldRevalidate = keepDataWhenLost;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: 'meta.activateAccount.title', noIndex: true });

export default function ActivateAccount({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitted = useRef(false);
  useTrackOnce({ event: 'activate_account_landed' });
  const { activationId, confirmByItself } = loaderData;
  useEffect(() => {
    if (!confirmByItself) return;
    // A page prerendered or opened in a background tab confirms when the person looks at it.
    const confirm = () => {
      if (submitted.current || document.visibilityState !== 'visible') return;
      submitted.current = true;
      void submit({ activationId }, { method: 'post', replace: true });
    };
    confirm();
    document.addEventListener('visibilitychange', confirm);
    return () => document.removeEventListener('visibilitychange', confirm);
  }, [activationId, confirmByItself, submit]);

  if (actionData?.activated) return <Welcome {...actionData.activated} />;
  if (actionData?.alreadyActive) {
    // A second click on the emailed link: the account is active, the way on is the login.
    return (
      <MessageScreen
        title={t('activation.alreadyActive.title')}
        text={t('activation.alreadyActive.text')}
        actions={[{ label: t('emailActive.loginNow'), to: EXTERNAL_LINKS.login, external: true }]}
      />
    );
  }
  return (
    <MessageScreen title={t('activation.title')} text={t(confirmByItself ? 'activation.text' : 'activation.confirmText')}>
      {actionData?.notice && (
        <p role="alert" className="mt-6 border-l-2 border-alert pl-4">{t(actionData.notice.id, actionData.notice.values)}</p>
      )}
      <Form method="post" replace className="mt-10">
        <input type="hidden" name="activationId" value={activationId} />
        <button type="submit" className="btn-primary" disabled={navigation.state !== 'idle'}>{t('activation.button')}</button>
      </Form>
    </MessageScreen>
  );
}
