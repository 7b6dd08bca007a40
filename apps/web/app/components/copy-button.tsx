import { useState } from 'react';
import { useLaterMessages, useT } from '../lib/page/use-root.ts';

/**
 * A copy-to-clipboard button and its live status line ("Copied" / "Could not copy"): the admin
 * pages', and the welcome voucher's (with its own wording). A native button, so Enter and Space
 * copy too. A new `key` from the page clears the status (a new submission).
 */
export function CopyButton({
  value,
  label = 'admin.linkGenerator.copy',
  copied = 'admin.linkGenerator.copied',
  failed = 'admin.linkGenerator.copyFailed',
  className = 'btn-inverse',
}: {
  value: string;
  label?: string;
  copied?: string;
  failed?: string;
  className?: string;
}) {
  const t = useT();
  useLaterMessages(copied, failed);
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
        {copy === 'copied' ? t(copied) : copy === 'failed' ? t(failed) : ''}
      </p>
    </>
  );
}
