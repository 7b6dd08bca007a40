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
      className="m-auto w-[min(40rem,calc(100vw-2rem))] bg-paper p-0 text-ink backdrop:bg-ink/70"
    >
      <div className="max-h-[90vh] overflow-y-auto p-8 sm:p-10">
        <div className="flex justify-end">
          <button type="button" onClick={onClose} className="link text-sm">
            {t('formFinished.close')}
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
