import { useEffect, useRef } from 'react';
import { useT } from '../lib/page/use-root.ts';

/** A native modal dialog: focus is trapped and Escape closes it. */
export function Modal({
  open,
  onClose,
  labelledBy,
  children,
}: {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  children: React.ReactNode;
}) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      onClose={onClose}
      // On a phone the dialog is the whole screen: nothing of the page peeks out around it (UX review of 27 Nov, row 11).
      className="m-auto w-[min(40rem,calc(100vw-2rem))] bg-paper p-0 text-ink backdrop:bg-ink/70 max-sm:m-0 max-sm:h-dvh max-sm:max-h-dvh max-sm:w-full max-sm:max-w-full"
    >
      <div className="flex max-h-[90vh] flex-col max-sm:h-full max-sm:max-h-none">
        <div className="flex justify-end px-3 pt-2 sm:px-6 sm:pt-4">
          <button type="button" onClick={onClose} className="inline-flex min-h-11 min-w-11 items-center justify-center gap-2 px-2 text-sm font-medium underline-offset-4 hover:underline">
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.5">
              <path d="M3 3l10 10M13 3L3 13" />
            </svg>
            {t('formFinished.close')}
          </button>
        </div>
        <div className="flex-1 overflow-y-auto px-5 pb-5 sm:px-10 sm:pb-10">{children}</div>
      </div>
    </dialog>
  );
}
