/**
 * The product-share pop-up (spec §3): a valid email starts the registration with the sharer's
 * invitation, the address already filled in.
 */
import { emailForm } from '@velvet/validation/registration';
import { redirect } from 'react-router';
import { isScriptedSubmission } from '../forms/form-guard.server.ts';
import { parseWithZod } from '../forms/submission.server.ts';
import { localizedPath } from '../i18n/i18n.ts';
import { localeContext } from '../page/context.ts';
import { formResult } from '../registration/registration-outcome.server.ts';
import { denyPath, invitationFrom, invitationQuery, type Args } from '../registration/registration.server.ts';
import { readFlow } from '../session.server.ts';

export async function handleProductShare({ request, context }: Args, formData: FormData, slug: string | null) {
  const { prefix } = context.get(localeContext);
  const submission = parseWithZod(formData, { schema: emailForm });
  if (submission.status !== 'success') return formResult(submission);
  const { flow, save } = await readFlow(request, context);
  const invitation = invitationFrom(new URL(request.url), flow);
  if (!invitation) throw redirect(denyPath(prefix, 'invalid'));
  const withSlug = { ...invitation, slug };
  // A script (honeypot, too fast): the form's next page as for anyone, and its address is not kept (ADR 041).
  const email = isScriptedSubmission(formData, context) ? flow.registrationEmail : submission.value.email;
  const cookie = await save({ ...flow, registrationCode: withSlug.code, validityTimestamp: withSlug.validityTimestamp, slug, registrationEmail: email });
  throw redirect(localizedPath(prefix, '/registration/formstarted', invitationQuery(withSlug)), { headers: { 'Set-Cookie': cookie } });
}
