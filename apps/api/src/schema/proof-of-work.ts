import { PROOF_OF_WORK_FORMS } from '@velvet/validation/sign-up-guard-fields';
import type { ProofOfWorkForm } from '@velvet/validation/sign-up-guard-fields';
import { enforceRateLimit } from '../rate-limit.ts';
import { issueProofOfWorkChallenge } from '../services/issue-proof-of-work-challenge.ts';
import type { ProofOfWorkChallenge } from '../services/issue-proof-of-work-challenge.ts';
import { builder } from './builder.ts';

const ProofOfWorkFormEnum = builder.enumType('ProofOfWorkForm', {
  description: 'The public forms that send a proof of work (issue 12 §2).',
  values: Object.fromEntries(PROOF_OF_WORK_FORMS.map((f) => [f, { value: f }])) as Record<ProofOfWorkForm, { value: ProofOfWorkForm }>,
});

const ProofOfWorkChallengeRef = builder.objectRef<ProofOfWorkChallenge>('ProofOfWorkChallenge');
ProofOfWorkChallengeRef.implement({
  description:
    'An ALTCHA challenge (PBKDF2/SHA-256, deterministic counter) signed by the API. Solve it with altcha-lib and send ' +
    'base64url(JSON.stringify({ challenge, solution })) as proofOfWork of the form\'s mutation, once, within 20 minutes.',
  fields: (t) => ({
    challenge: t.string({ nullable: true, description: 'The challenge as JSON; null when the form needs no proof.', resolve: (c) => c.challenge }),
    level: t.exposeInt('level', { description: '0 when sign-ups are quiet, up to 4 in a rush: each level doubles the work.' }),
  }),
});

builder.queryField('proofOfWorkChallenge', (t) =>
  t.field({
    type: ProofOfWorkChallengeRef,
    description:
      'The proof of work for one submission of `form`. For REGISTRATION through a signed single-use invitation link ' +
      '(registrationCode and validityTimestamp of a personal invitation) no proof is asked. Rate limited per client ' +
      'network (RATE_LIMITED).',
    args: {
      form: t.arg({ type: ProofOfWorkFormEnum, required: true }),
      registrationCode: t.arg.string({ required: false }),
      validityTimestamp: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      await enforceRateLimit(ctx.limiters.proofOfWorkChallenges, ctx.requestNetwork);
      return issueProofOfWorkChallenge(
        {
          db: ctx.db,
          secret: ctx.env.APP_SECRET,
          referrerBlocklist: ctx.settings.referrerBlocklist,
          signUpRate: ctx.signUpRate,
          proofOfWork: { enabled: ctx.env.PROOF_OF_WORK, difficulty: ctx.env.PROOF_OF_WORK_DIFFICULTY },
          now: ctx.now,
        },
        args,
      );
    },
  }),
);
