/**
 * What a public form carries besides its fields, shared by the web app (which renders and reads
 * the forms, and solves the proof of work in the browser) and the API (which checks the proof):
 * issue 12 §2, ADR 041.
 *
 * - The proof of work: the solved challenge travels as one form field and one GraphQL argument,
 *   `base64url(JSON.stringify({ challenge, solution }))`, ALTCHA's challenge and solution as
 *   altcha-lib makes and solves them.
 * - The honeypot: a field people never see or fill (hidden from sight, from assistive technology
 *   and from the tab order); scripts that fill every field fill it.
 * - The form's start: the signed instant the visitor was first shown a public form, fetched by
 *   the page's script (never in the HTML); a form sent sooner than FORM_MIN_FILL_SECONDS after it
 *   came from a script, and one without it (no JavaScript) goes on to the API.
 */
import { z } from 'zod';

/** A solved proof is a few hundred characters; anything longer is not one. */
export const PROOF_OF_WORK_MAX_LENGTH = 4096;

const hex = z.string().regex(/^[0-9a-f]*$/i).max(512);
const proofSchema = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.string().max(32),
        nonce: hex,
        salt: hex,
        cost: z.number().int().positive(),
        keyLength: z.number().int().positive().max(64),
        keyPrefix: hex,
        keySignature: hex.optional(),
        data: z.record(z.string(), z.union([z.string().max(64), z.number(), z.boolean(), z.null()])).optional(),
      })
      .strict(),
    signature: hex,
  }),
  solution: z.object({ counter: z.number().int().min(0), derivedKey: hex }),
});
export type ProofOfWork = z.infer<typeof proofSchema>;

/** The proof in a form field or argument, or null when it is missing or not one. */
export function decodeProofOfWork(value: string | null | undefined): ProofOfWork | null {
  if (!value || value.length > PROOF_OF_WORK_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
  try {
    const binary = atob(value.replaceAll('-', '+').replaceAll('_', '/'));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const parsed = proofSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
