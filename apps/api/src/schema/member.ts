/** Query.viewer: who the request's member token identifies (spec §6; docs/decisions/022). */
import type { MemberIdentity } from '../auth/member-identity.ts';
import { builder } from './builder.ts';
import { WelcomeVoucherRef } from './registration.ts';
import { welcomeVoucherOf } from '../domain/member-activation.ts';

const ViewerRef = builder.objectRef<MemberIdentity>('Viewer');
ViewerRef.implement({
  description: 'An identified customer (spec §3, §6).',
  fields: (t) => ({
    customerId: t.exposeString('customerId', { description: "The customer's id: the memberId that register, completeSocialRegistration and activateAccount return." }),
    saltedHashedCustomerId: t.exposeString('saltedHashedCustomerId', {
      description: 'The salted hash of the customer id pushed to analytics (spec §3): HMAC-SHA256, hex.',
    }),
    welcomeVoucher: t.field({
      type: WelcomeVoucherRef,
      nullable: true,
      description:
        "The customer's welcome voucher as activation issued it (its welcome email carries the same, ADR 058); null when none. " +
        'For the page that waited for the activation on another device.',
      resolve: (viewer, _args, ctx) => welcomeVoucherOf(ctx.db, viewer.customerId),
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerRef,
    nullable: true,
    description:
      'The active customer the `Authorization: Bearer` member token identifies — over HTTP, or in graphql-ws ' +
      "connection_init's headers; null for unidentified customers (no token, an invalid or expired one, or a member no longer active).",
    resolve: (_root, _args, ctx) => ctx.member(),
  }),
);
