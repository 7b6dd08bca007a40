import { useT } from '../lib/page/use-root.ts';

/** A code's state in the console (ADR 046), in words; a revoked code that was rotated says "replaced". */
export function StateLabel({ state, replaced }: { state: string; replaced: boolean }) {
  const t = useT();
  const name = state.toLowerCase();
  return (
    <span className={name === 'valid' ? '' : 'eyebrow'} data-state={name}>
      {t(replaced && name === 'revoked' ? 'admin.codes.state.replaced' : `admin.codes.state.${name}`)}
    </span>
  );
}
