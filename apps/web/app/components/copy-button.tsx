import { useState } from 'react';
import { useT } from '../lib/page/use-root.ts';

/**
 * The admin pages' copy-to-clipboard button and its live status line ("Copied" / "Could not
 * copy"). A new `key` from the page clears the status (a new submission).
 */
export function CopyButton({ value, label = 'admin.linkGenerator.copy', className = 'btn-inverse' }: { value: string; label?: string; className?: string }) {
  const t = useT();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <button
        type="button"
        className={`${className} mt-6`}
        onClick={() => {
          navigator.clipboard.writeText(value).then(() => setCopy('copied'), () => setCopy('failed'));
        }}
      >
        {t(label)}
      </button>
      <p role="status" className="mt-3 min-h-5 text-sm">
        {copy === 'copied' ? t('admin.linkGenerator.copied') : copy === 'failed' ? t('admin.linkGenerator.copyFailed') : ''}
      </p>
    </>
  );
}
